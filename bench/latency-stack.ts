/**
 * What the time-to-pull-request benchmark (`latency.bench.ts`) runs against, and how it drives it: the one-process
 * launcher with the benchmark's own seeds on emulators in the benchmark's process (whose every request is recorded with
 * its times), or a running compose stack with its demo data; and the dependency update API's calls a round makes.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createGitHubEmulator, generateRepos, parseSeed, type SeedInput, type WebhookOptions } from '@switchyard/github-emulator';
import { createRegistryEmulator, emulatorRegistryEnv, type SeedInput as RegistrySeedInput } from '@switchyard/registry-emulator';
import { createLogger } from '@switchyard/service-kit';
import { freePort, type RunningProcess, startProcess } from '@switchyard/service-kit/testing';
import type { RecordedRequest } from './latency-stages.ts';
import { observedServer } from './observed-server.ts';
import type { Cleanup } from './release-stack.ts';

/** The clock every time of the benchmark is read on: epoch milliseconds, fractional. */
export const now = (): number => performance.timeOrigin + performance.now();

/** An update config the benchmark made, and where its pull requests go. */
export interface ConfigRef {
  id: string;
  repoId: number;
  /** `owner/name`. */
  repo: string;
  /** The config's directory (`/`, or `/latency-…/many-007`). */
  directory: string;
}

/** The configs of one size of the benchmark ("one repository", "N repositories"), all on one pip package. */
export interface ConfigGroup {
  /** The package every config's `requirements.txt` pins at 1.0.0, the one the rounds publish versions of. */
  packageName: string;
  configs: ConfigRef[];
  /** Where the configs are (printed). */
  description: string;
  /** What one config stands for in the printed scenario names: a repository, or a directory of one. */
  unit: 'repo' | 'directory';
}

/** What a round runs against. */
export interface Target {
  mode: 'launcher' | 'compose';
  /** What it is, printed before the results. */
  description: string;
  gateway: string;
  codeHost: string;
  registry: string;
  /** The token of the user who makes the configs and sends the triggers. */
  token: string;
  /** The requests the emulators answered, when they run in this process. */
  recorder: Recorder | undefined;
  /** The launcher's process id (for its CPU time), when the benchmark started it. */
  pid: number | undefined;
  /** Makes the configs of a group: `size` 1 (one repository) or more. */
  group(size: number): Promise<ConfigGroup>;
  /** Lets go of a group's configs (compose: deletes them, so the next group's notifications do not scan them). */
  release(group: ConfigGroup): Promise<void>;
}

// ---------------------------------------------------------------------------------------------------------------
// Recording the emulators' requests.

/** A pull request the code host answered `201` to, by `owner/name#head-branch`. */
const pullKey = (repo: string, branch: string) => `${repo}#${branch}`;

/**
 * The requests the emulators in this process answered, each with its times, repository and caller; and the moment each
 * pull request was created (`POST /repos/{owner}/{repo}/pulls` answered 201), which rounds wait for.
 */
export class Recorder {
  /** Every request answered since the last {@link Recorder.clear}. */
  readonly requests: RecordedRequest[] = [];
  private readonly opened = new Map<string, number>();
  private readonly waiters = new Map<string, (at: number) => void>();
  private lastBot = 0;
  private readonly botToken: string;
  private readonly repoOfId: (id: number) => string | undefined;

  /**
   * @param botToken the release worker's token: its requests are marked `bot`
   * @param repoOfId `owner/name` of a repository id (for `/repositories/{id}` paths)
   */
  constructor(botToken: string, repoOfId: (id: number) => string | undefined) {
    this.botToken = botToken;
    this.repoOfId = repoOfId;
  }

  /** Forgets the requests recorded so far (not the pull requests seen). */
  clear(): void {
    this.requests.length = 0;
  }

  /** When the worker's last request to the code host was answered (epoch ms; 0: none yet). */
  lastBotRequestAt(): number {
    return this.lastBot;
  }

  /** Resolves with the moment the pull request from `branch` of `repo` was created (at once if it was already). */
  pullRequestOpened(repo: string, branch: string): Promise<number> {
    const key = pullKey(repo, branch);
    const at = this.opened.get(key);
    if (at !== undefined) return Promise.resolve(at);
    return new Promise((resolve) => this.waiters.set(key, resolve));
  }

