import { randomBytes } from 'node:crypto';
import { ReleaseNotificationResource } from '@switchyard/contracts';
import { type EmulatorFault, startGitHubEmulator } from '@switchyard/github-emulator';
import { emulatorRegistryEnv, startRegistryEmulator } from '@switchyard/registry-emulator';
import { createLogger, openDatabase } from '@switchyard/service-kit';
import {
  createTestDatabase,
  type EventTap,
  publishEvents,
  request,
  type TestResponse,
  tapEvents,
  waitFor,
} from '@switchyard/service-kit/testing';
import { type Kysely, sql } from 'kysely';
import { RELEASE_SCHEMA, type ReleaseDatabase } from '../../src/db/schema.ts';
import { deleteTopology } from './amqp.ts';
import { type ReleaseEnv, type ReleaseProcess, startApiProcess, startWorkerProcess } from './processes.ts';
import { configEvents, type FaultSeed } from './seed.ts';

/** release-svc's API and workers as OS processes on a fresh database, with the emulator and an event observer. */
export interface FaultStack {
  env: ReleaseEnv;
  /** The test's own connection to the release schema (reads only). */
  db: Kysely<ReleaseDatabase>;
  api: ReleaseProcess;
  observer: EventTap;
  /** The worker process that loaded the read model, still running. */
  firstWorker: ReleaseProcess;
  /** Starts one more worker process (killed by the cleanup if still running). */
  startWorker: () => Promise<ReleaseProcess>;
  /** `POST /release_notifications/private` for lodash `version` as the organisation's owner (with `Prefer: return=representation` when `represent`). */
  notify: (version: string, represent: boolean) => Promise<TestResponse>;
  /** `GET /release_notifications/:id` as the owner: the notification's attributes. */
  view: (id: string) => Promise<ReleaseNotificationResource['attributes']>;
  /** Scan results recorded so far for a notification. */
  resultCount: (id: string) => Promise<number>;
  /** `pull_request_job.created` events still waiting in the outbox. */
  unpublishedJobEvents: () => Promise<number>;
  /**
   * `GET` of a GitHub REST path (`/repos/{owner}/{repo}/pulls?state=all`) on the emulator, as the bot: the JSON body.
   * @throws when the emulator answers other than 200
   */
  codeHostGet: <T>(path: string) => Promise<T>;
}

/**
 * Starts everything a fault test needs and registers its teardown in `cleanup` (undone last first, every step even
 * when an earlier one fails): a test database, the GitHub
 * emulator (in this process) on `seed`, an observer queue on `exchange` for release-svc's events, the API
 * process, a first worker process, and the read model filled through it as config-svc would fill it.
 * `workerEnv` goes to every worker (`PULL_REQUESTS: 'on'` makes them execute pull-request jobs, with the bot's token:
 * give the bot a `write` role in the seed then).
 */
