import { type Logger, type Loop, startLoop } from '@switchyard/service-kit';
import type { HeartbeatService } from './heartbeat.service.ts';

/** What {@link startHeartbeatLoop} runs. */
export interface HeartbeatLoopOptions {
  heartbeats: Pick<HeartbeatService, 'beatOnce'>;
  /** Time between the starts of two rounds, ms (`HEARTBEAT_INTERVAL_MS`). */
  intervalMs: number;
  logger: Pick<Logger, 'warn'>;
}

/**
 * Sends a heartbeat round (`beatOnce`) every `intervalMs`, the first one `intervalMs` after the start (at start the
 * registrations with the rendezvous peers and the parent contact them), through service-kit's `startLoop`: a round still
 * under way when the next is due makes that one skipped, a round that fails is logged (`heartbeat round failed; …`).
 * Register its `stop()` on the service's scope: it waits for the round under way.
 * @throws RangeError when `intervalMs` is not a positive number
 */
export function startHeartbeatLoop({ heartbeats, intervalMs, logger }: HeartbeatLoopOptions): Loop {
  return startLoop({ name: 'heartbeat', intervalMs, round: () => heartbeats.beatOnce(), logger, immediately: false });
}
