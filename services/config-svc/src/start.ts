import { type DependencyApiOverrides, type RunningDependencyApi, startDependencyApi } from '@switchyard/dependency-api';
import { createOutboundGuard, type Database, type Logger, type OutboundResolver, openServiceDatabase } from '@switchyard/service-kit';
import { consumeAppInstallations } from './accounts/app-installation.consumer.ts';
import { createConfigApp } from './app.ts';
import type { ConfigServiceConfig } from './config.ts';
import { consumeConfigFiles } from './config-files/config-file.consumer.ts';
import { configMigrations } from './db/migrations/index.ts';
import { CONFIG_SCHEMA, type ConfigDatabase } from './db/schema.ts';
import { consumeReleaseNotifications } from './update-configs/release-notification.consumer.ts';

/**
 * What can be handed to config-svc instead of being built from its configuration: a bus (not closed by the service), a
 * code host, and the name resolution of the outbound guard that checks registry credentials' `base-url`s (tests make a
 * name resolve to a refused address; default the system resolver).
 */
export type ConfigServiceOverrides = DependencyApiOverrides & { resolveRegistryHost?: OutboundResolver };

/** A running config-svc: its base URL, database and bus, and `close()`. */
export type RunningConfigService = RunningDependencyApi<ConfigDatabase>;

/** Opens the database `config` names and brings the `config` schema up to date. @throws MigrationFailedError */
export function openConfigDatabase(config: ConfigServiceConfig, logger: Logger): Promise<Database<ConfigDatabase>> {
  return openServiceDatabase<ConfigDatabase>(CONFIG_SCHEMA, config, configMigrations, logger);
}

/**
 * Starts config-svc: database and migrations, the message bus, the outbox relay, its consumers of release notifications
 * (answered with checkpoints, {@link consumeReleaseNotifications}) and of repositories' config files ({@link consumeConfigFiles}), and HTTP on `config.HOST:config.PORT`
 * (`startDependencyApi`). `close()` stops HTTP, cancels the consumer, then stops the relay, then the bus it owns, then
 * the database.
 * @throws MigrationFailedError / the broker's connection error / the listen error (after closing what it had opened)
 */
export function startConfigService(
  config: ConfigServiceConfig,
  logger: Logger,
  overrides: ConfigServiceOverrides = {},
): Promise<RunningConfigService> {
  return startDependencyApi(
    {
      name: 'config-svc',
      schema: CONFIG_SCHEMA,
      migrations: configMigrations,
      createApp: (deps) =>
        createConfigApp(deps, {
          secretsKey: config.SECRETS_KEY,
          outboundGuard: createOutboundGuard({
            allowedHosts: config.REGISTRY_ALLOWED_HOSTS,
            setting: 'REGISTRY_ALLOWED_HOSTS',
            ...(overrides.resolveRegistryHost ? { resolve: overrides.resolveRegistryHost } : {}),
          }),
        }),
      startConsumers: async ({ bus, db }) => [
        await consumeReleaseNotifications(bus, { db, logger, queuePrefix: config.QUEUE_PREFIX }),
        await consumeConfigFiles(bus, { db, logger, queuePrefix: config.QUEUE_PREFIX }),
        await consumeAppInstallations(bus, { db, logger, queuePrefix: config.QUEUE_PREFIX }),
      ],
    },
    config,
    logger,
    overrides,
  );
}
