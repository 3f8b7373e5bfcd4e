import { randomBytes } from 'node:crypto';
import { openDatabase } from '@switchyard/service-kit';
import { createTestDatabase, freePort, publishEvents, type RunningProcess, startProcess, waitFor } from '@switchyard/service-kit/testing';
import { sql } from 'kysely';
import { describe, expect, inject, it, onTestFinished } from 'vitest';
import { RELEASE_SCHEMA, type ReleaseDatabase } from '../src/db/schema.ts';
import { orgState, repoState, updateConfigState } from './config-state.ts';
import { deleteTopology } from './faults/amqp.ts';
import { startCuttableProxy } from './faults/broker.ts';

const workerMain = new URL('../src/worker-main.ts', import.meta.url).pathname;

describe("release-svc's worker started while RabbitMQ is unreachable", () => {
  it('starts and answers /healthz, is not ready until it consumes, and consumes once the broker is reachable', async () => {
    const cleanup = new AsyncDisposableStack();
    onTestFinished(() => cleanup.disposeAsync(), 30_000);
    const amqpUrl = inject('amqpUrl');
    const suffix = `worker_no_broker.${randomBytes(4).toString('hex')}`;
    const exchange = `test.${suffix}`;
    const prefix = `test.${suffix}`;
    const database = await createTestDatabase(inject('databaseUrl'), 'worker_no_broker');
    cleanup.defer(() => database.drop());
    cleanup.defer(() => deleteTopology(amqpUrl, exchange, prefix));
    // The broker is not there: the proxy starts switched off and closes every connection.
    const broker = await startCuttableProxy(amqpUrl);
    cleanup.defer(() => broker.close());
    await broker.stop();

    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const worker: RunningProcess = await startProcess(
      workerMain,
      {
        LOG_LEVEL: 'warn',
        HOST: '127.0.0.1',
        WORKER_PORT: String(port),
        DATABASE_URL: database.url,
        AMQP_URL: broker.url,
        EVENTS_EXCHANGE: exchange,
        QUEUE_PREFIX: prefix,
        CODE_HOST_API_URL: 'http://127.0.0.1:9',
        CODE_HOST_TOKEN: 'worker-no-broker-token',
        DB_POOL_SIZE: '2',
      },
      `${url}/healthz`,
    );
    cleanup.defer(async () => {
      await worker.stop('SIGTERM', 5_000);
    });

    const notReady = await fetch(`${url}/readyz`);
    expect(notReady.status).toBe(503);
    const problem = (await notReady.json()) as { checks: Record<string, string> };
    expect(problem.checks).toEqual({ database: 'ok', bus: 'not connected' });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(worker.child.exitCode).toBeNull();

    broker.start();
    await waitFor(async () => (await fetch(`${url}/readyz`)).status === 200, 30_000, 100);

    // Consuming: config-svc's events reach the read model.
    await publishEvents(amqpUrl, exchange, 'config-svc', [
      { type: 'account.created', data: orgState(9_700, 'nobroker') },
      { type: 'repo.created', data: repoState({ id: 970_001, accountId: 9_700, fullName: 'nobroker/app' }) },
      { type: 'update_config.created', data: updateConfigState({ id: 97_001, repoId: 970_001, accountId: 9_700 }) },
    ]);
    const handle = openDatabase<ReleaseDatabase>({ kind: 'postgres', url: database.url, poolSize: 1 });
    cleanup.use(handle);
    const db = handle.db.withSchema(RELEASE_SCHEMA);
    await waitFor(async () => {
      const row = await db.selectFrom('update_config').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
      return row.n === 1;
    }, 20_000);
    expect(worker.child.exitCode).toBeNull();
  }, 90_000);
});
