import { AppInstallationChangedEvent } from '@switchyard/contracts';
import { type ConsumerHandle, consumeEvents, type MessageBus } from '@switchyard/messaging';
import type { Logger } from '@switchyard/service-kit';
import type { Kysely } from 'kysely';
import type { ConfigDatabase } from '../db/schema.ts';
import { applyInstallationChanged } from './app-installation.service.ts';

/**
 * Starts config-svc's consumer of release-svc's `app_installation.changed` (`<queuePrefix>.app-installations`), applying
 * each with {@link applyInstallationChanged} (idempotent by revision), 4 at a time.
 * @returns the consumer, to cancel on shutdown
 * @throws what `MessageBus.consume` throws
 */
export function consumeAppInstallations(
  bus: MessageBus,
  deps: { db: Kysely<ConfigDatabase>; logger: Logger; queuePrefix: string },
): Promise<ConsumerHandle> {
  return consumeEvents(
    bus,
    { queue: `${deps.queuePrefix}.app-installations`, events: [AppInstallationChangedEvent], prefetch: 4 },
    async (event) => {
      const applied = await applyInstallationChanged(deps.db, event.data);
      deps.logger.info(
        { installation: event.data.id, account: event.data.accountLogin, revision: event.data.revision, applied },
        'app installation applied',
      );
    },
  );
}
