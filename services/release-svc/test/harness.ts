import { randomBytes, randomUUID } from 'node:crypto';
import { loadDemoSeed, startGitHubEmulator } from '@switchyard/code-host/emulator';
import type { EventEnvelope, UpdateConfigState } from '@switchyard/contracts';
import { createAmqpBus, type MessageBus } from '@switchyard/messaging';
import { createLogger, type Listening } from '@switchyard/service-kit';
import { createTestDatabase, waitFor } from '@switchyard/service-kit/testing';
import amqplib from 'amqplib';
import { inject } from 'vitest';
import { loadReleaseConfig, type ReleaseConfig } from '../src/config.ts';
import { type RunningReleaseApi, startReleaseApi } from '../src/service.ts';
import { type RunningReleaseWorker, startReleaseWorker } from '../src/worker.ts';
import { orgState, repoState, updateConfigState } from './config-state.ts';

export const ALICE = 'demo-token-alice';
export const BOB = 'demo-token-bob';
export const BOT = 'demo-token-bot';

/**
 * release-svc in this process on real PostgreSQL and RabbitMQ: the GitHub emulator with the demo seed,
 * the API and one worker on a fresh database and their own exchange and queues. The test plays
 * config-svc: it publishes the state events the read model consumes (`configure`).
 */
export interface ReleaseHarness {
  releaseUrl: string;
  /** Publishes the account, repo and update-config events of a config, as config-svc would, and waits until the worker has applied them. */
  configure: (config: TestConfig) => Promise<void>;
  releaseConfig: ReleaseConfig;
  api: RunningReleaseApi;
  worker: RunningReleaseWorker;
  events: EventEnvelope[];
  waitForEvent: (match: (event: EventEnvelope) => boolean) => Promise<EventEnvelope>;
  close: () => Promise<void>;
}