  /** Records one answered request of the emulator `kind`. */
  note(kind: RecordedRequest['kind'], req: IncomingMessage, start: number, end: number, status: number): void {
    const method = req.method ?? 'GET';
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (kind === 'registry' && path.startsWith('/admin/')) return;
    const authorization = req.headers.authorization ?? '';
    const bot = authorization.endsWith(` ${this.botToken}`);
    const body = (req as IncomingMessage & { body?: unknown }).body as { variables?: { owner?: unknown; name?: unknown }; head?: unknown };
    let repo: string | undefined;
    const inRepo = /^\/repos\/([^/]+)\/([^/]+)/.exec(path);
    const byId = /^\/repositories\/(\d+)/.exec(path);
    if (inRepo) repo = `${inRepo[1]}/${inRepo[2]}`;
    else if (byId) repo = this.repoOfId(Number(byId[1]));
    else if (path === '/graphql' && typeof body?.variables?.owner === 'string' && typeof body.variables.name === 'string') {
      repo = `${body.variables.owner}/${body.variables.name}`;
    }
    this.requests.push({ start, end, kind, method, path, status, repo, bot });
    if (kind !== 'code-host') return;
    if (bot) this.lastBot = end;
    if (method === 'POST' && status === 201 && repo && /^\/repos\/[^/]+\/[^/]+\/pulls$/.test(path) && typeof body?.head === 'string') {
      const branch = body.head.includes(':') ? body.head.slice(body.head.indexOf(':') + 1) : body.head;
      const key = pullKey(repo, branch);
      this.opened.set(key, end);
      this.waiters.get(key)?.(end);
      this.waiters.delete(key);
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The dependency update API and the emulators' own APIs, as a client.

/** An answer: status, parsed JSON body (undefined when none or not JSON), headers. */
export interface Answer {
  status: number;
  body: unknown;
  headers: Headers;
}

/** Sends one request with `fetch`: JSON body if given, `Authorization: Personal <token>` if given. */
export async function call(
  method: string,
  url: string,
  options: { token?: string | undefined; json?: unknown; headers?: Record<string, string>; scheme?: string } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (options.token) headers.authorization = `${options.scheme ?? 'Personal'} ${options.token}`;
  if (options.json !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(url, {
    method,
    headers,
    ...(options.json !== undefined ? { body: JSON.stringify(options.json) } : {}),
  });
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = text;
  }
  return { status: response.status, body, headers: response.headers };
}

/** Statuses a busy API answers for a moment (the gateway's 502 and 504, a service's 503). */
const UNAVAILABLE: readonly number[] = [502, 503, 504];

/**
 * `call` that throws unless the status is one of `expected`. A `GET` answered 502, 503 or 504 is asked again, up to 10
 * times 0.5 s apart (a stack under load refuses for a moment).
 */
export async function expectStatus(expected: readonly number[], method: string, url: string, options: Parameters<typeof call>[2] = {}) {
  let answer = await call(method, url, options);
  for (let retry = 0; method === 'GET' && UNAVAILABLE.includes(answer.status) && retry < 10; retry++) {
    await sleep(500);
    answer = await call(method, url, options);
  }
  if (!expected.includes(answer.status)) {
    throw new Error(`${method} ${url} answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 500)}`);
  }
  return answer;
}

/** Publishes `version` of pip package `name` on the registry emulator (its admin API), released now. */
export async function publishVersion(registry: string, name: string, version: string): Promise<void> {
  await expectStatus([201], 'POST', `${registry}/admin/publish`, { json: { packageManager: 'pip', name, version } });
}

/** Runs `work` on every item of `items`, `concurrency` at a time. */
export async function inPool<T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) {
        const item = items[next++] as T;
        await work(item);
      }
    }),
  );
}

/** Makes a pip update config (schedule `daily`) for `directory` of a repo of an organisation; returns its id. */
async function createConfig(
  target: Pick<Target, 'gateway' | 'token'>,
  accountId: number,
  repoId: number,
  directory: string,
): Promise<string> {
  const body = {
    'repo-id': repoId,
    'account-id': String(accountId),
    'account-type': 'org',
    directory,
    'update-schedule': 'daily',
    'package-manager': 'pip',
  };
  const answer = await expectStatus([201], 'POST', `${target.gateway}/update_configs`, { token: target.token, json: body });
  return String((answer.body as { data: { id: string } }).data.id);
}

/**
 * Waits until release-svc knows every config (`GET /update_runs?update-config-id=` answers 200, not 404: config-svc's
 * events have reached its read model).
 * @throws after `timeoutMs`
 */
