import { RepoConfigFileReadEvent, UpdateConfigIgnoresChangedEvent } from '@switchyard/contracts';
import { type ConsumerHandle, consumeEvents, type MessageBus } from '@switchyard/messaging';
import type { Logger } from '@switchyard/service-kit';
import type { Kysely } from 'kysely';
import type { ConfigDatabase } from '../db/schema.ts';
import { applyConfigFileRead, applyIgnoresChanged } from './config-file.service.ts';

/**
 * Starts config-svc's consumer of what repositories say: `<queuePrefix>.config-files` takes release-svc's
 * `repo_config_file.read` and applies each ({@link applyConfigFileRead}: a read older than the last applied changes
 * nothing, so a redelivery or a late message is harmless), and `update_config.ignores_changed`, the ignores people made
 * for a config (stored unless older than those held: {@link applyIgnoresChanged}), 4 at a time.
 * @returns the consumer, to cancel on shutdown
 * @throws what `MessageBus.consume` throws
 */
export function consumeConfigFiles(
  bus: MessageBus,
  deps: { db: Kysely<ConfigDatabase>; logger: Logger; queuePrefix: string },
): Promise<ConsumerHandle> {
  const { db, logger } = deps;
  return consumeEvents(
    bus,
    { queue: `${deps.queuePrefix}.config-files`, events: [RepoConfigFileReadEvent, UpdateConfigIgnoresChangedEvent], prefetch: 4 },
    async (event) => {
      if (event.type === 'update_config.ignores_changed') {
        await applyIgnoresChanged(db, event.data);
        return;
      }
      const outcome = await applyConfigFileRead(db, event.data);
      logger.info({ repo: event.data.repo.fullName, file: event.data.file?.path ?? null, ...outcome }, 'config file applied');
    },
  );
}
