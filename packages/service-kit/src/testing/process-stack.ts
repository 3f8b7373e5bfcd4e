import { freePort, type RunningProcess, startProcess } from './process.ts';

/** A service's `main.ts` running as its own OS process, and where it answers. */
export interface ServiceProcess extends RunningProcess {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  port: number;
}

/** How {@link ProcessStack.service} starts a service. */
export interface ServiceProcessOptions {
  /** The port it listens on; default a free one. */
  port?: number;
  /** The variable the port is passed in: `PORT` unless said otherwise (release-svc's worker: `WORKER_PORT`). */
  portVariable?: string;
  /** The path that answers 200 once the service is ready; default `/readyz`. */
  readyPath?: string;
  /** How long it may take to become ready; default 30 s. */
  timeoutMs?: number;
}

/**
 * The OS processes a test starts, and whatever else it sets up, torn down last first by `disposeAsync()` (or `await
 * using`): each step runs even when an earlier one failed, and the failures are rethrown at the end (a
 * `SuppressedError` chain when several failed). Processes are stopped with SIGTERM (SIGKILL after 5 s); other teardown
 * is registered with `use`, `defer` and `adopt`, as on any `AsyncDisposableStack`.
 *
 * ```ts
 * const processes = new ProcessStack();
 * afterAll(() => processes.disposeAsync());
 * beforeAll(async () => {
 *   const testDb = await createTestDatabase(inject('databaseUrl'), 'e2e_catalog');
 *   processes.defer(() => testDb.drop());
 *   const catalog = await processes.service(catalogMain, { DATABASE_URL: testDb.url });
 *   gateway = await processes.service(gatewayMain, { CATALOG_SVC_URL: catalog.url });
 * });
 * ```
 */
export class ProcessStack extends AsyncDisposableStack {
  /**
   * Starts `node <script>` as {@link startProcess} does and registers its stop.
   * @throws when the process exits or is not ready within `timeoutMs` (with its output; nothing is registered then),
   * or when the stack was disposed while it started (the process is stopped again)
   */
  async start(script: string, env: Record<string, string>, readyUrl: string, timeoutMs?: number): Promise<RunningProcess> {
    const running = await startProcess(script, env, readyUrl, timeoutMs);
    if (this.disposed) {
      await running.stop();
      throw new Error(`${script} became ready after its process stack was disposed; stopped it again`);
    }
    this.defer(async () => {
      await running.stop();
    });
    return running;
  }

  /**
   * Starts a service's `main.ts` on 127.0.0.1 (`HOST`) at `options.port` or a free port, with `LOG_LEVEL=warn`
   * unless `env` says otherwise, waits until `GET <readyPath>` answers 200 and registers its stop.
   * @throws when the process exits or is not ready in time (with its output)
   */
  async service(script: string, env: Record<string, string>, options: ServiceProcessOptions = {}): Promise<ServiceProcess> {
    const port = options.port ?? (await freePort());
    const url = `http://127.0.0.1:${port}`;
    const running = await this.start(
      script,
      { HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env, [options.portVariable ?? 'PORT']: String(port) },
      `${url}${options.readyPath ?? '/readyz'}`,
      options.timeoutMs,
    );
    return { ...running, url, port };
  }
}
