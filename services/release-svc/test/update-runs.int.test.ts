import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { registryCredentialAad, UpdateRunResource } from '@switchyard/contracts';
import { demoSeedInput, type SeedInput } from '@switchyard/github-emulator';
import { DEMO_REGISTRY_TOKEN, emulatorRegistryUrls } from '@switchyard/registry-emulator';
import { parseSecretsKey, sealSecret } from '@switchyard/service-kit';
import { request, waitFor } from '@switchyard/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scheduleDueRuns } from '../src/schedules/schedule.service.ts';
import { deleteExpiredRuns } from '../src/update-runs/update-run.service.ts';
import { orgState } from './config-state.ts';
import { ALICE, BOB, type ReleaseHarness, startReleaseHarness, TEST_SECRETS_KEY } from './harness.ts';

type RunAttributes = UpdateRunResource['attributes'];

/** A `FROM` whose image is the build argument CUDA_IMAGE, unexpanded (`\u0024` is `$`). */
const UNREADABLE_FROM = 'FROM \u0024{CUDA_IMAGE} AS gpu';

/** The demo seed, with acme/polyglot's Dockerfile gaining a last stage whose image is an unset build argument. */
function seedWithUnreadableFrom(): SeedInput {
  const seed = demoSeedInput();
  const main = seed.repos?.find((r) => r.name === 'polyglot')?.files?.main;
  const dockerfile = main?.['docker/Dockerfile'];
  if (!main || typeof dockerfile !== 'string') throw new Error('the demo seed has no acme/polyglot docker/Dockerfile');
  main['docker/Dockerfile'] = `${dockerfile.replace(/^# syntax=.*\n/, '$&ARG CUDA_IMAGE\n')}${UNREADABLE_FROM}\n`;
  return seed;
}

