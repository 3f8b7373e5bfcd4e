/** Exponential back-off: the delay before retry number `attempt` is `initialDelayMs × factor^(attempt-1)`, capped. */
export interface BackoffOptions {
  /** Delay before the first retry, in ms. */
  initialDelayMs: number;
  /** Upper bound of any delay, in ms. */
  maxDelayMs: number;
  /** Growth per attempt (2 doubles the delay). */
  factor: number;
  /** Random spread as a fraction of the delay (0.2 = ±20 %), so many clients do not retry in lock-step. */
  jitter: number;
}

/**
 * The delay in ms before retry number `attempt` (1-based), with jitter, never above `maxDelayMs` and never negative.
 * @param random a source of numbers in [0, 1), for tests
 */
export function backoffDelay(attempt: number, options: BackoffOptions, random: () => number = Math.random): number {
  const base = Math.min(options.maxDelayMs, options.initialDelayMs * options.factor ** Math.max(0, attempt - 1));
  const spread = base * options.jitter * (random() * 2 - 1);
  return Math.max(0, Math.min(options.maxDelayMs, Math.round(base + spread)));
}

/**
 * Resolves after `ms`, or at once when `signal` aborts (never rejects). The timer does not keep the process alive
 * on its own.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    timer.unref?.();
    signal?.addEventListener('abort', done, { once: true });
  });
}

/**
 * Races `promise` against a timer of `ms`: resolves or rejects as `promise` does, or rejects with
 * `onTimeout()` after `ms`. The timer is cleared either way.
 */
export function withTimeout<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), Math.max(0, ms));
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
