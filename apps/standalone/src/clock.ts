/**
 * The release worker's scheduler clock, which a long run (`pnpm soak`) speeds up: `CLOCK_START` (an ISO 8601 time,
 * default now) and `CLOCK_RATE` (simulated seconds per real second, default 1). With neither set the worker keeps the
 * system's clock.
 */

/** The clock the launcher was asked for. */
export interface ClockSettings {
  /** `CLOCK_START`: where the clock starts, or undefined for now. */
  start: Date | undefined;
  /** `CLOCK_RATE`: simulated milliseconds per real millisecond (1 ≤ rate ≤ 1,000,000). */
  rate: number;
}

/** Whether `settings` ask for anything but the system's clock. */
export const isSimulated = (settings: ClockSettings): boolean => settings.start !== undefined || settings.rate !== 1;

/**
 * A clock that runs from `settings.start` (default: the real time of its first reading) at `settings.rate` times real
 * time. It starts at its first reading, not when it is made, so a launcher that takes seconds to start does not jump
 * ahead by that many seconds times the rate before the scheduler's first round.
 * @param realNow the real clock, epoch milliseconds (tests move it)
 * @returns the clock's reading, a new `Date` each call
 */
export function acceleratedClock(settings: ClockSettings, realNow: () => number = Date.now): () => Date {
  let origin: { real: number; simulated: number } | undefined;
  return () => {
    const real = realNow();
    origin ??= { real, simulated: settings.start?.getTime() ?? real };
    return new Date(origin.simulated + (real - origin.real) * settings.rate);
  };
}
