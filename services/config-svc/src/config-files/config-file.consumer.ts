import { RepoConfigFileReadEvent } from '@switchyard/contracts';
import { type ConsumerHandle, consumeEvents, type MessageBus } from '@switchyard/messaging';
import type { Logger } from '@switchyard/service-kit';
import type { Kysely } from 'kysely';
import type { ConfigDatabase } from '../db/schema.ts';
import { applyConfigFileRead } from './config-file.service.ts';

/**
 * Starts config-svc's consumer of repositories' config files: `<queuePrefix>.config-files` takes release-svc's
 * `repo_config_file.read` and applies each ({@link applyConfigFileRead}: a read older than the last applied changes
 * nothing, so a redelivery or a late message is harmless), 4 at a time.
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
    { queue: `${deps.queuePrefix}.config-files`, events: [RepoConfigFileReadEvent], prefetch: 4 },
    async (event) => {
      const outcome = await applyConfigFileRead(db, event.data);
      logger.info({ repo: event.data.repo.fullName, file: event.data.file?.path ?? null, ...outcome }, 'config file applied');
    },
  );
}
