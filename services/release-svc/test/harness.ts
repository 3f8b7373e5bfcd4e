import { randomBytes } from 'node:crypto';
import { type EventEnvelope, LANGUAGE_OF, type UpdateConfigState } from '@switchyard/contracts';
import { loadDemoSeed, type SeedInput, startGitHubEmulator, type WebhookOptions } from '@switchyard/github-emulator';
import { createAmqpBus, type MessageBus } from '@switchyard/messaging';
import { emulatorRegistryEnv, loadDemoSeed as loadRegistrySeed, startRegistryEmulator } from '@switchyard/registry-emulator';
import { createLogger, type Logger, startService } from '@switchyard/service-kit';
import { createTestDatabase, publishEvents, request, tapEvents, waitFor } from '@switchyard/service-kit/testing';
import type { Kysely } from 'kysely';
import { inject } from 'vitest';
import { loadReleaseConfig, type ReleaseConfig } from '../src/config.ts';
import type { ReleaseDatabase } from '../src/db/schema.ts';
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
  /** The registry emulator the worker asks (demo seed): publish with `POST <registryUrl>/admin/publish`. */
  registryUrl: string;
  /** The GitHub emulator the API and the worker use. */
  codeHostUrl: string;
  /** Where the emulator sends webhooks (`url` is the API's with {@link ReleaseHarnessOptions.webhooks}); a test may unset it to lose some. */
  webhooks: WebhookOptions;
  logger: Logger;
  /** Publishes the account, repo and update-config events of a config, as config-svc would, and waits until the worker has applied them. */
  configure: (config: TestConfig) => Promise<void>;
  /**
   * Sends a release notification as alice (`Prefer: return=representation`) and waits until its scan is `done`.
   * @returns the notification's id
   */
  notifyAndWait: (name: string, version: string, packageManager: string) => Promise<string>;
  /** Publishes events as config-svc would (its source and exchange), e.g. an `update_config.checkpoint`. */
  publishAsConfigSvc: (events: ReadonlyArray<{ type: string; data: unknown }>) => Promise<void>;
  releaseConfig: ReleaseConfig;
  /** The worker's handle of the `release` schema. */
  db: Kysely<ReleaseDatabase>;
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
  /**
   * The worker's scheduler clock. Default: a fixed day in 2000, so no slot of a config the test makes is ever due
   * while it runs (a test that schedules calls `scheduleDueRuns` with its own times, or passes a clock).
   */
  now?: () => Date;
  /** The worker's environment besides the harness's (e.g. `SCHEDULER_INTERVAL_MS`, `REGISTRY_WATCH_INTERVAL_MS`). */
  workerEnv?: Record<string, string>;
  /** The GitHub emulator sends its webhooks to the API's `POST /webhooks/github`, signed (default false: none are sent). */
  webhooks?: boolean;
}

/** The `WEBHOOK_SECRET` of the harness's API: a test signs deliveries with it. */
export const TEST_WEBHOOK_SECRET = 'test-webhook-secret-of-the-harness';

/** The `SECRETS_KEY` of the harness's worker (32 bytes, hex): a test seals registry credentials with it. */
export const TEST_SECRETS_KEY = '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f';

