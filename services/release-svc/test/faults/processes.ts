import { freePort, type RunningProcess, startProcess } from '@switchyard/service-kit/testing';

const apiMain = new URL('../../src/main.ts', import.meta.url).pathname;
const workerMain = new URL('../../src/worker-main.ts', import.meta.url).pathname;

/** What both deployables of release-svc are given: the database, the broker, the exchange and the code host. */
export interface ReleaseEnv {
  DATABASE_URL: string;
  AMQP_URL: string;
  EVENTS_EXCHANGE: string;
  QUEUE_PREFIX: string;
  CODE_HOST_API_URL: string;
  CODE_HOST_TOKEN: string;
  [name: string]: string;
}

/** A release-svc deployable running as its own OS process, and where it answers. */
export interface ReleaseProcess extends RunningProcess {
  url: string;
}

/** `node src/main.ts` (the API) on a free port; resolves once `/readyz` answers 200. */
export async function startApiProcess(env: ReleaseEnv): Promise<ReleaseProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const running = await startProcess(apiMain, { LOG_LEVEL: 'warn', ...env, HOST: '127.0.0.1', PORT: String(port) }, `${url}/readyz`);
  return { ...running, url };
}

/** `node src/worker-main.ts` with its health port free; resolves once `/readyz` answers 200 (database and broker up, consumers declared). */
export async function startWorkerProcess(env: ReleaseEnv): Promise<ReleaseProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const running = await startProcess(
    workerMain,
    { LOG_LEVEL: 'warn', ...env, HOST: '127.0.0.1', WORKER_PORT: String(port) },
    `${url}/readyz`,
  );
  return { ...running, url };
}
