import { createLogger, runService } from '@switchyard/service-kit';
import { startGitHubEmulator } from './app.ts';
import { loadEmulatorConfig } from './config.ts';
import { loadDemoSeed, loadSeedFile } from './seed.ts';

await runService('github-emulator', async () => {
  const config = loadEmulatorConfig();
  const logger = createLogger('github-emulator', config.LOG_LEVEL);
  const seedPath = config.CODE_HOST_SEED ?? 'the demo seed';
  const loaded = config.CODE_HOST_SEED ? loadSeedFile(config.CODE_HOST_SEED) : loadDemoSeed();
  const seed = config.CODE_HOST_RATE_LIMIT ? { ...loaded, rateLimit: { ...loaded.rateLimit, limit: config.CODE_HOST_RATE_LIMIT } } : loaded;
  const dataDir = config.DATA_DIR === 'memory://' ? undefined : config.DATA_DIR;
  const running = await startGitHubEmulator({
    seed,
    logger,
    htmlBaseUrl: config.CODE_HOST_HTML_URL,
    webhooks: { url: config.CODE_HOST_WEBHOOK_URL, secret: config.CODE_HOST_WEBHOOK_SECRET },
    port: config.PORT,
    host: config.HOST,
    ...(dataDir === undefined ? {} : { dataDir }),
    ...(config.CODE_HOST_INSTALLATION_TOKEN_TTL_MS === undefined
      ? {}
      : { installationTokenTtlMs: config.CODE_HOST_INSTALLATION_TOKEN_TTL_MS }),
    ...(config.CODE_HOST_APP_PRIVATE_KEY_FILE === undefined ? {} : { appPrivateKeyFile: config.CODE_HOST_APP_PRIVATE_KEY_FILE }),
    ...(config.CODE_HOST_SECONDARY_LIMITS === undefined ? {} : { secondaryLimits: config.CODE_HOST_SECONDARY_LIMITS }),
  });
  logger.info(
    {
      url: running.url,
      seed: seedPath,
      users: seed.users.map((u) => u.login),
      repos: seed.repos.length,
      webhooks: config.CODE_HOST_WEBHOOK_URL ?? null,
      dataDir: dataDir ?? null,
      apps: seed.apps.map((app) => ({ id: app.id, slug: app.slug })),
      appPrivateKeyFile: config.CODE_HOST_APP_PRIVATE_KEY_FILE ?? null,
      secondaryLimits: config.CODE_HOST_SECONDARY_LIMITS ?? null,
    },
    'GitHub emulator listening',
  );
  return { logger, service: running };
});