describe('update runs on PostgreSQL and RabbitMQ, against the GitHub and registry emulators', () => {
  let h: ReleaseHarness;
  beforeAll(async () => {
    h = await startReleaseHarness('update_runs', {
      workerEnv: { REGISTRY_WATCH_INTERVAL_MS: '300' },
      seed: seedWithUnreadableFrom(),
      repos: { 3106: { accountId: 2001, fullName: 'acme/polyglot', defaultBranch: 'main' } },
    });
    await h.configure({ id: 101, repoId: 3101 });
    await h.configure({ id: 102, repoId: 3101, lockfileOnly: true });
    await h.configure({ id: 103, repoId: 3103, packageManager: 'pip', securityUpdatesOnly: true });
    await h.configure({ id: 104, repoId: 3102, packageManager: 'bundler' });
    await h.configure({ id: 105, repoId: 3104 });
    await h.configure({ id: 106, repoId: 3106, packageManager: 'docker', directory: '/docker' });
  });
  afterAll(() => h?.close());

  const as = (token: string) => ({ authorization: `Personal ${token}` });
  const bumpNow = (configId: number, token = ALICE) =>
    request(h.releaseUrl, 'POST', `/update_configs/${configId}/trigger_update_job`, { headers: as(token) });
  async function finished(id: string, token = ALICE): Promise<RunAttributes & { jobs: string[] }> {
    return waitFor(async () => {
      const res = await request(h.releaseUrl, 'GET', `/update_runs/${id}`, { headers: as(token) });
      const run = UpdateRunResource.parse(res.body.data);
      return run.attributes.status === 'done' || run.attributes.status === 'failed'
        ? { ...run.attributes, jobs: run.relationships['pull-request-jobs'].data.map((j) => j.id) }
        : undefined;
    }, 20_000);
  }
  const dependency = (run: RunAttributes, name: string) => run.dependencies.find((d) => d.name === name);
  const publish = (body: Record<string, unknown>) =>
    fetch(`${h.registryUrl}/admin/publish`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('"bump now" answers 202 with the queued run, which checks every dependency against the registry and records the jobs', async () => {
    const res = await bumpNow(101);
    expect(res.status).toBe(202);
    const run = UpdateRunResource.parse(res.body.data);
    expect(res.headers.get('location')).toBe(`/update_runs/${run.id}`);
    expect(run.attributes).toMatchObject({ trigger: 'manual', status: 'queued', 'dependencies-checked': 0 });
    const done = await finished(run.id);
    expect(done.status).toBe('done');
    expect(done['dependencies-total']).toBe(6);
    expect(done['dependencies-checked']).toBe(6);
    expect(done.dependencies.map((d) => d.name)).toEqual(['express', 'lodash', 'react', 'react-dom', 'jest', 'typescript']);
    // lodash 4.17.15 in use; the emulator's newest is 4.17.21: the job targets the registry's newest, not a notification's.
    expect(dependency(done, 'lodash')).toMatchObject({
      'version-in-use': '4.17.15',
      'latest-version': '4.17.21',
      'latest-allowed-version': '4.17.21',
      outcome: 'job-recorded',
    });
    expect(dependency(done, 'lodash')?.registry).toMatch(/\/npm\/$/);
    // The demo accounts limit initial runs (config-svc's default): this first run records at most 5 jobs.
    expect(done['job-limit']).toBe(5);
    expect(done['jobs-recorded']).toBe(done.jobs.length);
    expect(done.jobs.length).toBeGreaterThan(0);
    expect(done.jobs.length).toBeLessThanOrEqual(5);
    const jobs = (await request(h.releaseUrl, 'GET', '/pull_request_jobs?dependency-name=lodash&repo-id=3101', { headers: as(ALICE) }))
      .body;
    const lodash = jobs.data.find(
      (j: { relationships: { 'update-run': { data: { id: string } | null } } }) => j.relationships['update-run'].data?.id === run.id,
    );
    expect(lodash.attributes).toMatchObject({ 'target-version': '4.17.21', 'version-in-use': '4.17.15', unverified: false });
    expect(lodash.relationships['release-notification'].data).toBeNull();
  });

  it('a second run finds the jobs recorded and records nothing twice; runs are listed newest first', async () => {
    const first = (await request(h.releaseUrl, 'GET', '/update_runs?update-config-id=101', { headers: as(ALICE) })).body.data[0];
    const again = await finished(UpdateRunResource.parse((await bumpNow(101)).body.data).id);
    expect(again['job-limit']).toBeNull();
    // The first run's job is still under way (pending here: this worker opens no pull requests): `pr-open`, naming it,
    // not `up-to-date`.
    const lodash = dependency(again, 'lodash');
    expect(lodash).toMatchObject({ outcome: 'pr-open', 'pull-request-job-id': expect.any(String) });
    expect(lodash?.reason).toContain('already recorded: the pull request for 4.17.21 is being opened');
    const list = (await request(h.releaseUrl, 'GET', '/update_runs?update-config-id=101', { headers: as(ALICE) })).body;
    expect(list.data.map((r: { id: string }) => r.id).slice(0, 2)).toEqual([expect.any(String), first.id]);
    expect(list.meta.pages.next).toBeNull();
  });

  it('keeps a lockfile-only config within the requirement and reports why the newer majors are skipped', async () => {
    const done = await finished(UpdateRunResource.parse((await bumpNow(102)).body.data).id);
    const react = dependency(done, 'react');
    expect(react?.['version-in-use']).toBe('16.13.1');
    expect(['skipped', 'job-recorded', 'up-to-date']).toContain(react?.outcome);
    if (react?.outcome === 'job-recorded') expect(react['latest-allowed-version']).toMatch(/^16\./);
    if (react?.outcome === 'skipped') expect(react.reason).toContain('lockfile-only');
  });

  it('takes security updates only from the code host advisories: the lowest version that fixes every advisory affecting the version in use', async () => {
    const done = await finished(UpdateRunResource.parse((await bumpNow(103)).body.data).id);
    // requests 2.23.0: the demo advisories GHSA-j8r2-6x86-q33q (< 2.31.0) and GHSA-9wx4-h78v-vm56 (< 2.32.0) affect it.
    // 2.31.0 fixes one of them only; 2.32.0 fixes both but is yanked (as on PyPI): 2.32.3 is the lowest that does.
    const requests = dependency(done, 'requests');
    expect(requests).toMatchObject({ outcome: 'job-recorded', 'latest-allowed-version': '2.32.3', 'latest-version': '2.32.3' });
    expect(requests?.reason).toContain('GHSA-9wx4-h78v-vm56');
    expect(requests?.reason).toContain('GHSA-j8r2-6x86-q33q');
    // numpy has no advisory: a security-updates-only config leaves it.
    expect(dependency(done, 'numpy')).toMatchObject({ outcome: 'skipped' });
    const job = (await request(h.releaseUrl, 'GET', '/pull_request_jobs?repo-id=3103&dependency-name=requests', { headers: as(ALICE) }))
      .body.data[0];
    expect(job.attributes).toMatchObject({ 'target-version': '2.32.3', 'security-fix': true });
  });

  it('lists a FROM it cannot read among skipped-declarations, with why, and reads the rest of the Dockerfile', async () => {
    const run = await finished(UpdateRunResource.parse((await bumpNow(106)).body.data).id);
    expect(run.status).toBe('done');
    const dockerfile = seedWithUnreadableFrom().repos?.find((r) => r.name === 'polyglot')?.files?.main?.['docker/Dockerfile'];
    const lines = String(dockerfile).split('\n');
    expect(run['skipped-declarations']).toEqual([
      {
        file: 'Dockerfile',
        line: lines.indexOf(UNREADABLE_FROM) + 1,
        text: UNREADABLE_FROM,
        reason: 'the build argument CUDA_IMAGE has no default (its value is given at build time)',
      },
    ]);
    expect(run.dependencies.map((d) => d.name)).toEqual(expect.arrayContaining(['nginx', 'python']));
  });

  it('fails a run whose manifests are missing, saying which file', async () => {
    const done = await finished(UpdateRunResource.parse((await bumpNow(105)).body.data).id);
    expect(done).toMatchObject({ status: 'failed', 'error-kind': 'manifest_unreadable' });
    expect(done.error).toContain('package.json');
  });

  it('refuses "bump now" without write permission, for an unknown config, and a malformed id', async () => {
    expect((await bumpNow(999_999)).status).toBe(404);
    expect((await bumpNow(101, BOB)).status).toBe(404);
    const malformed = await request(h.releaseUrl, 'POST', '/update_configs/abc/trigger_update_job', { headers: as(ALICE) });
    expect(malformed.status).toBe(400);
    const missing = await request(h.releaseUrl, 'GET', '/update_runs', { headers: as(ALICE) });
    expect(missing.status).toBe(400);
    expect(missing.body.errors[0].source.parameter).toBe('update-config-id');
    const other = await request(h.releaseUrl, 'GET', '/update_runs/6f1c2b7e-8a9d-4e3f-b1c2-d3e4f5a6b7c8', { headers: as(ALICE) });
    expect(other.status).toBe(404);
  });

  it('runs each schedule slot once, even when two schedulers race for it, and only the latest missed slot', async () => {
    await h.configure({ id: 120, repoId: 3201, packageManager: 'pip', updateSchedule: 'daily' });
    const config = await h.db
      .selectFrom('update_config')
      .select(['next_run_at', 'first_seen_at'])
      .where('id', '=', 120)
      .executeTakeFirstOrThrow();
    expect(config.next_run_at).not.toBeNull();
    const slot = config.next_run_at as Date;
    // Three days after the next slot: the slots between were missed; one run, for the latest slot, is requested.
    const later = new Date(slot.getTime() + 3 * 86_400_000 + 60_000);
    const [a, b] = await Promise.all([scheduleDueRuns(h.db, later), scheduleDueRuns(h.db, later)]);
    const runs = await h.db.selectFrom('update_run').selectAll().where('update_config_id', '=', 120).execute();
    // Every due config of this database got one run between the two schedulers (the others' slots are due too).
    expect(a + b).toBe(
      await h.db
        .selectFrom('update_run')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('trigger', '=', 'schedule')
        .executeTakeFirstOrThrow()
        .then((r) => Number(r.n)),
    );
    expect(runs).toHaveLength(1);
    expect(runs[0]?.trigger).toBe('schedule');
    expect(runs[0]?.slot?.getTime()).toBeLessThanOrEqual(later.getTime());
    expect(runs[0]?.slot?.getTime()).toBeGreaterThan(later.getTime() - 4 * 86_400_000);
    // The scheduler moved on to the following slot; asking again at the same time requests nothing.
    expect(await scheduleDueRuns(h.db, later)).toBe(0);
    const next = await h.db.selectFrom('update_config').select('next_run_at').where('id', '=', 120).executeTakeFirstOrThrow();
    expect(next.next_run_at?.getTime()).toBeGreaterThan(later.getTime());
    const done = await finished(runs[0]?.id ?? '');
    expect(done.status).toBe('done');
    expect(dependency(done, 'flask')?.['version-in-use']).toBe('1.1.2');
  });

  it('keeps runs 90 days: older ones go with their dependencies, their jobs stay', async () => {
    const [run] = await h.db
      .selectFrom('update_run')
      .select(['id', 'created_at'])
      .where('update_config_id', '=', 101)
      .orderBy('created_at')
      .limit(1)
      .execute();
    const jobsBefore = await h.db
      .selectFrom('pull_request_job')
      .select('id')
      .where('update_run_id', '=', run?.id ?? '')
      .execute();
    expect(jobsBefore.length).toBeGreaterThan(0);
    const created = run?.created_at as Date;
    expect(await deleteExpiredRuns(h.db, new Date(created.getTime() + 89 * 86_400_000))).toBe(0);
    const later = new Date(created.getTime() + 90 * 86_400_000 + 1);
    expect(await deleteExpiredRuns(h.db, later)).toBeGreaterThan(0);
    expect(
      await h.db
        .selectFrom('update_run')
        .select('id')
        .where('id', '=', run?.id ?? '')
        .execute(),
    ).toEqual([]);
    expect(
      await h.db
        .selectFrom('update_run_dependency')
        .select('name')
        .where('run_id', '=', run?.id ?? '')
        .execute(),
    ).toEqual([]);
    expect(
      await h.db
        .selectFrom('pull_request_job')
        .select('id')
        .where('update_run_id', '=', run?.id ?? '')
        .execute(),
    ).toEqual(jobsBefore);
  });

  it('moves the next run when the account changes its run time and time zone', async () => {
    await h.configure({ id: 121, repoId: 3303, packageManager: 'bundler', updateSchedule: 'weekly' });
    const settings = {
      ...orgState(2003, 'initech').settings,
      updateRunTime: '09:30',
      weeklyUpdateRunDay: 'wednesday' as const,
      timeZone: 'Asia/Kolkata',
    };
    await h.publishAsConfigSvc([{ type: 'account.updated', data: { ...orgState(2003, 'initech'), revision: 2, settings } }]);
    const moved = await waitFor(async () => {
      const row = await h.db.selectFrom('update_config').select('next_run_at').where('id', '=', 121).executeTakeFirstOrThrow();
      return row.next_run_at && row.next_run_at.getUTCHours() === 4 && row.next_run_at.getUTCMinutes() === 0 ? row.next_run_at : undefined;
    }, 15_000);
    // 09:30 in Kolkata (+05:30) is 04:00 UTC, on a Wednesday there.
    expect(moved.getUTCDay()).toBe(3);
  });

  it('a live config gets its initial run, then a run when the registry watch sees a new version', { timeout: 60_000 }, async () => {
    await h.configure({ id: 130, repoId: 3201, packageManager: 'pip', updateSchedule: 'live' });
    const runs = () => h.db.selectFrom('update_run').selectAll().where('update_config_id', '=', 130).orderBy('created_at').execute();
    await scheduleDueRuns(h.db, new Date());
    const initial = await waitFor(async () => (await runs())[0], 10_000);
    expect(initial.trigger_key).toBe('live:initial');
    await finished(initial.id);
    // The watch has seen flask's current version before the new one is published.
    await waitFor(
      async () => (await h.db.selectFrom('watched_package').select('name').where('name', '=', 'flask').executeTakeFirst()) !== undefined,
      10_000,
    );
    expect((await publish({ packageManager: 'pip', name: 'Flask', version: '3.0.4' })).status).toBe(201);
    const live = await waitFor(async () => (await runs()).find((r) => r.trigger_key === 'live:flask@3.0.4'), 15_000);
    expect(live.trigger).toBe('live');
    const done = await finished(live.id);
    expect(dependency(done, 'flask')).toMatchObject({ 'version-in-use': '1.1.2', 'latest-allowed-version': '3.0.4' });
  });

  it("asks an account's private registry first, and says why a private package fails without credentials", async () => {
    await h.configure({ id: 140, repoId: 3101 });
    // Without credentials the private package is not on the public registry; with them, its registry answers.
    const privateUrl = emulatorRegistryUrls(h.registryUrl, 'private').npm_and_yarn as string;
    const key = parseSecretsKey(TEST_SECRETS_KEY);
    const state = (revision: number, secret: string) => ({
      id: 7001,
      accountId: 2001,
      packageManager: 'npm_and_yarn',
      baseUrl: privateUrl,
      authType: 'token',
      username: null,
      sealedSecret: sealSecret(key, secret, registryCredentialAad(2001, 'npm_and_yarn')),
      revision,
    });
    await h.publishAsConfigSvc([{ type: 'registry_credential.saved', data: state(1, 'not-the-token') }]);
    await waitFor(
      async () => (await h.db.selectFrom('registry_credential').select('id').where('id', '=', 7001).executeTakeFirst()) !== undefined,
      10_000,
    );
    const refused = await finished(UpdateRunResource.parse((await bumpNow(140)).body.data).id);
    expect(dependency(refused, 'lodash')).toMatchObject({ outcome: 'error', 'error-kind': 'registry_auth_failed' });
    expect(dependency(refused, 'lodash')?.reason).toContain('refused the credentials');

    await h.publishAsConfigSvc([{ type: 'registry_credential.saved', data: state(2, DEMO_REGISTRY_TOKEN) }]);
    await waitFor(
      async () =>
        (await h.db.selectFrom('registry_credential').select('revision').where('id', '=', 7001).executeTakeFirst())?.revision === 2,
      10_000,
    );
    const answered = await finished(UpdateRunResource.parse((await bumpNow(140)).body.data).id);
    // lodash is not a private package: the private registry does not know it, so the public one is asked after it.
    expect(dependency(answered, 'lodash')).toMatchObject({ 'error-kind': null });
    expect(dependency(answered, 'lodash')?.registry).toMatch(/\/npm\/$/);
    expect(dependency(answered, 'lodash')?.registry).not.toContain('/private/');
  });

  it("refuses an account's private registry at an address the operator does not allow: each dependency says why, nothing reaches it", async () => {
    // A registry on loopback, not in the worker's REGISTRY_ALLOWED_HOSTS (the harness allows the emulator's port only).
    const seen: string[] = [];
    const internal = createServer((req, res) => {
      seen.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''}`);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"internal":"what answered here"}');
    });
    await new Promise<void>((resolve) => internal.listen(0, '127.0.0.1', resolve));
    try {
      const origin = `http://127.0.0.1:${(internal.address() as AddressInfo).port}`;
      const baseUrl = `${origin}/`;
      await h.configure({ id: 141, repoId: 3303, packageManager: 'bundler' });
      const key = parseSecretsKey(TEST_SECRETS_KEY);
      await h.publishAsConfigSvc([
        {
          type: 'registry_credential.saved',
          data: {
            id: 7002,
            accountId: 2003,
            packageManager: 'bundler',
            baseUrl,
            authType: 'token',
            username: null,
            sealedSecret: sealSecret(key, 'tenant-token', registryCredentialAad(2003, 'bundler')),
            revision: 1,
          },
        },
      ]);
      await waitFor(
        async () => (await h.db.selectFrom('registry_credential').select('id').where('id', '=', 7002).executeTakeFirst()) !== undefined,
        10_000,
      );
      const run = await finished(UpdateRunResource.parse((await bumpNow(141, BOB)).body.data).id, BOB);
      expect(run.dependencies.length).toBeGreaterThan(0);
      for (const checked of run.dependencies) {
        expect(checked, checked.name).toMatchObject({ outcome: 'error', 'error-kind': 'registry_unreachable', registry: origin });
        expect(checked.reason).toBe(
          `the registry ${origin} could not be reached: address refused: 127.0.0.1 is a loopback address, which the operator does not allow (REGISTRY_ALLOWED_HOSTS)`,
        );
      }
      expect(JSON.stringify(run)).not.toContain('what answered here');
      expect(seen).toEqual([]);
    } finally {
      await new Promise<void>((resolve) => internal.close(() => resolve()));
    }
  });
});

describe('release notifications trigger update runs that ask the registry (the notification is not a substitute for it)', () => {
  let h: ReleaseHarness;
  beforeAll(async () => {
    h = await startReleaseHarness('notification_runs');
    await h.configure({ id: 201, repoId: 3101 });
  });
  afterAll(() => h?.close());

  const as = { authorization: `Personal ${ALICE}` };
  const notifyAndWait = (version: string) => h.notifyAndWait('lodash', version, 'npm_and_yarn');
  const jobsOf = async (notificationId: string) =>
    (await request(h.releaseUrl, 'GET', `/pull_request_jobs?notification-id=${notificationId}`, { headers: as })).body.data;

  it('targets the registry newest allowed version when it is past the notified one, and shows the run', async () => {
    const id = await notifyAndWait('4.17.19');
    const [job] = await jobsOf(id);
    expect(job.attributes).toMatchObject({ 'version-in-use': '4.17.15', 'target-version': '4.17.21', unverified: false });
    const runs = (await request(h.releaseUrl, 'GET', '/update_runs?update-config-id=201', { headers: as })).body.data;
    const run = UpdateRunResource.parse(runs[0]);
    expect(run.attributes).toMatchObject({ trigger: 'notification', status: 'done', 'dependencies-total': 1, 'jobs-recorded': 1 });
    expect(run.relationships['release-notification'].data?.id).toBe(id);
    expect(run.attributes.dependencies[0]).toMatchObject({ name: 'lodash', 'latest-version': '4.17.21', outcome: 'job-recorded' });
    expect(job.relationships['update-run'].data.id).toBe(run.id);
  });

  it('records a job to a notified version the registry does not list yet, marked unverified', async () => {
    const id = await notifyAndWait('4.17.99');
    const [job] = await jobsOf(id);
    expect(job.attributes).toMatchObject({ 'target-version': '4.17.99', unverified: true });
    // The same notification again records nothing more (one run, one job per config, dependency and version).
    const again = await notifyAndWait('4.17.99');
    expect(await jobsOf(again)).toEqual([]);
  });
});
