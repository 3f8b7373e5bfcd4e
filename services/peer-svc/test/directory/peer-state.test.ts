import { describe, expect, it } from 'vitest';
import {
  type HeartbeatEvent,
  INITIAL_PEER_STATE,
  nextPeerState,
  type PeerState,
  type PeerThresholds,
  type PeerTransition,
  peerThresholds,
} from '../../src/directory/peer-state.policy.ts';

function run(state: PeerState, events: HeartbeatEvent[], thresholds?: PeerThresholds): PeerTransition[] {
  const out: PeerTransition[] = [];
  let current = state;
  for (const event of events) {
    const transition = nextPeerState(current, event, thresholds);
    out.push(transition);
    current = transition.state;
  }
  return out;
}

const misses = (n: number): HeartbeatEvent[] => Array.from({ length: n }, () => 'heartbeat-missed');
const up: PeerState = { health: 'up', missed: 0 };

describe('nextPeerState', () => {
  it('registers a not-contacted peer on its first answer', () => {
    expect(nextPeerState(INITIAL_PEER_STATE, 'heartbeat-ok')).toEqual({
      state: { health: 'up', missed: 0 },
      changed: true,
      reRegister: true,
      failure: undefined,
    });
  });

  it('keeps an up peer up without re-registering it', () => {
    expect(nextPeerState(up, 'heartbeat-ok')).toEqual({ state: up, changed: false, reRegister: false, failure: undefined });
  });

  it('stays up for 2 misses and becomes unhealthy on the 3rd', () => {
    const steps = run(up, misses(3));
    expect(steps.map((s) => s.state)).toEqual([
      { health: 'up', missed: 1 },
      { health: 'up', missed: 2 },
      { health: 'unhealthy', missed: 3 },
    ]);
    expect(steps.map((s) => s.failure)).toEqual([undefined, undefined, 'transient']);
    expect(steps.map((s) => s.changed)).toEqual([false, false, true]);
  });

  it('fails on the 20th miss in a row, once, and stays failed', () => {
    const steps = run(up, misses(25));
    expect(steps[18]?.state).toEqual({ health: 'unhealthy', missed: 19 });
    expect(steps[19]).toEqual({ state: { health: 'failed', missed: 20 }, changed: true, reRegister: false, failure: 'permanent' });
    expect(steps.filter((s) => s.failure === 'permanent')).toHaveLength(1);
    expect(steps[24]?.state).toEqual({ health: 'failed', missed: 25 });
  });

  it('re-registers a peer that answers after being unhealthy or failed', () => {
    for (const n of [3, 10, 20, 40]) {
      const steps = run(up, [...misses(n), 'heartbeat-ok']);
      expect(steps.at(-1)).toEqual({ state: { health: 'up', missed: 0 }, changed: true, reRegister: true, failure: undefined });
    }
  });

  it('resets the count on an answer: misses must be consecutive', () => {
    const steps = run(up, [...misses(2), 'heartbeat-ok', ...misses(2)]);
    expect(steps.at(-1)?.state).toEqual({ health: 'up', missed: 2 });
  });

  it('leaves a never-contacted peer not-contacted while it keeps missing', () => {
    const steps = run(INITIAL_PEER_STATE, misses(30));
    expect(steps.every((s) => s.state.health === 'not-contacted' && !s.changed && s.failure === undefined)).toBe(true);
    expect(steps.at(-1)?.state.missed).toBe(30);
  });

  it('honours configured thresholds', () => {
    const steps = run(up, misses(5), { unhealthyAfter: 1, failedAfter: 5 });
    expect(steps.map((s) => s.state.health)).toEqual(['unhealthy', 'unhealthy', 'unhealthy', 'unhealthy', 'failed']);
  });

  it('saturates the miss count', () => {
    expect(nextPeerState({ health: 'failed', missed: 2_147_483_647 }, 'heartbeat-missed').state.missed).toBe(2_147_483_647);
  });

  it.each<[PeerThresholds]>([
    [{ unhealthyAfter: 0, failedAfter: 20 }],
    [{ unhealthyAfter: 3, failedAfter: 3 }],
    [{ unhealthyAfter: 2.5, failedAfter: 20 }],
    [{ unhealthyAfter: 3, failedAfter: Number.NaN }],
  ])('refuses thresholds %o', (thresholds) => {
    expect(() => peerThresholds(thresholds)).toThrow(RangeError);
  });

  it('refuses unknown states and events', () => {
    expect(() => nextPeerState({ health: 'zombie' as 'up', missed: 0 }, 'heartbeat-ok')).toThrow(RangeError);
    expect(() => nextPeerState(up, 'heartbeat-maybe' as HeartbeatEvent)).toThrow(RangeError);
    expect(() => nextPeerState({ health: 'up', missed: -1 }, 'heartbeat-missed')).toThrow(RangeError);
  });
});
