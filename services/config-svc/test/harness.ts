import { randomBytes } from 'node:crypto';
import { type CodeHost, createGitHubCodeHost } from '@switchyard/code-host';
import type { EventEnvelope } from '@switchyard/contracts';
import { demoSeedInput, generateRepos, parseSeed, type SeedRepoInput, startGitHubEmulator } from '@switchyard/github-emulator';
import { createLogger, type Logger, type OutboundResolver, startService } from '@switchyard/service-kit';
import { createTestDatabase, deleteConsumerQueues, tapEvents } from '@switchyard/service-kit/testing';
import { inject } from 'vitest';
import { loadConfigServiceConfig } from '../src/config.ts';
import { type RunningConfigService, startConfigService } from '../src/start.ts';

/** Tokens of the demo seed's users. */
export const ALICE = 'demo-token-alice';
export const BOB = 'demo-token-bob';
/** An organisation of 250 repos that alice belongs to with write permission. */
export const BIGCO = { id: 2900, login: 'bigco', repos: 250, firstRepoId: 900_000 };

/**
 * Files the tests add to demo repos, by repo id and branch: directories that tests whose point is something else (a
 * duplicate on two branches, what a token may do) create configs in, so that they hold their package manager's files
 * as config-svc checks on create; and a directory two levels deep.
 */
const TEST_FILES: Record<number, Record<string, Record<string, string>>> = {
  // acme/web-storefront: bundler in /app on main and develop; npm_and_yarn in /scopes and /services/api.
  3101: {
    main: { 'app/Gemfile': 'source "https://rubygems.org"\n', 'scopes/package.json': '{}\n', 'services/api/package.json': '{}\n' },
    develop: { 'app/Gemfile': 'source "https://rubygems.org"\n' },
  },
  // acme/acme-cli (public): npm_and_yarn in /scopes.
  3104: { main: { 'scopes/package.json': '{}\n' } },
};

/** `repo` with the {@link TEST_FILES} of its id added to its branches. */
function withTestFiles(repo: SeedRepoInput): SeedRepoInput {
  const added = TEST_FILES[repo.id];
  if (!added) return repo;
  const files = { ...(repo.files ?? {}) };
  for (const [branch, more] of Object.entries(added)) files[branch] = { ...(files[branch] ?? {}), ...more };
  return { ...repo, files };
}

/**
 * The demo seed as the emulator serves it (`demo-seed.json` and every part of `demo-seeds/`, e.g. acme/polyglot's
 * directory per package manager), with {@link TEST_FILES}, plus {@link BIGCO}.
 */
export function testSeed() {
  const demo = demoSeedInput();
  return parseSeed({
    ...demo,
    organizations: [
      ...(demo.organizations ?? []),
      { id: BIGCO.id, login: BIGCO.login, members: [{ login: 'alice', role: 'member' }], defaultRepoPermission: 'write' },
    ],
    repos: [...(demo.repos ?? []).map(withTestFiles), ...generateRepos(BIGCO.login, BIGCO.repos, BIGCO.firstRepoId)],
  });
}

/** One call config-svc made through the {@link CodeHost} port: the method and the token it was made with. */
export interface CodeHostCall {
  method: keyof CodeHost;
  token: string;
}

/**
 * `inner` with every call recorded in `calls` (in the order they were made) before it is passed on: the harness's way
 * of counting what config-svc asks the code host, whatever the call's outcome.
 */
export function countingCodeHost(inner: CodeHost, calls: CodeHostCall[]): CodeHost {
  const record =
    <A extends unknown[], R>(method: keyof CodeHost, call: (token: string, ...args: A) => Promise<R>) =>
    (token: string, ...args: A): Promise<R> => {
      calls.push({ method, token });
      return call(token, ...args);
    };
  return {
    currentUser: record('currentUser', inner.currentUser),
    organisations: record('organisations', inner.organisations),
    organisationRole: record('organisationRole', inner.organisationRole),
    listRepos: record('listRepos', inner.listRepos),
    getRepo: record('getRepo', inner.getRepo),
    readFile: record('readFile', inner.readFile),
    ...(inner.readFiles ? { readFiles: record('readFiles', inner.readFiles) } : {}),
    ...(inner.listDirectory ? { listDirectory: record('listDirectory', inner.listDirectory) } : {}),
    ...(inner.listTree ? { listTree: record('listTree', inner.listTree) } : {}),
    ...(inner.listAdvisories ? { listAdvisories: record('listAdvisories', inner.listAdvisories) } : {}),
    ...(inner.listInstallations ? { listInstallations: record('listInstallations', inner.listInstallations) } : {}),
  };
}

