import { DIRECTORY_EVENTS } from '@switchyard/contracts';
import { eventOutbox, type PendingEvent } from '@switchyard/messaging';
import { PEER_SCHEMA } from './schema.ts';

/**
 * peer-svc's side of the transactional outbox: writes the catalogued directory events of `DIRECTORY_EVENTS` (and no
 * others) to `peer.outbox` in the caller's transaction, with `source` `peer-svc`, so they are published if and only if
 * the change they describe commits: `directoryOutbox.append(trx, [peerChanged(row)])` (builders in
 * `registry/directory-event.mapper.ts`). `append` throws `InvalidEventError` when a payload does not match its
 * definition's schema (nothing is written).
 */
export const directoryOutbox = eventOutbox({ schema: PEER_SCHEMA, source: 'peer-svc', events: DIRECTORY_EVENTS });

/** One directory event ready for `directoryOutbox.append`. */
export type DirectoryEvent = PendingEvent<(typeof DIRECTORY_EVENTS)[number]>;
