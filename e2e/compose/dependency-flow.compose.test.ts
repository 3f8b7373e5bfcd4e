import { PullRequestJobResource, UpdateRunDocument, type UpdateRunResource } from '@switchyard/contracts';
import { waitFor } from '@switchyard/service-kit/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { releaseApi } from '../support/release-api.ts';
import { gatewayUrl, managementApi, stackSetting } from './stack.ts';

/**
 * The dependency update API of the compose stack, through the gateway, with the bundled emulators' demo data and
 * demo token: config-svc, release-svc's API and its scaled workers, each its own container, meeting only through
 * RabbitMQ and their own schemas, the workers asking the package-registry emulator (`registries`). The stack may be a
 * long-lived one: every notification names a version no earlier run used, and the configs this file makes are
 * deleted again at its end. Its tests run in order, in this one file: a config of acme's made in a file running
 * beside it would be scanned by these notifications too.
 */

const ALICE = 'demo-token-alice';
const ACME = 2001;
/**
 * acme/web-storefront: lodash 4.17.15 locked on `main` (outdated by any newer release: a job), and only the
 * requirement `^4.17.19` without a lockfile on `develop` (the worker compares the lowest version it allows, and
 * leaves a release outside it alone: `up-to-date`).
 */
const STOREFRONT = 3101;
/** acme/polyglot: one demo directory per package manager beyond the first six. */
const POLYGLOT = 3106;
/** The number of release workers the stack is expected to run (`--scale release-worker=N`). */
const WORKERS = Number(process.env.COMPOSE_RELEASE_WORKERS ?? 3);

/** The release API through the stack's gateway; a stack that has just started may take longer than processes in a test. */
const api = releaseApi(() => gatewayUrl, ALICE, { finishedWithinMs: 30_000 });
const { send, finished } = api;

/**
 * The npm registry the workers ask: the `registries` emulator unless the stack's REGISTRY_URLS names another one
 * (docker-compose.yml's default).
 */
const npmRegistry = /(?:^|,)\s*npm_and_yarn=([^,\s]+)/.exec(stackSetting('REGISTRY_URLS', ''))?.[1] ?? 'http://registries:8091/npm/';

/** The GitHub emulator of the stack (`code-host`, published on loopback). */
const codeHostUrl = `http://127.0.0.1:${stackSetting('CODE_HOST_PORT', '8090')}`;

/** A version of lodash no earlier run notified: a major release above every version the demo repos use. */
const runVersion = (() => {
  const base = Date.now() % 1_000_000_000;
  let next = 0;
  return () => `5.${base}.${next++}`;
})();