/** How a {@link ConfigHarness} departs from the defaults. */
export interface ConfigHarnessOptions {
  /** Environment variables of config-svc on top of the harness's own (e.g. `TRUST_PROXY`, `AUTH_FAILURE_LIMIT`). */
  env?: Record<string, string>;
  /** The service's logger; default a silent one (`TEST_LOG_LEVEL` to see its lines). */
  logger?: Logger;
  /** Wraps the code host config-svc uses (the GitHub adapter on the emulator), e.g. to change what one method answers. */
  wrapCodeHost?: (inner: CodeHost) => CodeHost;
  /** The name resolution of the outbound guard of registry credentials' `base-url`s; default the system resolver. */
  resolveRegistryHost?: OutboundResolver;
}

/** config-svc in this process on a fresh database and its own exchange, with the GitHub emulator and an event tap that collects every event. */
export interface ConfigHarness {
  url: string;
  service: RunningConfigService;
  /** Every call config-svc made to the code host (the GitHub adapter on the emulator), in order. */
  codeHostCalls: CodeHostCall[];
  /** Every event published so far, the first delivery of each id, in arrival order. */
  events: EventEnvelope[];
  /** The exchange config-svc publishes to and consumes from (to publish another service's events in tests). */
  exchange: string;
  /** Waits until an event matching `match` has arrived and returns it. */
  waitForEvent: (match: (event: EventEnvelope) => boolean) => Promise<EventEnvelope>;
  close: () => Promise<void>;
}

/** Starts a {@link ConfigHarness} (what it started is closed again when a step fails). Call from `beforeAll`. */
export function startConfigHarness(label: string, options: ConfigHarnessOptions = {}): Promise<ConfigHarness> {
  return startService(async (scope) => {
    const logger = options.logger ?? createLogger('config-svc', process.env.TEST_LOG_LEVEL ?? 'silent');
    const emulator = scope.use(await startGitHubEmulator({ seed: testSeed(), logger }));
    const database = await createTestDatabase(inject('databaseUrl'), label);
    scope.defer(() => database.drop());
    const exchange = `test.${label}.${randomBytes(4).toString('hex')}`;
    // config-svc's queue, named after the exchange so parallel tests never share it; deleted after the service stops.
    const queuePrefix = exchange;
    scope.defer(() =>
      deleteConsumerQueues(inject('amqpUrl'), [
        `${queuePrefix}.release-notifications`,
        `${queuePrefix}.config-files`,
        `${queuePrefix}.app-installations`,
      ]),
    );
    const tap = await tapEvents(inject('amqpUrl'), exchange, { deleteExchangeOnClose: true });
    scope.defer(() => tap.close());
    const codeHostCalls: CodeHostCall[] = [];
    const github = createGitHubCodeHost({ baseUrl: emulator.url, userAgent: 'switchyard-config-svc', logger });
    const codeHost = countingCodeHost(options.wrapCodeHost ? options.wrapCodeHost(github) : github, codeHostCalls);
    const service = scope.use(
      await startConfigService(
        loadConfigServiceConfig({
          HOST: '127.0.0.1',
          PORT: '0',
          DATABASE_URL: database.url,
          AMQP_URL: inject('amqpUrl'),
          EVENTS_EXCHANGE: exchange,
          QUEUE_PREFIX: queuePrefix,
          CODE_HOST_API_URL: emulator.url,
          ...options.env,
        }),
        logger,
        { codeHost, ...(options.resolveRegistryHost ? { resolveRegistryHost: options.resolveRegistryHost } : {}) },
      ),
    );
    return {
      url: service.url,
      service,
      codeHostCalls,
      events: tap.events,
      exchange,
      waitForEvent: (match: (event: EventEnvelope) => boolean) => tap.waitForEvent(match),
    };
  });
}