export async function startReleaseHarness(label: string): Promise<ReleaseHarness> {
  const logger = createLogger('test', process.env.TEST_LOG_LEVEL ?? 'silent');
  const emulator: Listening = await startGitHubEmulator({ seed: loadDemoSeed(), logger });
  const database = await createTestDatabase(inject('databaseUrl'), label);
  const suffix = `${label}.${randomBytes(4).toString('hex')}`;
  const exchange = `test.${suffix}`;
  const connection = await amqplib.connect(inject('amqpUrl'));
  const channel = await connection.createChannel();
  await channel.assertExchange(exchange, 'topic', { durable: true });
  const { queue } = await channel.assertQueue('', { exclusive: true, autoDelete: true });
  await channel.bindQueue(queue, exchange, 'pull_request_job.*');
  await channel.bindQueue(queue, exchange, 'release_notification.*');
  const events: EventEnvelope[] = [];
  await channel.consume(queue, (message) => message && events.push(JSON.parse(message.content.toString())), { noAck: true });

  const env = {
    HOST: '127.0.0.1',
    PORT: '0',
    DATABASE_URL: database.url,
    AMQP_URL: inject('amqpUrl'),
    EVENTS_EXCHANGE: exchange,
    CODE_HOST_API_URL: emulator.url,
  };
  const releaseConfig = loadReleaseConfig({ ...env, CODE_HOST_TOKEN: BOT, QUEUE_PREFIX: `test.${suffix}`, SCAN_BATCH_SIZE: '2' });
  const bus: MessageBus = await createAmqpBus({ url: inject('amqpUrl'), exchange, logger });
  const api = await startReleaseApi(releaseConfig, logger);
  const worker = await startReleaseWorker(releaseConfig, logger, { bus, health: false });
  const db = worker.database.db.withSchema('release');
  const publish = (type: string, data: unknown) =>
    channel.publish(
      exchange,
      type,
      Buffer.from(JSON.stringify({ id: randomUUID(), type, source: 'config-svc', time: new Date().toISOString(), data })),
      {
        contentType: 'application/json',
        persistent: true,
      },
    );
  return {
    releaseUrl: api.url,
    configure: async (c) => {
      const repo = DEMO_REPOS[c.repoId];
      if (!repo) throw new Error(`repo ${c.repoId} is not in the demo seed`);
      publish('account.created', orgState(repo.accountId, repo.fullName.split('/')[0] ?? ''));
      publish(
        'repo.created',
        repoState({ id: c.repoId, accountId: repo.accountId, fullName: repo.fullName, defaultBranch: repo.defaultBranch }),
      );
      const state = updateConfigState({
        id: c.id,
        repoId: c.repoId,
        accountId: repo.accountId,
        ...(c.packageManager ? { packageManager: c.packageManager } : {}),
        ...(c.directory ? { directory: c.directory } : {}),
        ...(c.targetBranch !== undefined ? { targetBranch: c.targetBranch } : {}),
        ...(c.automergeRuntime ? { automergeRuleRuntimeDeps: c.automergeRuntime } : {}),
        ...(c.automergeDevelopment ? { automergeRuleDevelopmentDeps: c.automergeDevelopment } : {}),
        ...(c.lockfileOnly !== undefined ? { lockfileOnly: c.lockfileOnly } : {}),
        ...(c.securityUpdatesOnly !== undefined ? { securityUpdatesOnly: c.securityUpdatesOnly } : {}),
        ...(c.revision !== undefined ? { revision: c.revision } : {}),
      });
      publish(c.deleted ? 'update_config.deleted' : 'update_config.created', state);
      await waitFor(async () => {
        const row = await db.selectFrom('update_config').select(['revision', 'deleted']).where('id', '=', c.id).executeTakeFirst();
        return row !== undefined && row.deleted === (c.deleted ?? false) && row.revision >= state.revision;
      }, 15_000);
    },
    releaseConfig,
    api,
    worker,
    events,
    waitForEvent: (match) => waitFor(async () => events.find(match), 15_000),
    close: async () => {
      await worker.close();
      await api.close();
      await bus.close();
      for (const q of ['read-model', 'notifications', 'scans']) {
        const base = `test.${suffix}.${q}`;
        for (const name of [base, `${base}.parking`, `${base}.retry.1000ms`, `${base}.retry.5000ms`, `${base}.retry.30000ms`])
          await channel.deleteQueue(name).catch(() => {});
      }
      await channel.deleteExchange(exchange).catch(() => {});
      await channel.deleteExchange(`${exchange}.dlx`).catch(() => {});
      await connection.close().catch(() => {});
      await emulator.close();
      await database.drop();
    },
  };
}

/** Repos of the demo seed the tests configure (organisation repos: notifications scan organisations only). */
export const DEMO_REPOS: Record<number, { accountId: number; fullName: string; defaultBranch: string }> = {
  3101: { accountId: 2001, fullName: 'acme/web-storefront', defaultBranch: 'main' },
  3102: { accountId: 2001, fullName: 'acme/billing-api', defaultBranch: 'main' },
  3103: { accountId: 2001, fullName: 'acme/data-pipeline', defaultBranch: 'main' },
  3104: { accountId: 2001, fullName: 'acme/acme-cli', defaultBranch: 'main' },
  3201: { accountId: 2002, fullName: 'globex/analytics', defaultBranch: 'main' },
  3303: { accountId: 2003, fullName: 'initech/office-space', defaultBranch: 'main' },
};

/** An update config as a test describes it; unset fields take config-svc's defaults. */
export interface TestConfig {
  id: number;
  repoId: number;
  packageManager?: UpdateConfigState['packageManager'];
  directory?: string;
  targetBranch?: string | null;
  automergeRuntime?: UpdateConfigState['automergeRuleRuntimeDeps'];
  automergeDevelopment?: UpdateConfigState['automergeRuleDevelopmentDeps'];
  lockfileOnly?: boolean;
  securityUpdatesOnly?: boolean;
  revision?: number;
  deleted?: boolean;
}
