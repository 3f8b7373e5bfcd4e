/** What {@link startLoop} runs. */
export interface LoopOptions {
  /** Names the loop in its log lines (`<name> round failed; the next round tries again`). */
  name: string;
  /** Time between the starts of two rounds, ms (at least 1). A round still under way when the next is due makes that one skipped. */
  intervalMs: number;
  /** One round: its result is ignored; a rejection is logged at `warn` and the next round runs as usual. */
  round: () => Promise<unknown>;
  /** Where a failed round is reported (a pino logger, or anything with its `warn(context, message)`). */
  logger: { warn: (context: object, message: string) => void };
  /** Run the first round at once rather than after `intervalMs` (default true). */
  immediately?: boolean;
  /** Fields of the failed round's log line besides `err` (e.g. `{ job: 12 }`). */
  context?: Record<string, unknown>;
}

/** A running periodic loop. `stop()` (also `[Symbol.asyncDispose]`, so `scope.use(startLoop(…))` stops it on shutdown). */
export interface Loop extends AsyncDisposable {
  /** Starts no further round and resolves once the round under way, if any, has ended. Idempotent. */
  stop(): Promise<void>;
}

/**
 * Runs `round` every `intervalMs`, one round at a time: a tick that finds the previous round still running is skipped,
 * so a slow round never piles rounds up behind it. A round that fails is logged and the loop goes on. The timer is
 * unref'd (a loop alone does not keep the process alive). Every periodic job of a service goes through this: a
 * `*.loop.ts` whose `stop()` is registered on the service's scope, or a heartbeat that lives as long as the work it
 * keeps claimed (release-svc's pull-request jobs), stopped when that work ends.
 * @throws RangeError when `intervalMs` is not a positive number
 */
export function startLoop({ name, intervalMs, round, logger, immediately = true, context = {} }: LoopOptions): Loop {
  if (!(intervalMs > 0)) throw new RangeError(`intervalMs must be a positive number, not ${intervalMs}`);
  let running: Promise<void> | undefined;
  let stopped = false;
  const tick = () => {
    if (running || stopped) return;
    running = Promise.resolve()
      .then(round)
      .then(
        () => undefined,
        (error: unknown) => logger.warn({ ...context, err: error }, `${name} round failed; the next round tries again`),
      )
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  if (immediately) tick();
  const stop = async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  };
  return { stop, [Symbol.asyncDispose]: stop };
}