export async function startFaultStack(options: {
  label: string;
  databaseUrl: string;
  amqpUrl: string;
  seed: FaultSeed;
  cleanup: AsyncDisposableStack;
  /** A durable observer queue that outlives a broker restart (and reconnects), instead of an exclusive one. */
  durableObserver?: boolean;
  /** The broker is the test's own node, deleted with everything on it: no queues to delete one by one. */
  ownBroker?: boolean;
  workerEnv?: Record<string, string>;
  /** The emulator's fault queue (`GitHubEmulatorOptions.faults`): the test pushes faults to it while the stack runs. */
  codeHostFaults?: EmulatorFault[];
}): Promise<FaultStack> {
  const { seed, cleanup } = options;
  const logger = createLogger('faults', process.env.TEST_LOG_LEVEL ?? 'silent');
  const suffix = `${options.label}.${randomBytes(4).toString('hex')}`;
  const exchange = `test.${suffix}`;
  const prefix = `test.${suffix}`;

  const database = await createTestDatabase(options.databaseUrl, options.label);
  cleanup.defer(() => database.drop());
  const emulator = await startGitHubEmulator({ seed: seed.seed, logger, host: '127.0.0.1', port: 0, faults: options.codeHostFaults ?? [] });
  cleanup.use(emulator);
  // A registry that knows no package: every notification's job targets the notified version, `unverified`, as these
  // tests expect (they are about delivery, not about versions).
  const registry = await startRegistryEmulator({ seed: { packages: [], credentials: [] }, logger, host: '127.0.0.1', port: 0 });
  cleanup.use(registry);
  if (!options.ownBroker) cleanup.defer(() => deleteTopology(options.amqpUrl, exchange, prefix));
  const observer = await tapEvents(options.amqpUrl, exchange, {
    bindings: ['pull_request_job.*', 'release_notification.received'],
    ...(options.durableObserver ? { durableQueue: `${prefix}.observer` } : {}),
  });
  cleanup.defer(() => observer.close());

  const env: ReleaseEnv = {
    DATABASE_URL: database.url,
    AMQP_URL: options.amqpUrl,
    EVENTS_EXCHANGE: exchange,
    QUEUE_PREFIX: prefix,
    // This stack plays config-svc's state events, not its checkpoints: plan each notification on arrival.
    CONFIG_CHECKPOINT_TIMEOUT_MS: '0',
    CODE_HOST_API_URL: emulator.url,
    CODE_HOST_TOKEN: seed.botToken,
    DB_POOL_SIZE: '4',
    ...emulatorRegistryEnv(registry.url),
  };
  const api = await startApiProcess(env);
  cleanup.defer(async () => {
    await api.stop('SIGTERM', 3_000);
  });
  const handle = openDatabase<ReleaseDatabase>({ kind: 'postgres', url: database.url, poolSize: 3 });
  cleanup.use(handle);
  const db = handle.db.withSchema(RELEASE_SCHEMA);

  const workerEnv = { ...env, ...options.workerEnv };
  const startWorker = async () => {
    const worker = await startWorkerProcess(workerEnv);
    cleanup.defer(async () => {
      await worker.stop('SIGKILL', 1_000);
    });
    return worker;
  };

  // The read model, as config-svc fills it: the worker must have declared its queue before the events are published.
  const firstWorker = await startWorker();
  await publishEvents(options.amqpUrl, exchange, 'config-svc', configEvents(seed));
  await waitFor(
    async () => {
      const [repos, configs] = await Promise.all([
        db.selectFrom('repo').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
        db.selectFrom('update_config').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
      ]);
      return repos.n === seed.repos.length && configs.n === seed.repos.length;
    },
    20_000,
    100,
  );

  const auth = { authorization: `Personal ${seed.ownerToken}` };
  return {
    env,
    db,
    api,
    observer,
    firstWorker,
    startWorker,
    notify: (version, represent) =>
      request(api.url, 'POST', '/release_notifications/private', {
        headers: { ...auth, ...(represent ? { prefer: 'return=representation' } : {}) },
        body: { name: 'lodash', version, 'package-manager': 'npm_and_yarn' },
      }),
    view: async (id) => {
      const res = await request(api.url, 'GET', `/release_notifications/${id}`, { headers: auth });
      if (res.status !== 200) throw new Error(`GET /release_notifications/${id} answered ${res.status}: ${res.text}`);
      return ReleaseNotificationResource.parse(res.body.data).attributes;
    },
    resultCount: async (id) =>
      (
        await db
          .selectFrom('scan_result')
          .select(sql<number>`count(*)::int`.as('n'))
          .where('notification_id', '=', id)
          .executeTakeFirstOrThrow()
      ).n,
    unpublishedJobEvents: async () =>
      (
        await sql<{
          n: number;
        }>`select count(*)::int as n from release.outbox where published_at is null and type = 'pull_request_job.created'`.execute(
          handle.db,
        )
      ).rows[0]?.n ?? 0,
    codeHostGet: async <T>(path: string) => {
      const res = await fetch(`${emulator.url}${path}`, {
        headers: { authorization: `token ${seed.botToken}`, accept: 'application/vnd.github+json' },
      });
      if (res.status !== 200) throw new Error(`GET ${path} on the code host answered ${res.status}: ${await res.text()}`);
      return (await res.json()) as T;
    },
  };
}
