import { hostname } from 'node:os';
import type { StartedTestContainer } from 'testcontainers';

/**
 * The label on every container a test run starts: `<host>:<pid>` of the run's process. Runs remove their own
 * containers when they end; a run that was killed before that leaves them behind, and the next run on the host
 * (or `.ci/run`) removes those whose process is gone. Ryuk, testcontainers' own reaper, is not relied upon: its
 * image may not be reachable (set `TESTCONTAINERS_RYUK_DISABLED=true` there), and a reaper is not needed with this.
 */
export const TEST_RUN_LABEL = 'switchyard.test-run';

/** The PostgreSQL and RabbitMQ images the suites start (as `docker-compose.yml` uses). */
export const TEST_IMAGES = { postgres: 'postgres:17-alpine', rabbitmq: 'rabbitmq:4-alpine' } as const;

/** Containers started for one run, and how to remove them. */
export interface TestContainers {
  databaseUrl?: string;
  amqpUrl?: string;
  /** Stops and removes every container this run started, with its volumes. Idempotent; never throws. */
  remove: () => Promise<void>;
}

const owner = `${hostname()}:${process.pid}`;

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes containers that earlier runs on this host started and could not remove (their process is gone).
 * @returns the ids of the containers it removed
 * @throws the container runtime's error when one cannot be removed
 */
export async function removeOrphanedTestContainers(): Promise<string[]> {
  const { getContainerRuntimeClient } = await import('testcontainers');
  const client = await getContainerRuntimeClient();
  const removed: string[] = [];
  // Every container with the label, stopped ones too (`client.container.list()` lists running ones only).
  const labelled = await client.container.dockerode.listContainers({ all: true, filters: { label: [TEST_RUN_LABEL] } });
  for (const info of labelled) {
    const [host, pid] = (info.Labels?.[TEST_RUN_LABEL] ?? '').split(':');
    if (host !== hostname() || processAlive(Number(pid))) continue;
    const container = client.container.getById(info.Id);
    // A running container must be stopped before it can be removed.
    if (info.State === 'running') await client.container.stop(container, { timeout: 0 }).catch(() => {});
    await client.container.remove(container, { removeVolumes: true });
    removed.push(info.Id);
  }
  return removed;
}

/**
 * Starts the containers asked for, labelled {@link TEST_RUN_LABEL}: PostgreSQL (URL of its superuser, which may
 * `CREATE DATABASE`) and RabbitMQ (`amqp://` URL); nothing at all (not even a look for Docker) when neither is
 * asked for. Orphans of killed runs are removed first. When one fails to
 * start, the ones already started are removed before the error is thrown.
 * @throws the container runtime's error (no Docker engine, image missing and not pullable, …)
 */
export async function startTestContainers(want: { postgres: boolean; rabbitmq: boolean }): Promise<TestContainers> {
  if (!want.postgres && !want.rabbitmq) return { remove: async () => {} };
  await removeOrphanedTestContainers();
  const started: StartedTestContainer[] = [];
  const remove = async () => {
    for (const container of started.splice(0).reverse()) await container.stop({ remove: true, removeVolumes: true }).catch(() => {});
  };
  const labels = { [TEST_RUN_LABEL]: owner };
  const result: TestContainers = { remove };
  /** Starts one labelled container and keeps it for `remove`, whatever happens to the other. */
  const start = async <C extends StartedTestContainer>(container: { withLabels(l: typeof labels): { start(): Promise<C> } }) => {
    const running = await container.withLabels(labels).start();
    started.push(running);
    return running;
  };
  const results = await Promise.allSettled([
    want.postgres &&
      import('@testcontainers/postgresql').then(async ({ PostgreSqlContainer }) => {
        result.databaseUrl = (await start(new PostgreSqlContainer(TEST_IMAGES.postgres))).getConnectionUri();
      }),
    want.rabbitmq &&
      import('@testcontainers/rabbitmq').then(async ({ RabbitMQContainer }) => {
        result.amqpUrl = (await start(new RabbitMQContainer(TEST_IMAGES.rabbitmq))).getAmqpUrl();
      }),
  ]);
  const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failure) {
    await remove();
    throw failure.reason;
  }
  return result;
}
