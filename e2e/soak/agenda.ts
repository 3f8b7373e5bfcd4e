import type { SimulatedClock } from './clock.ts';

/**
 * What happens when in a soak run: events at simulated times (a release, a person's action, a fault, a look at the
 * pull requests), run one at a time in time order as the simulated clock reaches them. An event may add later ones.
 */

/** One thing to do at a simulated time. */
export interface AgendaEvent {
  /** Simulated epoch ms. */
  at: number;
  label: string;
  run: () => Promise<void>;
}

/** The agenda of one run. */
export class Agenda {
  private readonly events: AgendaEvent[] = [];
  private sequence = 0;
  private readonly order = new Map<AgendaEvent, number>();

  /** Adds `run` at simulated time `at` (events at one time run in the order added). */
  add(at: Date, label: string, run: () => Promise<void>): void {
    const event = { at: at.getTime(), label, run };
    this.order.set(event, this.sequence++);
    this.events.push(event);
    this.events.sort((a, b) => a.at - b.at || (this.order.get(a) ?? 0) - (this.order.get(b) ?? 0));
  }

  /** How many events are waiting. */
  get size(): number {
    return this.events.length;
  }

  /**
   * Runs the events in time order until `until` (simulated), each once the clock reaches it; an event that throws is
   * handed to `failed` and the run goes on. Events due after `until` stay.
   * @throws the signal's reason when `signal` aborts
   */
  async runUntil(
    clock: SimulatedClock,
    until: Date,
    failed: (event: AgendaEvent, error: unknown) => void,
    signal?: AbortSignal,
  ): Promise<void> {
    for (;;) {
      const next = this.events[0];
      if (!next || next.at > until.getTime()) {
        await clock.until(until, signal);
        return;
      }
      await clock.until(new Date(next.at), signal);
      this.events.shift();
      this.order.delete(next);
      try {
        await next.run();
      } catch (error) {
        failed(next, error);
      }
    }
  }
}
