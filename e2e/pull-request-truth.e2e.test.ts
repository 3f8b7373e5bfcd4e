import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProcessStack, type RunningProcess, waitFor } from '@switchyard/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitHubApi } from './support/github-api.ts';
import { LAUNCHER_READY_MS, launcherPorts, STANDALONE_MAIN } from './support/launcher.ts';
import { releaseApi } from './support/release-api.ts';

/**
 * The code host is the source of truth, through the gateway of the one-process launcher, across restarts: its
 * emulators keep their world in DATA_DIR beside the database, so a restart finds the same pull requests; and when the
 * code host's world is lost under a database that remembers it (the GitHub emulator's folder removed: what every restart
 * was before the emulators kept their state), the jobs of pull requests that are gone vanish, their updates are proposed
 * again, and a new pull request given an old number is never taken for the old one (a merge of it does not mark the
 * old job merged). A person's unmerged close through the emulator is kept on the next "bump now".
 */

/** How long a job may take to open its pull request, or a webhook's effect to show. */
const SETTLE_MS = 60_000;

const ALICE = 'demo-token-alice';
/** acme/web-storefront: npm, with a lockfile, several outdated dependencies in the demo registry. */
const STOREFRONT = { id: 3101, fullName: 'acme/web-storefront' };

describe('pull requests follow the code host across restarts, through the gateway', { timeout: 10 * LAUNCHER_READY_MS }, () => {
  const processes = new ProcessStack();
  const dataDir = mkdtempSync(join(tmpdir(), 'switchyard-truth-'));
  let env: Record<string, string>;
  let urls: { gateway: string; codeHost: string; registry: string };
  let launcher: RunningProcess | undefined;
  const api = releaseApi(() => urls.gateway, ALICE);
  const github = gitHubApi(() => urls.codeHost, ALICE);
  let configId = '';

  const start = async () => {
    launcher = await processes.start(STANDALONE_MAIN, env, `${urls.gateway}/readyz`, LAUNCHER_READY_MS);
  };
  const stop = async () => {
    expect(await launcher?.stop('SIGINT', 40_000)).toBe(0);
    launcher = undefined;
  };
  const jobs = () => api.jobs(`repo-id=${STOREFRONT.id}`);
  const openJobs = async () => (await jobs()).filter((j) => j.attributes.status === 'open');
  const pull = async (number: number | null) => (await github.call('GET', `/repos/${STOREFRONT.fullName}/pulls/${number}`)).body;

  beforeAll(async () => {
    const { ports, urls: started } = await launcherPorts();
    urls = started;
    env = {
      ...ports,
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      AMQP_URL: '',
      CODE_HOST_API_URL: '',
      REGISTRY_URLS: '',
      HOST: '',
      // The worker's pull-request loop looks at due pull requests every second.
      SCHEDULER_INTERVAL_MS: '1000',
    };
    await start();
  }, LAUNCHER_READY_MS + 10_000);
  afterAll(async () => {
    await processes.disposeAsync();
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('opens pull requests, and a restart on the same folder finds them as they were: the next run says pr-open', async () => {
    const config = await api.createConfig({
      'repo-id': STOREFRONT.id,
      'account-id': '2001',
      'account-type': 'org',
      'package-manager': 'npm_and_yarn',
      directory: '/',
      'update-schedule': 'daily',
    });
    configId = config.id;
    const first = await api.finishedRun((await api.bumpNow(configId)).id);
    expect(first.attributes['jobs-recorded']).toBeGreaterThan(1);
    const opened = await waitFor(async () => {
      const all = await jobs();
      return all.length > 0 && all.every((j) => j.attributes.status === 'open') ? all : undefined;
    }, SETTLE_MS);
    await stop();
    await start();
    for (const job of opened) {
      expect(await pull(job.attributes['pull-request-number'])).toMatchObject({
        state: 'open',
        head: { ref: expect.stringContaining(job.attributes['dependency-name']) },
      });
    }
    const again = await api.finishedRun((await api.bumpNow(configId)).id);
    const outcomes = new Map(again.attributes.dependencies.map((d) => [d.name, d.outcome]));
    for (const job of opened) expect(outcomes.get(job.attributes['dependency-name'])).toBe('pr-open');
    expect((await openJobs()).map((j) => j.id).sort()).toEqual(opened.map((j) => j.id).sort());
  });

  it("with the code host's world lost under the same database: the gone pull requests' jobs vanish, their updates are proposed again, and no old job is taken for a new pull request's merge", async () => {
    const before = await openJobs();
    expect(before.length).toBeGreaterThan(0);
    await stop();
    rmSync(join(dataDir, 'code-host'), { recursive: true, force: true });
    await start();
    // The worker reconciles every open pull request when it starts: they are gone.
    const vanished = await waitFor(async () => {
      const all = await jobs();
      const gone = all.filter((j) => before.some((b) => b.id === j.id) && j.attributes.status === 'vanished');
      return gone.length === before.length ? gone : undefined;
    }, SETTLE_MS);
    for (const job of vanished) expect(job.attributes['status-reason']).toContain('is gone from the code host');
    // Automerge on: the new pull requests (numbered from #1 again in the new world) are merged at once.
    const res = await api.send('PATCH', `/update_configs/${configId}`, {
      json: { 'automerge-rule-runtime-deps': 'all', 'automerge-rule-development-deps': 'all' },
    });
    expect(res.status, res.text).toBe(200);
    await api.finishedRun((await api.bumpNow(configId)).id);
    const proposed = await waitFor(async () => {
      const all = await jobs();
      const fresh = all.filter((j) => !before.some((b) => b.id === j.id));
      return fresh.length >= before.length && fresh.every((j) => j.attributes.status === 'merged') ? fresh : undefined;
    }, 2 * SETTLE_MS).catch(async (error: unknown) => {
      const states = (await jobs()).map(
        (j) => `${j.id} ${j.attributes['dependency-name']} ${j.attributes.status}: ${j.attributes['status-reason']}`,
      );
      throw new Error(`not every proposed update merged:\n${states.join('\n')}`, { cause: error });
    });
    // Every vanished update is proposed again (the first run was limited to 5 jobs: the sixth comes now too).
    expect(proposed.map((j) => j.attributes['dependency-name'])).toEqual(
      expect.arrayContaining(before.map((j) => j.attributes['dependency-name'])),
    );
    // The old jobs stay vanished: the new pull requests under their old numbers, merged or not, are not theirs.
    const old = (await jobs()).filter((j) => before.some((b) => b.id === j.id));
    expect(old.map((j) => j.attributes.status)).toEqual(old.map(() => 'vanished'));
  });

  it('a pull request a person closes unmerged on the code host: that version is not proposed again, and the bump says why', async () => {
    const res = await api.send('PATCH', `/update_configs/${configId}`, {
      json: { 'automerge-rule-runtime-deps': 'never', 'automerge-rule-development-deps': 'never' },
    });
    expect(res.status, res.text).toBe(200);
    const published = await fetch(`${urls.registry}/admin/publish`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ packageManager: 'npm_and_yarn', name: 'lodash', version: '4.17.22' }),
    });
    expect(published.status).toBe(201);
    await api.finishedRun((await api.bumpNow(configId)).id);
    const open = await waitFor(
      async () => (await jobs()).find((j) => j.attributes['target-version'] === '4.17.22' && j.attributes.status === 'open'),
      SETTLE_MS,
    );
    const number = open.attributes['pull-request-number'];
    await github.call('PATCH', `/repos/${STOREFRONT.fullName}/pulls/${number}`, { state: 'closed' });
    await waitFor(async () => (await jobs()).find((j) => j.id === open.id && j.attributes.status === 'closed'), SETTLE_MS);
    const run = await api.finishedRun((await api.bumpNow(configId)).id);
    expect(run.attributes.dependencies.find((d) => d.name === 'lodash')).toMatchObject({
      outcome: 'skipped',
      reason: expect.stringContaining(`ignored: pull request #${number}`),
    });
    const live = (await jobs()).filter(
      (j) => j.attributes['target-version'] === '4.17.22' && ['pending', 'running', 'queued-limit', 'open'].includes(j.attributes.status),
    );
    expect(live).toEqual([]);
  });
});
