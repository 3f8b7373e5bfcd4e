import { RELEASE_EVENTS } from '@switchyard/contracts';
import { eventOutbox } from '@switchyard/messaging';
import { RELEASE_SCHEMA } from './schema.ts';

/**
 * release-svc's side of the transactional outbox: writes the catalogued events of `RELEASE_EVENTS` (and no
 * others) to `release.outbox` in the caller's transaction, with `source` `release-svc`, so they are published if
 * and only if the change they describe commits:
 * `releaseOutbox.append(trx, [releaseOutbox.event(ScanRequestedEvent, batch)])`.
 * `append` throws `InvalidEventError` when a payload does not match its definition's schema (nothing is written).
 */
export const releaseOutbox = eventOutbox({ schema: RELEASE_SCHEMA, source: 'release-svc', events: RELEASE_EVENTS });
