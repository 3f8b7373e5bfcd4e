import { setTimeout as sleep } from 'node:timers/promises';

/** Milliseconds in a simulated day. */
export const DAY_MS = 86_400_000;

/**
 * The soak's reading of the simulated time, the same as the launcher's scheduler clock (`CLOCK_START`, `CLOCK_RATE`):
 * it runs at `rate` times real time while the system runs and stands still while it is down, so a restart goes on from
 * the time reached (the soak passes it as the next `CLOCK_START`). Each start syncs it to the clock line the launcher
 * prints once ready.
 */
export class SimulatedClock {
  /** Simulated milliseconds per real millisecond. */
  readonly rate: number;
  /** Where the run's simulated time began (day 0, 00:00). */
  readonly start: Date;
  private anchor: { simulated: number; real: number } | undefined;
  private stoppedAt: number;

  /** A stopped clock at `start`, running at `rate` once {@link sync}ed. */
  constructor(start: Date, rate: number) {
    this.start = start;
    this.rate = rate;
    this.stoppedAt = start.getTime();
  }

  /** The simulated time now. */
  now(): Date {
    if (!this.anchor) return new Date(this.stoppedAt);
    return new Date(this.anchor.simulated + (performance.now() - this.anchor.real) * this.rate);
  }

  /** Simulated days since {@link start}, fractional. */
  day(at: Date = this.now()): number {
    return (at.getTime() - this.start.getTime()) / DAY_MS;
  }

  /** The simulated time at day `day` (fractional) of the run. */
  atDay(day: number): Date {
    return new Date(this.start.getTime() + day * DAY_MS);
  }

  /** Whether the clock runs (the system is up). */
  get running(): boolean {
    return this.anchor !== undefined;
  }

  /** Runs on from `simulated`, read now (the launcher's clock line as it was printed). */
  sync(simulated: Date): void {
    this.anchor = { simulated: simulated.getTime(), real: performance.now() };
  }

  /** Stops the clock (the system goes down) and returns the time reached: the next start's `CLOCK_START`. */
  stop(): Date {
    const reached = this.now();
    this.anchor = undefined;
    this.stoppedAt = reached.getTime();
    return reached;
  }

  /**
   * Waits until the simulated time is `target` or later (while the clock is stopped, until it runs again and gets there).
   * @throws the signal's reason when `signal` aborts
   */
  async until(target: Date, signal?: AbortSignal): Promise<void> {
    for (;;) {
      signal?.throwIfAborted();
      const left = target.getTime() - this.now().getTime();
      if (left <= 0 && this.running) return;
      const realMs = this.running ? Math.min(250, Math.max(5, left / this.rate)) : 100;
      await sleep(realMs, undefined, signal ? { signal } : {});
    }
  }
}

/** `date` as `day 3 05:12` (the run's day, simulated time of day in UTC), for the soak's log. */
export function simulatedLabel(clock: SimulatedClock, date: Date = clock.now()): string {
  const day = Math.floor(clock.day(date));
  return `day ${day} ${date.toISOString().slice(11, 16)}`;
}
