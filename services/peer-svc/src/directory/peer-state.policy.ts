/**
 * The heartbeat state machine of a peer, after upstream's `HeartbeatManager` (https://github.com/NationalSecurityAgency/emissary,
 * `src/main/java/emissary/directory/HeartbeatManager.java`): a pure
 * function from a peer's state and one heartbeat outcome to its next state and what to do about it.
 *
 * Upstream keeps one `failCounter` per peer: healthy while `< 3`, alive while `< 20`; a new (configured)
 * peer starts as `NO_CONTACT` (= counter 20, not alive), a 200 answer resets the counter to 0, anything
 * else adds one. Crossing a threshold triggers `takeFailureAction` (transient at 3, permanent at 20);
 * becoming healthy again triggers `takeSuccessAction` → `contactedRemoteDirectory` → RegisterPeer.
 */

/** Health of a peer: never answered yet, answering, missed `unhealthyAfter` in a row, missed `failedAfter`. */
export type PeerHealth = 'not-contacted' | 'up' | 'unhealthy' | 'failed';
/** The outcome of one heartbeat: HTTP 200 (`ok`), anything else or no answer (`missed`). */
export type HeartbeatEvent = 'heartbeat-ok' | 'heartbeat-missed';

/** What the machine keeps per peer; `missed` counts consecutive misses (0 after an answer). */
export interface PeerState {
  health: PeerHealth;
  missed: number;
}

/** Consecutive misses after which a peer becomes unhealthy / failed (upstream `HEARTBEAT_[PERMANENT_]FAILURE_THRESHOLD`). */
export interface PeerThresholds {
  unhealthyAfter: number;
  failedAfter: number;
}

/** Upstream defaults: 3 misses → unhealthy, 20 → failed. */
export const DEFAULT_PEER_THRESHOLDS: Readonly<PeerThresholds> = Object.freeze({ unhealthyAfter: 3, failedAfter: 20 });

/** `missed` stops growing here (PostgreSQL `integer`), so a peer down for years cannot overflow it. */
export const MAX_MISSED_COUNT = 2_147_483_647;

/** State of a configured peer before any heartbeat (upstream `NO_CONTACT`). */
export const INITIAL_PEER_STATE: Readonly<PeerState> = Object.freeze({ health: 'not-contacted', missed: 0 });

/**
 * Result of one event. `changed` is true when `health` changed (publish a directory event).
 * `reRegister` is true when a peer answered after being not-contacted, unhealthy or failed: the caller
 * must (re-)register with it (RegisterPeer call-back / zone transfer), as upstream's `takeSuccessAction`.
 * `failure` is `transient` when the peer just became unhealthy and `permanent` when it just failed
 * (upstream `takeFailureAction(key, permanent)`: drop its places; non-configured peers are dropped).
 */
export interface PeerTransition {
  state: PeerState;
  changed: boolean;
  reRegister: boolean;
  failure: 'transient' | 'permanent' | undefined;
}

/**
 * Checks thresholds: integers with `1 <= unhealthyAfter < failedAfter <= MAX_MISSED_COUNT`.
 * @returns the thresholds, frozen
 * @throws RangeError otherwise
 */
export function peerThresholds(thresholds: PeerThresholds = DEFAULT_PEER_THRESHOLDS): Readonly<PeerThresholds> {
  const { unhealthyAfter, failedAfter } = thresholds;
  if (!Number.isInteger(unhealthyAfter) || !Number.isInteger(failedAfter) || unhealthyAfter < 1 || failedAfter <= unhealthyAfter) {
    throw new RangeError('peer thresholds must be integers with 1 <= unhealthyAfter < failedAfter');
  }
  if (failedAfter > MAX_MISSED_COUNT) throw new RangeError(`failedAfter must be at most ${MAX_MISSED_COUNT}`);
  return Object.freeze({ unhealthyAfter, failedAfter });
}

/**
 * The next state of a peer after `event`:
 * - `heartbeat-ok` → `up`, `missed` 0; `reRegister` unless it was already `up`.
 * - `heartbeat-missed` → `missed + 1`; an `up` peer becomes `unhealthy` at `unhealthyAfter` (failure
 *   `transient`) and any `up`/`unhealthy` peer `failed` at `failedAfter` (failure `permanent`). A
 *   `not-contacted` peer stays `not-contacted` (upstream counts it as already failed; nothing to drop).
 *   A `failed` peer stays `failed` and is still heartbeated (upstream: "deregistered but monitoring continues").
 * @throws RangeError for an unknown health or event, a negative or non-integer `missed`, or bad thresholds
 */
export function nextPeerState(
  state: PeerState,
  event: HeartbeatEvent,
  thresholds: PeerThresholds = DEFAULT_PEER_THRESHOLDS,
): PeerTransition {
  const { unhealthyAfter, failedAfter } = peerThresholds(thresholds);
  const { health, missed } = state;
  if (!['not-contacted', 'up', 'unhealthy', 'failed'].includes(health)) throw new RangeError(`unknown peer health: ${String(health)}`);
  if (!Number.isInteger(missed) || missed < 0) throw new RangeError('missed must be a non-negative integer');

  if (event === 'heartbeat-ok') {
    return { state: { health: 'up', missed: 0 }, changed: health !== 'up', reRegister: health !== 'up', failure: undefined };
  }
  if (event !== 'heartbeat-missed') throw new RangeError(`unknown heartbeat event: ${String(event)}`);

  const count = Math.min(missed + 1, MAX_MISSED_COUNT);
  let next: PeerHealth = health;
  if (health === 'up' || health === 'unhealthy') {
    if (count >= failedAfter) next = 'failed';
    else if (count >= unhealthyAfter) next = 'unhealthy';
  }
  const failure = next === health ? undefined : next === 'failed' ? 'permanent' : 'transient';
  return { state: { health: next, missed: count }, changed: next !== health, reRegister: false, failure };
}
