import { ConfigError } from './config.ts';
import type { Logger } from './logger.ts';

/**
 * Where a service's start function registers what it opens, in the order it opens it: `scope.use(resource)` for an
 * `AsyncDisposable` (a database, an HTTP listener, another running service), `scope.defer(fn)` for a close function,
 * `scope.adopt(value, close)` for a value with its own close. They are disposed in reverse order. Something handed
 * in from outside (an injected bus, a shared database) is not registered, so it is not closed.
 */
export type ServiceScope = AsyncDisposableStack;

/** A started service (what its start function returned) that can be closed. */
export type RunningService<T extends object = object> = T &
  AsyncDisposable & {
    /**
     * Disposes what the start function registered, last first; every step runs even when an earlier one failed.
     * Runs once: later calls return the same promise. Rejects with the step's error (a `SuppressedError` chain
     * when several failed).
     */
    close: () => Promise<void>;
  };

/**
 * Starts a service with {@link ServiceScope} semantics: `start` opens its resources and registers each in `scope`
 * as it opens it, then returns what callers need (URLs, handles). When `start` throws, what it registered so far is
 * disposed in reverse order and the error rethrown. The result carries `close()` and `[Symbol.asyncDispose]`, which
 * dispose everything in reverse order, once.
 *
 * ```ts
 * return startService(async (scope) => {
 *   const database = scope.use(await openServiceDatabase(SCHEMA, config, migrations, logger));
 *   const events = await startEventPublishing({ ... });
 *   scope.defer(() => events.close());
 *   const http = scope.use(await listen(createApp(database), config.PORT, config.HOST));
 *   return { url: http.url, database };
 * }); // close(): HTTP, then events, then the database
 * ```
 * @throws what `start` throws (after disposing); a `SuppressedError` (`error`: the disposal's, `suppressed`: the
 * start's) when disposing failed too
 */
export async function startService<T extends object>(start: (scope: ServiceScope) => Promise<T>): Promise<RunningService<T>> {
  const scope = new AsyncDisposableStack();
  let started: T;
  try {
    started = await start(scope);
  } catch (error) {
    try {
      await scope.disposeAsync();
    } catch (disposalError) {
      throw new SuppressedError(disposalError, error, 'start failed, and closing what it had opened failed too');
    }
    throw error;
  }
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= scope.disposeAsync();
    return closing;
  };
  return { ...started, close, [Symbol.asyncDispose]: close };
}

/** What a `main.ts` start function returns to {@link runService}. */
export interface StartedProcess {
  /** What the first SIGINT or SIGTERM closes (a running service, or a stack of them). */
  service: AsyncDisposable;
  /** Where shutdown is reported: the signal, a second signal, a shutdown that fails or takes too long. */
  logger: Logger;
}

/** How long {@link runService} gives a service to close after a signal before it exits with status 1. */
export const SHUTDOWN_DEADLINE_MS = 10_000;

/**
 * The body of a service's `main.ts`. Runs `start` (which loads the configuration, creates the logger and starts the
 * service: `runService` itself loads nothing). When `start` throws, it writes `<name> could not start: <reason>` to
 * stderr (a `ConfigError`'s message as it is, any other error's stack) and exits with status 1. Once started, the
 * first SIGINT or SIGTERM disposes `service` and exits 0 (1 when that fails); a second signal, or a shutdown that takes
 * longer than `deadlineMs`, exits 1 at once.
 *
 * ```ts
 * await runService('catalog-svc', async () => {
 *   const config = loadCatalogConfig();
 *   const logger = createLogger('catalog-svc', config.LOG_LEVEL);
 *   return { logger, service: await startCatalogService(config, logger) };
 * });
 * ```
 */
export async function runService(
  name: string,
  start: () => Promise<StartedProcess>,
  deadlineMs: number = SHUTDOWN_DEADLINE_MS,
): Promise<void> {
  let started: StartedProcess;
  try {
    started = await start();
  } catch (error) {
    const reason = error instanceof ConfigError ? error.message : String((error as Error)?.stack ?? error);
    process.stderr.write(`${name} could not start: ${reason}\n`);
    process.exit(1);
  }
  const { service, logger } = started;
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, 'shutting down');
    setTimeout(() => {
      logger.error('shutdown took too long: exiting');
      process.exit(1);
    }, deadlineMs).unref();
    service[Symbol.asyncDispose]().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