async function waitUntilKnown(target: Pick<Target, 'gateway' | 'token'>, configs: readonly ConfigRef[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  await inPool(configs, 8, async (config) => {
    for (;;) {
      const answer = await call('GET', `${target.gateway}/update_runs?update-config-id=${config.id}`, { token: target.token });
      if (answer.status === 200) return;
      // 404: not known yet; 502 to 504: the API is busy for a moment.
      if (answer.status !== 404 && !UNAVAILABLE.includes(answer.status)) {
        throw new Error(`GET /update_runs?update-config-id=${config.id} answered ${answer.status}`);
      }
      if (Date.now() > deadline) throw new Error(`release-svc did not learn of config ${config.id} within ${timeoutMs} ms`);
      await sleep(100);
    }
  });
}

// ---------------------------------------------------------------------------------------------------------------
// The launcher, on the benchmark's seeds, with both emulators in this process.

const USER = { id: 7310, login: 'latency', token: 'latency-token', name: 'Latency benchmark user' };
const BOT = { id: 7311, login: 'latency-bot', token: 'latency-bot-token', name: "Latency benchmark bot (release-svc's worker)" };
/** The organisation of the one-repository case and that of the many-repositories case. */
const ORGS = { one: { id: 7320, login: 'latency-one' }, many: { id: 7321, login: 'latency-many' } } as const;
const FIRST_REPO_ID = { one: 732_000, many: 740_000 } as const;
/** The pip package each organisation's repositories pin. */
export const PACKAGES = { one: 'latency-one-dep', many: 'latency-many-dep' } as const;
/** The version every repository pins at first (the only one published when the launcher starts). */
export const FIRST_VERSION = '1.0.0';

/** How long the launcher may take to answer `/readyz` on a fresh data folder (it migrates every schema in PGlite). */
const LAUNCHER_READY_MS = 150_000;
const STANDALONE_MAIN = new URL('../apps/standalone/src/main.ts', import.meta.url).pathname;

/**
 * The GitHub emulator's seed: user `latency` (admin of both organisations), the worker's bot `latency-bot` (member;
 * both organisations' base permission is `write`), organisation `latency-one` with one Python repository and
 * `latency-many` with `repos`, each repository's `main` holding a `requirements.txt` that pins its organisation's
 * package at {@link FIRST_VERSION}; a rate limit that a benchmark does not reach.
 */
export function latencyGitHubSeed(repos: number): SeedInput {
  const reposOf = (kind: 'one' | 'many', count: number) =>
    generateRepos(ORGS[kind].login, count, FIRST_REPO_ID[kind], { private: false }).map((repo) => ({
      ...repo,
      language: 'Python',
      files: { main: { 'requirements.txt': `${PACKAGES[kind]}==${FIRST_VERSION}\n` } },
    }));
  const org = (kind: 'one' | 'many') => ({
    ...ORGS[kind],
    name: `Latency ${kind}`,
    members: [
      { login: USER.login, role: 'admin' as const },
      { login: BOT.login, role: 'member' as const },
    ],
    defaultRepoPermission: 'write' as const,
  });
  return {
    users: [USER, BOT],
    organizations: [org('one'), org('many')],
    repos: [...reposOf('one', 1), ...reposOf('many', repos)],
    rateLimit: { limit: 100_000_000, windowSeconds: 3_600 },
  };
}

/** The registry emulator's seed: both packages, with {@link FIRST_VERSION} only (released 2025-01-01). */
export function latencyRegistrySeed(): RegistrySeedInput {
  return {
    packages: Object.values(PACKAGES).map((name) => ({
      packageManager: 'pip' as const,
      name,
      repository: `https://github.com/latency-upstream/${name}`,
      versions: [{ version: FIRST_VERSION, releasedAt: '2025-01-01T00:00:00.000Z' }],
    })),
    credentials: [],
  };
}

/**
 * Starts both emulators in this process behind recording servers, then the launcher (`apps/standalone`) as its own
 * process on free ports, with `DATA_DIR` a fresh temporary folder (or `memory://`), its embedded PGlite and in-process
 * bus, the emulators' URLs (`CODE_HOST_API_URL`, the worker's `CODE_HOST_TOKEN`, `REGISTRY_URLS`), the emulator's
 * signed webhooks to its gateway, and an empty `DASHBOARD_DIR` (no dashboard build). Everything started is undone by
 * `cleanups` (last started, first undone).
 */
export async function launcherTarget(options: {
  repos: number;
  memory: boolean;
  cleanups: Cleanup[];
  started: Array<[string, RunningProcess]>;
}): Promise<Target> {
  const { cleanups } = options;
  const seed = parseSeed(latencyGitHubSeed(options.repos), 'latency benchmark seed');
  const repoOfId = new Map(seed.repos.map((repo) => [repo.id, `${repo.owner}/${repo.name}`]));
  const recorder = new Recorder(BOT.token, (id) => repoOfId.get(id));

  const registryApp = createRegistryEmulator({ seed: latencyRegistrySeed(), logger: createLogger('registry-emulator', 'error') });
  const registry = await observedServer(registryApp, (req, status, at) => recorder.note('registry', req, at.start, at.end, status));
  cleanups.unshift(['registry emulator', registry.close]);

  const webhookSecret = `latency-${Math.random().toString(36).slice(2)}-secret`;
  const webhooks: WebhookOptions = { secret: webhookSecret };
  const githubApp = createGitHubEmulator({ seed, logger: createLogger('github-emulator', 'error'), webhooks });
  const github = await observedServer(githubApp, (req, status, at) => recorder.note('code-host', req, at.start, at.end, status));
  cleanups.unshift(['GitHub emulator', github.close]);

  const workDir = mkdtempSync(join(tmpdir(), 'switchyard-latency-'));
  cleanups.unshift(['work folder', async () => rmSync(workDir, { recursive: true, force: true })]);
  const dataDir = options.memory ? 'memory://' : join(workDir, 'data');
  const dashboardDir = join(workDir, 'no-dashboard');
  const port = async () => String(await freePort());
  const ports = {
    GATEWAY_PORT: await port(),
    CATALOG_PORT: await port(),
    CONFIG_PORT: await port(),
    CODE_HOST_PORT: await port(),
    RELEASE_PORT: await port(),
    PEER_PORT: await port(),
    REGISTRY_PORT: await port(),
  };
  const gateway = `http://127.0.0.1:${ports.GATEWAY_PORT}`;
  const launcher = await startProcess(
    STANDALONE_MAIN,
    {
      ...ports,
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      AMQP_URL: '',
      HOST: '',
      LOG_LEVEL: 'warn',
      CODE_HOST_API_URL: github.url,
      CODE_HOST_TOKEN: BOT.token,
      ...emulatorRegistryEnv(registry.url),
      WEBHOOK_SECRET: webhookSecret,
      DASHBOARD_DIR: dashboardDir,
    },
    `${gateway}/readyz`,
    LAUNCHER_READY_MS,
  );
  options.started.push(['launcher', launcher]);
  cleanups.unshift(['launcher', () => launcher.stop('SIGTERM', 30_000)]);
  webhooks.url = `${gateway}/webhooks/github`;

  const target: Target = {
    mode: 'launcher',
    description:
      `the launcher (apps/standalone, one process: PGlite ${options.memory ? 'in memory (DATA_DIR=memory://)' : 'in a fresh DATA_DIR'}, ` +
      'the in-process bus, PULL_REQUESTS on, its other settings the defaults), with the GitHub and registry emulators in ' +
      'this process (every request recorded; the worker acts with a personal token; webhooks signed to the gateway)',
    gateway,
    codeHost: github.url,
    registry: registry.url,
    token: USER.token,
    recorder,
    pid: launcher.child.pid,
    group: async (size) => {
      const kind = size === 1 ? 'one' : 'many';
      if (size > options.repos && kind === 'many') throw new Error(`the seed holds ${options.repos} repositories, not ${size}`);
      const repos = seed.repos.filter((repo) => repo.owner === ORGS[kind].login).slice(0, size);
      const configs: ConfigRef[] = [];
      await inPool(repos, 8, async (repo) => {
        const id = await createConfig(target, ORGS[kind].id, repo.id, '/');
        configs.push({ id, repoId: repo.id, repo: `${repo.owner}/${repo.name}`, directory: '/' });
      });
      configs.sort((a, b) => a.repoId - b.repoId);
      await waitUntilKnown(target, configs, 60_000);
      return {
        packageName: PACKAGES[kind],
        configs,
        description: `${size} repositor${size === 1 ? 'y' : 'ies'} of organisation ${ORGS[kind].login}, one pip config each (requirements.txt, no lockfile)`,
        unit: 'repo',
      };
    },
    release: async () => {},
  };
  return target;
}

// ---------------------------------------------------------------------------------------------------------------
// A running compose stack, on its demo data.

/**
 * A compose stack's gateway, GitHub emulator and registry emulator (its demo data: `docker compose up`). The
 * benchmark's configs live in one repository the stack's worker may push to (default `acme/data-pipeline`): a group
 * of N is N directories `latency-<run>/<kind>-<i>/` committed there in one commit on its default branch (the git data
 * API, as `token`'s user: one push webhook), each with a `requirements.txt` pinning the group's package (`latency-<run>-<kind>`, published at 1.0.0 on the registry
 * emulator first) and its own pip config; the demo data has too few repositories for 100, and the emulator makes none.
 * A group's configs are deleted when it is released (its files and pull requests stay).
 */
export async function composeTarget(options: {
  gateway: string;
  codeHost: string;
  registry: string;
  token: string;
  repo: string;
  cleanups: Cleanup[];
}): Promise<Target> {
  const { gateway, codeHost, registry, token, cleanups } = options;
  const strip = (url: string) => url.replace(/\/+$/, '');
  const base = { gateway: strip(gateway), codeHost: strip(codeHost), registry: strip(registry), token };
  await expectStatus([200], 'GET', `${base.gateway}/healthz`);
  await expectStatus([200], 'GET', `${base.registry}/healthz`);
  const repo = (await expectStatus([200], 'GET', `${base.codeHost}/repos/${options.repo}`, { token, scheme: 'token' })).body as {
    id: number;
    default_branch: string;
    owner: { id: number; login: string; type?: string };
  };
  const run = Date.now().toString(36);
  const made: string[] = [];
  cleanups.unshift([
    'compose configs',
    async () => {
      for (const id of made.splice(0)) await call('DELETE', `${base.gateway}/update_configs/${id}`, { token });
    },
  ]);
  const target: Target = {
    mode: 'compose',
    description:
      `the compose stack at ${base.gateway} (its code host ${base.codeHost} and registry ${base.registry}, their demo data; ` +
      `configs in directories of ${options.repo})`,
    ...base,
    recorder: undefined,
    pid: undefined,
    group: async (size) => {
      const kind = size === 1 ? 'one' : 'many';
      const packageName = `latency-${run}-${kind}`;
      await publishVersion(base.registry, packageName, FIRST_VERSION);
      const directories = Array.from({ length: size }, (_, i) => `latency-${run}/${kind}-${String(i).padStart(3, '0')}`);
      // Every file in one commit on the default branch (one push, one push webhook: not one per directory).
      const at = `${base.codeHost}/repos/${options.repo}`;
      const gh = { token, scheme: 'token' };
      const branch = (await expectStatus([200], 'GET', `${at}/branches/${repo.default_branch}`, gh)).body as {
        commit: { sha: string; commit: { tree: { sha: string } } };
      };
      const tree = (
        await expectStatus([201], 'POST', `${at}/git/trees`, {
          ...gh,
          json: {
            base_tree: branch.commit.commit.tree.sha,
            tree: directories.map((directory) => ({
              path: `${directory}/requirements.txt`,
              mode: '100644',
              type: 'blob',
              content: `${packageName}==${FIRST_VERSION}\n`,
            })),
          },
        })
      ).body as { sha: string };
      const commit = (
        await expectStatus([201], 'POST', `${at}/git/commits`, {
          ...gh,
          json: { message: `latency benchmark: ${size} directories of ${packageName}`, tree: tree.sha, parents: [branch.commit.sha] },
        })
      ).body as { sha: string };
      await expectStatus([200], 'PATCH', `${at}/git/refs/heads/${repo.default_branch}`, { ...gh, json: { sha: commit.sha } });
      const configs: ConfigRef[] = [];
      await inPool(directories, 4, async (directory) => {
        const id = await createConfig(base, repo.owner.id, repo.id, `/${directory}`);
        made.push(id);
        configs.push({ id, repoId: repo.id, repo: options.repo, directory: `/${directory}` });
      });
      configs.sort((a, b) => a.directory.localeCompare(b.directory));
      await waitUntilKnown(base, configs, 60_000);
      return {
        packageName,
        configs,
        description: `${size} director${size === 1 ? 'y' : 'ies'} of ${options.repo}, one pip config each (requirements.txt, no lockfile)`,
        unit: 'directory',
      };
    },
    release: async (group) => {
      for (const config of group.configs) {
        await call('DELETE', `${base.gateway}/update_configs/${config.id}`, { token });
        const at = made.indexOf(config.id);
        if (at >= 0) made.splice(at, 1);
      }
    },
  };
  return target;
}