describe('the dependency update API of the compose stack', () => {
  const created: string[] = [];
  const credentials: string[] = [];

  afterAll(async () => {
    for (const id of created) await send('DELETE', `/update_configs/${id}`);
    for (const id of credentials) await send('DELETE', `/registry_credentials/${id}`);
  });

  async function createConfig(targetBranch: string): Promise<string> {
    const config = await api.createConfig(
      {
        'repo-id': STOREFRONT,
        'account-id': ACME,
        'account-type': 'org',
        directory: '/',
        'update-schedule': 'daily',
        'package-manager': 'npm_and_yarn',
        'target-branch': targetBranch,
      },
      ALICE,
      ' (a config of an earlier run that was not deleted? DELETE /update_configs/<id>)',
    );
    created.push(config.id);
    return config.id;
  }

  /** Notifies `version` of lodash and returns the notification's id. */
  const lodash = (version: string) => ({ name: 'lodash', version, 'package-manager': 'npm_and_yarn' });
  const notify = (version: string) => api.notify(lodash(version));
  const jobsOf = (notificationId: string) => api.jobs(`notification-id=${notificationId}`);

  const configs = { main: '', develop: '' };

  it('turns an update config and a private release notification into one pull-request job, visible once', async () => {
    configs.main = await createConfig('main');
    configs.develop = await createConfig('develop');
    // Notified right after the configs' 201s: the scan sees both (release-svc plans at config-svc's checkpoint).
    const { id, done } = await api.notifyAndFinish(lodash(runVersion()));
    expect(done).toMatchObject({ status: 'done', 'configs-total': 2, 'repos-scanned': 2, 'jobs-recorded': 2, 'repos-failed': 0 });

    // One job per config: `main` locks lodash 4.17.15; `develop` has no lockfile, so its `^4.17.19` is decided against
    // the version it resolves to on the registry (4.17.21, the newest the demo seed lists), not its lowest one.
    const jobs = await jobsOf(id);
    const byConfig = new Map(jobs.map((job) => [job.relationships['update-config'].data.id, job]));
    expect([...byConfig.keys()].sort()).toEqual([configs.main, configs.develop].sort());
    expect(jobs).toHaveLength(2);
    const onMain = byConfig.get(configs.main);
    expect(byConfig.get(configs.develop)?.attributes).toMatchObject({
      'dependency-name': 'lodash',
      'version-in-use': '4.17.21',
      'target-version': done.version,
      'update-kind': 'major',
      'target-branch': 'develop',
      unverified: true,
    });
    expect(onMain?.attributes).toMatchObject({
      'dependency-name': 'lodash',
      'version-in-use': '4.17.15',
      'target-version': done.version,
      'update-kind': 'major',
      'target-branch': 'main',
      directory: '/',
      // The worker asks the registry about every notification: the demo seed does not list this made-up version, so
      // the job still targets it, marked unverified (a private release the registry has not caught yet).
      unverified: true,
    });
    expect(onMain?.relationships.repo.data).toEqual({ id: String(STOREFRONT), type: 'repos' });
    // The workers turn jobs into pull requests; this one's package-lock.json cannot lock a version the registry does
    // not list, so it fails rather than open a pull request whose lockfile disagrees with its manifest.
    const failed = await waitFor(async () => {
      const job = (await jobsOf(id)).find((j) => j.id === onMain?.id);
      return job && !['pending', 'running'].includes(job.attributes.status) ? job : undefined;
    }, 30_000);
    expect(failed.attributes.status).toBe('failed');
    expect(failed.attributes['status-reason']).toMatch(/^needs-resolution: lodash 5\.\d+\.\d+ is not listed by /);
    // Read again: the same jobs, no more.
    expect((await jobsOf(id)).map((job) => job.id).sort()).toEqual(jobs.map((job) => job.id).sort());
  });

  it(`records each job exactly once with ${WORKERS} workers sharing the queues, however often a release is notified`, async () => {
    expect(configs.main, 'the test above made the configs').not.toBe('');
    // Every worker consumes every one of its queues. The management API publishes a queue's statistics (`consumers`
    // among them) every few seconds, and none at first: wait until they show all the workers.
    for (const queue of ['release-svc.notifications', 'release-svc.scans', 'release-svc.read-model']) {
      let seen: number | undefined;
      await waitFor(async () => {
        const res = await managementApi('GET', `/queues/%2F/${encodeURIComponent(queue)}`);
        expect(res.status).toBe(200);
        seen = (res.body as { consumers?: number }).consumers;
        return seen === WORKERS;
      }, 20_000).catch(() => {});
      expect(seen, queue).toBe(WORKERS);
    }
    // Eight new versions, each notified three times, all at once: 24 notifications over two configs each, planned
    // and scanned by whichever worker takes them.
    const versions = Array.from({ length: 8 }, () => runVersion());
    const ids = await Promise.all(versions.flatMap((version) => [notify(version), notify(version), notify(version)]));
    const done = await Promise.all(ids.map((id) => finished(id)));
    for (const notification of done)
      expect(notification).toMatchObject({ status: 'done', 'configs-total': 2, 'repos-scanned': 2, 'jobs-recorded': 2, 'repos-failed': 0 });

    // Each notification decided that both branches need the version; each job exists once per config and version,
    // recorded by whichever notification came first (on develop, where pull requests open, an older version's job is
    // superseded by a newer one's, and a repeated notification of it records nothing while the newer one is under way).
    const jobs = (await Promise.all(ids.map((id) => jobsOf(id)))).flat();
    const perConfigAndVersion = new Map<string, Set<string>>();
    for (const job of jobs) {
      const key = `${job.relationships['update-config'].data.id}@${job.attributes['target-version']}`;
      perConfigAndVersion.set(key, (perConfigAndVersion.get(key) ?? new Set()).add(job.id));
    }
    expect([...perConfigAndVersion.keys()].sort()).toEqual(
      versions.flatMap((version) => [`${configs.main}@${version}`, `${configs.develop}@${version}`]).sort(),
    );
    for (const [key, jobIds] of perConfigAndVersion) expect(jobIds.size, key).toBe(1);
  });

  /** "Bump now" on `configId` (202, `Location` naming the run) and the run once it is `done` or `failed`. */
  async function bumpNow(configId: string): Promise<{ location: string | undefined; run: UpdateRunResource }> {
    // 404 only until the config has reached release-svc (config-svc's events travel through its outbox and the bus
    // first), which the notifications above already waited for.
    const queued = await waitFor(async () => {
      const res = await send('POST', `/update_configs/${configId}/trigger_update_job`, { token: ALICE });
      if (res.status === 404) return undefined;
      expect(res.status, res.text).toBe(202);
      return { location: res.headers.location, run: UpdateRunDocument.parse(res.body).data };
    }, 30_000);
    expect(queued.run.attributes).toMatchObject({ trigger: 'manual', status: 'queued' });
    expect(queued.run.relationships['update-config'].data.id).toBe(configId);
    const run = await waitFor(
      async (): Promise<UpdateRunResource | undefined> => {
        const res = await send('GET', `/update_runs/${queued.run.id}`, { token: ALICE });
        expect(res.status, res.text).toBe(200);
        const current = UpdateRunDocument.parse(res.body).data;
        return ['done', 'failed'].includes(current.attributes.status) ? current : undefined;
      },
      30_000,
      100,
    );
    expect(run.id).toBe(queued.run.id);
    return { location: queued.location, run };
  }

  it('"bump now" through the gateway runs an update of the config against the registry emulator', async () => {
    expect(configs.main, 'the first test made the configs').not.toBe('');
    const { location, run } = await bumpNow(configs.main);
    expect(location).toBe(`/update_runs/${run.id}`);
    expect(run.attributes.status, `${run.attributes.error}`).toBe('done');
    expect(run.attributes['dependencies-checked']).toBe(run.attributes['dependencies-total']);

    // lodash 4.17.15 is locked on main; the registry lists newer 4.17 releases (4.17.21 in the demo seed): a job to its
    // newest, checked against the emulator, not a public registry.
    const lodash = run.attributes.dependencies.find((dependency) => dependency.name === 'lodash');
    expect(lodash).toMatchObject({ 'version-in-use': '4.17.15', outcome: 'job-recorded', 'error-kind': null });
    expect(lodash?.registry).toContain(new URL(npmRegistry).host);
    expect(lodash?.['latest-allowed-version']).toMatch(/^4\.17\.(1[6-9]|[2-9]\d)$/);
    // Jobs are listed newest first, so the run's is on the first page however many earlier runs left.
    const listed = await send('GET', '/pull_request_jobs?repo-id=3101&dependency-name=lodash', { token: ALICE });
    expect(listed.status, listed.text).toBe(200);
    const job = PullRequestJobResource.array()
      .parse(listed.body.data)
      .find((j) => j.id === lodash?.['pull-request-job-id']);
    expect(job?.attributes).toMatchObject({
      'target-version': lodash?.['latest-allowed-version'],
      'target-branch': 'main',
      unverified: false,
    });
    expect(job?.relationships['update-config'].data.id).toBe(configs.main);
    expect(job?.relationships['update-run'].data?.id).toBe(run.id);

    // A worker opens its pull request on the code host (package-lock.json updated), and a person closing it there
    // reaches release-svc as the code host's signed webhook, through the gateway. (Closed, not merged, and its branch
    // deleted, so that a long-lived stack's `main` stays as the demo seed has it for the next run of this file.)
    const opened = await waitFor(async () => {
      const res = await send('GET', `/pull_request_jobs?repo-id=3101&dependency-name=lodash&status=open`, { token: ALICE });
      expect(res.status, res.text).toBe(200);
      return PullRequestJobResource.array()
        .parse(res.body.data)
        .find((j) => j.id === job?.id);
    }, 60_000);
    const number = opened.attributes['pull-request-number'];
    expect(opened.attributes['pull-request-url']).toBe(`https://github.com/acme/web-storefront/pull/${number}`);
    const github = (method: string, path: string, body?: unknown) =>
      fetch(`${codeHostUrl}/repos/acme/web-storefront${path}`, {
        method,
        headers: { authorization: `token ${ALICE}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const pull = (await (await github('GET', `/pulls/${number}`)).json()) as { head: { ref: string } };
    const lock = (await (await github('GET', `/contents/package-lock.json?ref=${encodeURIComponent(pull.head.ref)}`)).json()) as {
      content: string;
    };
    const locked = JSON.parse(Buffer.from(lock.content, 'base64').toString('utf8')) as { packages: Record<string, { version?: string }> };
    expect(locked.packages['node_modules/lodash']?.version).toBe(job?.attributes['target-version']);
    const closed = await github('PATCH', `/pulls/${number}`, { state: 'closed' });
    expect(closed.status, await closed.text()).toBe(200);
    const after = await waitFor(async () => {
      const res = await send('GET', `/pull_request_jobs?repo-id=3101&dependency-name=lodash&status=closed`, { token: ALICE });
      return PullRequestJobResource.array()
        .parse(res.body.data)
        .find((j) => j.id === job?.id);
    }, 30_000);
    // Closed unmerged by a person: that version is ignored for this config (the suite's configs are deleted after it,
    // so the next run of this file proposes it again).
    expect(after.attributes['status-reason']).toBe(
      'closed unmerged on the code host by alice: this version is not proposed again for the config until the pull request is reopened',
    );
    expect((await github('DELETE', `/git/refs/heads/${pull.head.ref}`)).status).toBe(204);
  });

  it('reaches the registry of every other package manager from the workers: the emulator for ten, the code host for three', async () => {
    const directories: Array<[string, string]> = [
      ['docker', '/docker'],
      ['gradle', '/gradle'],
      ['nuget', '/nuget'],
      ['go_modules', '/go'],
      ['terraform', '/terraform'],
      ['hex', '/hex'],
      ['elm', '/elm'],
      ['dep', '/dep'],
      ['github_actions', '/'],
      ['submodules', '/'],
    ];
    for (const [packageManager, directory] of directories) {
      const config = await api.createConfig(
        {
          'repo-id': POLYGLOT,
          'account-id': ACME,
          'account-type': 'org',
          directory,
          'update-schedule': 'monthly',
          'package-manager': packageManager,
        },
        ALICE,
        ' (a config of an earlier run that was not deleted? DELETE /update_configs/<id>)',
      );
      created.push(config.id);
      const { run } = await bumpNow(config.id);
      expect(run.attributes.status, `${packageManager}: ${run.attributes.error}`).toBe('done');
      expect(run.attributes['dependencies-total'], packageManager).toBeGreaterThan(0);
      expect(
        run.attributes.dependencies.filter((d) => d['error-kind'] !== null),
        packageManager,
      ).toEqual([]);
    }
  });

  it("finds a private package with the account's registry credentials, sealed by config-svc and opened by the worker", async () => {
    expect(configs.develop, 'the first test made the configs').not.toBe('');
    // develop pins @acme/widgets 1.0.0, a package of the emulator's private npm registry only. config-svc seals the
    // token with SECRETS_KEY; the worker, given the same key, opens it when the run asks that registry.
    const privateNpm = `${new URL(npmRegistry).origin}/private/npm/`;
    const res = await send('POST', '/registry_credentials', {
      token: ALICE,
      json: {
        'account-id': String(ACME),
        'package-manager': 'npm_and_yarn',
        'base-url': privateNpm,
        'auth-type': 'token',
        token: 'demo-registry-token',
      },
    });
    expect(res.status, `${res.text} (a credential of an earlier run that was not deleted? DELETE /registry_credentials/<id>)`).toBe(201);
    credentials.push(String(res.body.data.id));
    expect(res.text).not.toContain('demo-registry-token');
    // The credential reaches the workers through config-svc's events: until then the package fails without it. The
    // last run's answer is checked, so a failure shows its reason (e.g. a worker with another SECRETS_KEY).
    let last: UpdateRunResource | undefined;
    await waitFor(async () => {
      last = (await bumpNow(configs.develop)).run;
      return last.attributes.dependencies.find((dependency) => dependency.name === '@acme/widgets')?.outcome !== 'error';
    }, 30_000).catch(() => {});
    expect(last?.attributes.status).toBe('done');
    expect(last?.attributes.dependencies.find((dependency) => dependency.name === '@acme/widgets')).toMatchObject({
      'version-in-use': '1.0.0',
      outcome: 'job-recorded',
      'error-kind': null,
      registry: privateNpm,
    });
  });
});