/** Starts a {@link ReleaseHarness} (what it started is closed again when a step fails). Call from `beforeAll`. */
export function startReleaseHarness(label: string, options: ReleaseHarnessOptions = {}): Promise<ReleaseHarness> {
  const repos: Record<number, TestRepo> = { ...DEMO_REPOS, ...options.repos };
  return startService(async (scope) => {
    const logger = createLogger('test', process.env.TEST_LOG_LEVEL ?? 'silent');
    // Read at every delivery: the API's URL is set once it listens.
    const webhooks: WebhookOptions = { secret: TEST_WEBHOOK_SECRET, retryDelayMs: 100 };
    const emulator = scope.use(await startGitHubEmulator({ seed: options.seed ?? loadDemoSeed(), logger, webhooks }));
    const registry = scope.use(await startRegistryEmulator({ seed: loadRegistrySeed(), logger }));
    const database = await createTestDatabase(inject('databaseUrl'), label);
    scope.defer(() => database.drop());
    const suffix = `${label}.${randomBytes(4).toString('hex')}`;
    const exchange = `test.${suffix}`;
    scope.defer(() => deleteTopology(inject('amqpUrl'), exchange, `test.${suffix}`));
    const tap = await tapEvents(inject('amqpUrl'), exchange, {
      bindings: ['pull_request_job.*', 'release_notification.*', 'app_installation.*'],
    });

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
      ...emulatorRegistryEnv(registry.url),
      SECRETS_KEY: TEST_SECRETS_KEY,
      WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
      REGISTRY_TIMEOUT_MS: '5000',
      ...options.workerEnv,
    });
    scope.defer(() => tap.close());
    const bus: MessageBus = await createAmqpBus({ url: inject('amqpUrl'), exchange, logger });
    scope.defer(() => bus.close());
    const api = scope.use(await startReleaseApi(releaseConfig, logger));
    if (options.webhooks) webhooks.url = `${api.url}/webhooks/github`;
    const worker = scope.use(
      await startReleaseWorker(releaseConfig, logger, { bus, health: false, now: options.now ?? (() => new Date('2000-01-03T00:00:00Z')) }),
    );
    const db = worker.database.db.withSchema('release');
    const publish = (events: ReadonlyArray<{ type: string; data: unknown }>) =>
      publishEvents(inject('amqpUrl'), exchange, 'config-svc', events);
    return {
      releaseUrl: api.url,
      registryUrl: registry.url,
      codeHostUrl: emulator.url,
      webhooks,
      logger,
      configure: async (c: TestConfig) => {
        const repo = repos[c.repoId];
        if (!repo) throw new Error(`repo ${c.repoId} is not a repo the harness knows`);
        const state = updateConfigState({
          id: c.id,
          repoId: c.repoId,
          accountId: repo.accountId,
          ...(c.packageManager ? { packageManager: c.packageManager, language: LANGUAGE_OF[c.packageManager] } : {}),
          ...(c.directory ? { directory: c.directory } : {}),
          ...(c.targetBranch !== undefined ? { targetBranch: c.targetBranch } : {}),
          ...(c.automergeRuntime ? { automergeRuleRuntimeDeps: c.automergeRuntime } : {}),
          ...(c.automergeDevelopment ? { automergeRuleDevelopmentDeps: c.automergeDevelopment } : {}),
          ...(c.lockfileOnly !== undefined ? { lockfileOnly: c.lockfileOnly } : {}),
          ...(c.securityUpdatesOnly !== undefined ? { securityUpdatesOnly: c.securityUpdatesOnly } : {}),
          ...(c.revision !== undefined ? { revision: c.revision } : {}),
          ...(c.updateSchedule ? { updateSchedule: c.updateSchedule } : {}),
          ...(c.settings ? { settings: c.settings } : {}),
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
      notifyAndWait: async (name, version, packageManager) => {
        const alice = { authorization: `Personal ${ALICE}` };
        const res = await request(api.url, 'POST', '/release_notifications/private', {
          headers: { ...alice, prefer: 'return=representation' },
          body: { name, version, 'package-manager': packageManager },
        });
        const id = res.body.data.id as string;
        await waitFor(
          async () =>
            (await request(api.url, 'GET', `/release_notifications/${id}`, { headers: alice })).body.data.attributes.status === 'done',
          20_000,
        );
        return id;
      },
      publishAsConfigSvc: async (events) => {
        await publish(events);
      },
      releaseConfig,
      api,
      worker,
      db,
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
  updateSchedule?: UpdateConfigState['updateSchedule'];
  revision?: number;
  deleted?: boolean;
  /** Its settings beyond the API's attributes (groups, labels …); default none. */
  settings?: UpdateConfigState['settings'];
}
