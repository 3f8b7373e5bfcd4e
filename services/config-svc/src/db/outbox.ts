import { CONFIG_EVENTS } from '@switchyard/contracts';
import { eventOutbox } from '@switchyard/messaging';
import { CONFIG_SCHEMA } from './schema.ts';

/**
 * config-svc's side of the transactional outbox: writes the catalogued events of `CONFIG_EVENTS` (and no others) to
 * `config.outbox` in the caller's transaction, with `source` `config-svc`, so they are published if and only if
 * the change they describe commits: `configOutbox.append(trx, [configOutbox.event(UpdateConfigCreatedEvent, state)])`.
 * `append` throws `InvalidEventError` when a payload does not match its definition's schema (nothing is written).
 */
export const configOutbox = eventOutbox({ schema: CONFIG_SCHEMA, source: 'config-svc', events: CONFIG_EVENTS });
