import { waitFor } from '@switchyard/service-kit/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { releaseApi } from '../support/release-api.ts';
import { gatewayUrl, managementApi } from './stack.ts';

/**
 * The dependency update API of the compose stack, through the gateway, with the bundled emulator's demo data and
 * demo token: config-svc, release-svc's API and its scaled workers, each its own container, meeting only through
 * RabbitMQ and their own schemas. The stack may be a long-lived one: every notification names a version no earlier
 * run used, and the configs this file makes are deleted again at its end.
 */

const ALICE = 'demo-token-alice';
const ACME = 2001;
/**
 * acme/web-storefront: lodash 4.17.15 locked on `main` (outdated by any newer release: a job), and only the
 * requirement `^4.17.19` without a lockfile on `develop` (the worker compares the lowest version it allows, and
 * leaves a release outside it alone: `up-to-date`).
 */
const STOREFRONT = 3101;
/** The number of release workers the stack is expected to run (`--scale release-worker=N`). */
const WORKERS = Number(process.env.COMPOSE_RELEASE_WORKERS ?? 3);

/** The release API through the stack's gateway; a stack that has just started may take longer than processes in a test. */
const api = releaseApi(() => gatewayUrl, ALICE, { finishedWithinMs: 30_000 });
const { send, finished } = api;

/** A version of lodash no earlier run notified: a major release above every version the demo repos use. */
const runVersion = (() => {
  const base = Date.now() % 1_000_000_000;
  let next = 0;
  return () => `5.${base}.${next++}`;
})();

describe('the dependency update API of the compose stack', () => {
  const created: string[] = [];

  afterAll(async () => {
    for (const id of created) await send('DELETE', `/update_configs/${id}`);
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
    expect(done).toMatchObject({ status: 'done', 'configs-total': 2, 'repos-scanned': 2, 'jobs-recorded': 1, 'repos-failed': 0 });

    const jobs = await jobsOf(id);
    expect(jobs.map((job) => job.relationships['update-config'].data.id)).toEqual([configs.main]);
    const [onMain] = jobs;
    expect(onMain?.attributes).toMatchObject({
      'dependency-name': 'lodash',
      'version-in-use': '4.17.15',
      'target-version': done.version,
      'update-kind': 'major',
      'target-branch': 'main',
      directory: '/',
      status: 'pending',
    });
    expect(onMain?.relationships.repo.data).toEqual({ id: String(STOREFRONT), type: 'repos' });
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
      expect(notification).toMatchObject({ status: 'done', 'configs-total': 2, 'repos-scanned': 2, 'jobs-recorded': 1, 'repos-failed': 0 });

    // Each notification decided that `main` needs the version; the job itself exists once per version, recorded by
    // whichever notification came first.
    const jobs = (await Promise.all(ids.map((id) => jobsOf(id)))).flat();
    const perConfigAndVersion = new Map<string, Set<string>>();
    for (const job of jobs) {
      const key = `${job.relationships['update-config'].data.id}@${job.attributes['target-version']}`;
      perConfigAndVersion.set(key, (perConfigAndVersion.get(key) ?? new Set()).add(job.id));
    }
    expect([...perConfigAndVersion.keys()].sort()).toEqual(versions.map((version) => `${configs.main}@${version}`).sort());
    for (const [key, jobIds] of perConfigAndVersion) expect(jobIds.size, key).toBe(1);
  });
});
