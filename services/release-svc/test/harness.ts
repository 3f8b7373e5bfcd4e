import { randomBytes } from 'node:crypto';
import type { EventEnvelope, UpdateConfigState } from '@switchyard/contracts';
import { loadDemoSeed, type SeedInput, startGitHubEmulator } from '@switchyard/github-emulator';
import { createAmqpBus, type MessageBus } from '@switchyard/messaging';
import { createLogger, startService } from '@switchyard/service-kit';
import { createTestDatabase, publishEvents, tapEvents, waitFor } from '@switchyard/service-kit/testing';
import { inject } from 'vitest';
import { loadReleaseConfig, type ReleaseConfig } from '../src/config.ts';
import { type RunningReleaseApi, startReleaseApi } from '../src/start.ts';
import { type RunningReleaseWorker, startReleaseWorker } from '../src/worker.ts';
import { orgState, repoState, updateConfigState } from './config-state.ts';
import { deleteTopology } from './faults/amqp.ts';

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
  /** Publishes events as config-svc would (its source and exchange), e.g. an `update_config.checkpoint`. */
  publishAsConfigSvc: (events: ReadonlyArray<{ type: string; data: unknown }>) => Promise<void>;
  releaseConfig: ReleaseConfig;
  api: RunningReleaseApi;
  worker: RunningReleaseWorker;
  events: EventEnvelope[];
  waitForEvent: (match: (event: EventEnvelope) => boolean) => Promise<EventEnvelope>;
  close: () => Promise<void>;
}

/** A repo a test configures: its organisation's id, `owner/name` and default branch. */
export interface TestRepo {
  accountId: number;
  fullName: string;
  defaultBranch: string;
}

/** How a {@link ReleaseHarness} departs from the defaults. */
export interface ReleaseHarnessOptions {
  /** The emulator's seed; default the demo seed. */
  seed?: SeedInput;
  /** Repos of that seed that `configure` may name, besides {@link DEMO_REPOS}, by id. */
  repos?: Record<number, TestRepo>;
  /**
   * The worker's CONFIG_CHECKPOINT_TIMEOUT_MS; default 0 (plan each notification on arrival, as no config-svc answers
   * with checkpoints here unless the test publishes them).
   */
  checkpointTimeoutMs?: number;
}

/** Starts a {@link ReleaseHarness} (what it started is closed again when a step fails). Call from `beforeAll`. */
export function startReleaseHarness(label: string, options: ReleaseHarnessOptions = {}): Promise<ReleaseHarness> {
  const repos: Record<number, TestRepo> = { ...DEMO_REPOS, ...options.repos };
  return startService(async (scope) => {
    const logger = createLogger('test', process.env.TEST_LOG_LEVEL ?? 'silent');
    const emulator = scope.use(await startGitHubEmulator({ seed: options.seed ?? loadDemoSeed(), logger }));
    const database = await createTestDatabase(inject('databaseUrl'), label);
    scope.defer(() => database.drop());
    const suffix = `${label}.${randomBytes(4).toString('hex')}`;
    const exchange = `test.${suffix}`;
    scope.defer(() => deleteTopology(inject('amqpUrl'), exchange, `test.${suffix}`));
    const tap = await tapEvents(inject('amqpUrl'), exchange, { bindings: ['pull_request_job.*', 'release_notification.*'] });

    const env = {
      HOST: '127.0.0.1',
      PORT: '0',
      DATABASE_URL: database.url,
      AMQP_URL: inject('amqpUrl'),
      EVENTS_EXCHANGE: exchange,
      CODE_HOST_API_URL: emulator.url,
    };
    const releaseConfig = loadReleaseConfig({
      ...env,
      CODE_HOST_TOKEN: BOT,
      QUEUE_PREFIX: `test.${suffix}`,
      SCAN_BATCH_SIZE: '2',
      // The harness plays config-svc's state events; its checkpoints only when a test asks for them (`checkpointTimeoutMs`).
      CONFIG_CHECKPOINT_TIMEOUT_MS: String(options.checkpointTimeoutMs ?? 0),
    });
    scope.defer(() => tap.close());
    const bus: MessageBus = await createAmqpBus({ url: inject('amqpUrl'), exchange, logger });
    scope.defer(() => bus.close());
    const api = scope.use(await startReleaseApi(releaseConfig, logger));
    const worker = scope.use(await startReleaseWorker(releaseConfig, logger, { bus, health: false }));
    const db = worker.database.db.withSchema('release');
    const publish = (events: ReadonlyArray<{ type: string; data: unknown }>) =>
      publishEvents(inject('amqpUrl'), exchange, 'config-svc', events);
    return {
      releaseUrl: api.url,
      configure: async (c: TestConfig) => {
        const repo = repos[c.repoId];
        if (!repo) throw new Error(`repo ${c.repoId} is not a repo the harness knows`);
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
        await publish([
          { type: 'account.created', data: orgState(repo.accountId, repo.fullName.split('/')[0] ?? '') },
          {
            type: 'repo.created',
            data: repoState({ id: c.repoId, accountId: repo.accountId, fullName: repo.fullName, defaultBranch: repo.defaultBranch }),
          },
          { type: c.deleted ? 'update_config.deleted' : 'update_config.created', data: state },
        ]);
        await waitFor(async () => {
          const row = await db.selectFrom('update_config').select(['revision', 'deleted']).where('id', '=', c.id).executeTakeFirst();
          return row !== undefined && row.deleted === (c.deleted ?? false) && row.revision >= state.revision;
        }, 15_000);
      },
      publishAsConfigSvc: async (events) => {
        await publish(events);
      },
      releaseConfig,
      api,
      worker,
      events: tap.events,
      waitForEvent: (match: (event: EventEnvelope) => boolean) => tap.waitForEvent(match, 15_000),
    };
  });
}

/** Repos of the demo seed the tests configure (organisation repos: notifications scan organisations only). */
export const DEMO_REPOS: Record<number, TestRepo> = {
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
