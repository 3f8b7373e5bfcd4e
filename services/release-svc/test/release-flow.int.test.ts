import { PullRequestJobCreated, ReleaseNotificationResource } from '@switchyard/contracts';
import { requireEcosystem } from '@switchyard/ecosystems';
import { request, waitFor } from '@switchyard/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importOsv } from '../src/advisories/osv-import.service.ts';
import { insertJobOnce } from '../src/jobs/job.repository.ts';
import { ALICE, BOB, type ReleaseHarness, startReleaseHarness } from './harness.ts';

describe('release notifications on PostgreSQL and RabbitMQ, with the GitHub emulator', () => {
  let h: ReleaseHarness;
  beforeAll(async () => {
    h = await startReleaseHarness('release_flow');
    await h.configure({ id: 1, repoId: 3101 });
    await h.configure({ id: 3, repoId: 3101, automergeDevelopment: 'all', automergeRuntime: 'semver:patch' });
    await h.configure({ id: 4, repoId: 3101, lockfileOnly: true });
    await h.configure({ id: 5, repoId: 3103, packageManager: 'pip', securityUpdatesOnly: true });
    await h.configure({ id: 6, repoId: 3104, packageManager: 'docker' });
    await h.configure({ id: 7, repoId: 3104 });
    await h.configure({ id: 8, repoId: 3102, packageManager: 'bundler' });
    await h.configure({ id: 9, repoId: 3102, packageManager: 'bundler', directory: '/other' });
    await h.configure({ id: 9, repoId: 3102, packageManager: 'bundler', directory: '/other', deleted: true });
  });
  afterAll(() => h?.close());

  const as = (token?: string): Record<string, string> => (token ? { authorization: `Personal ${token}` } : {});
  const notify = (body: unknown, token = ALICE, prefer = true) =>
    request(h.releaseUrl, 'POST', '/release_notifications/private', {
      headers: { ...as(token), ...(prefer ? { prefer: 'return=representation' } : {}) },
      body,
    });
  async function finished(id: string, token = ALICE): Promise<ReleaseNotificationResource['attributes']> {
    return waitFor(async () => {
      const res = await request(h.releaseUrl, 'GET', `/release_notifications/${id}`, { headers: as(token) });
      return res.body?.data?.attributes?.status === 'done' ? ReleaseNotificationResource.parse(res.body.data).attributes : undefined;
    }, 20_000);
  }
  const jobs = async (query: string, token = ALICE) =>
    (await request(h.releaseUrl, 'GET', `/pull_request_jobs?${query}`, { headers: as(token) })).body;

  it('answers 204 with no body as the original did, and 202 with the notification when asked', async () => {
    const plain = await notify({ name: 'left-pad', version: '1.3.0', 'package-manager': 'npm_and_yarn' }, ALICE, false);
    expect(plain.status).toBe(204);
    expect(plain.text).toBe('');
    const represented = await notify({ name: 'left-pad', version: '1.3.0', 'package-manager': 'npm_and_yarn' });
    expect(represented.status).toBe(202);
    expect(represented.headers.get('location')).toBe(`/release_notifications/${represented.body.data.id}`);
    expect(ReleaseNotificationResource.parse(represented.body.data).attributes).toMatchObject({
      status: 'queued',
      name: 'left-pad',
      'jobs-recorded': 0,
    });
    const done = await finished(represented.body.data.id);
    expect(done).toMatchObject({ 'configs-total': 4, 'repos-scanned': 4, 'jobs-recorded': 0 });
  });

  it('records a job for an outdated runtime dependency, once, and publishes it', async () => {
    const res = await notify({ name: 'lodash', version: '4.17.21', 'package-manager': 'npm_and_yarn' });
    const done = await finished(res.body.data.id);
    expect(done['jobs-recorded']).toBe(3);
    const list = await jobs(`dependency-name=lodash&notification-id=${res.body.data.id}`);
    const byConfig = Object.fromEntries(
      list.data.map((j: { relationships: { 'update-config': { data: { id: string } } } }) => [j.relationships['update-config'].data.id, j]),
    );
    expect(byConfig['1'].attributes).toMatchObject({
      'dependency-name': 'lodash',
      'dependency-type': 'runtime',
      'version-in-use': '4.17.15',
      'target-version': '4.17.21',
      'update-kind': 'patch',
      automerge: false,
      'target-branch': 'main',
      directory: '/',
      'package-manager': 'npm_and_yarn',
    });
    expect(byConfig['3'].attributes.automerge).toBe(true);
    const event = await h.waitForEvent(
      (e) => e.type === 'pull_request_job.created' && (e.data as { updateConfigId: number }).updateConfigId === 1,
    );
    const created = PullRequestJobCreated.parse(event.data);
    expect(created).toMatchObject({
      repoId: 3101,
      accountId: 2001,
      versionInUse: '4.17.15',
      targetVersion: '4.17.21',
    });
    // An older version, 4.17.19, whose job was superseded while 4.17.21's is under way: notified again, nothing is
    // recorded (one job per version); the newer job stands in its way.
    const { id: _id, ...newer } = created;
    const older = () =>
      h.db
        .transaction()
        .execute((trx) => insertJobOnce(trx, requireEcosystem('npm_and_yarn').versions, { ...newer, targetVersion: '4.17.19' }));
    const first = await older();
    if (!('recorded' in first)) throw new Error(`4.17.19 was not recorded: job ${first.blockedBy.id} stood in its way`);
    await h.db.updateTable('pull_request_job').set({ status: 'superseded' }).where('id', '=', first.recorded.id).execute();
    const repeated = await older();
    expect('blockedBy' in repeated ? repeated.blockedBy.target_version : 'recorded again').toBe('4.17.21');

    const again = await notify({ name: 'lodash', version: '4.17.21', 'package-manager': 'npm_and_yarn' });
    await finished(again.body.data.id);
    expect(
      (await jobs('dependency-name=lodash')).data.filter(
        (j: { attributes: { 'target-version': string } }) => j.attributes['target-version'] === '4.17.21',
      ),
    ).toHaveLength(3);
  });

  it('applies automerge rules by dependency type and update kind, and lockfile-only by the manifest requirement', async () => {
    const res = await notify({ name: 'react', version: '17.0.2', 'package-manager': 'npm_and_yarn' });
    const done = await finished(res.body.data.id);
    expect(done.outcomes).toContainEqual({
      'repo-id': '3101',
      'update-config-id': '4',
      outcome: 'skipped',
      reason: expect.stringMatching(/lockfile-only/),
    });
    const list = (await jobs(`notification-id=${res.body.data.id}`)).data;
    expect(list.map((j: { attributes: { 'update-kind': string } }) => j.attributes['update-kind'])).toEqual(['major', 'major']);
    expect(list.every((j: { attributes: { automerge: boolean } }) => j.attributes.automerge === false)).toBe(true);

    const dev = await notify({ name: 'jest', version: '25.5.5', 'package-manager': 'npm_and_yarn' });
    await finished(dev.body.data.id);
    const devJobs = (await jobs(`notification-id=${dev.body.data.id}`)).data;
    const automerge = Object.fromEntries(
      devJobs.map(
        (j: {
          relationships: { 'update-config': { data: { id: string } } };
          attributes: { automerge: boolean; 'dependency-type': string };
        }) => [j.relationships['update-config'].data.id, [j.attributes['dependency-type'], j.attributes.automerge]],
      ),
    );
    expect(automerge).toEqual({ '1': ['development', false], '3': ['development', true], '4': ['development', false] });
  });

  it('takes security updates only when an imported OSV advisory is fixed by the release', async () => {
    // numpy has no advisory on the code host (the emulator's seed): only the imported OSV record below makes this a fix.
    const first = await notify({ name: 'numpy', version: '1.19.0', 'package-manager': 'pip' });
    const skipped = await finished(first.body.data.id);
    expect(skipped.outcomes).toEqual([
      { 'repo-id': '3103', 'update-config-id': '5', outcome: 'skipped', reason: expect.stringMatching(/security updates only/) },
    ]);

    await importOsv(h.api.database.db.withSchema('release'), {
      id: 'PYSEC-0000-0001',
      modified: '2026-11-01T00:00:00Z',
      summary: 'A numpy advisory of this test',
      aliases: [],
      affected: [
        {
          package: { ecosystem: 'PyPI', name: 'NumPy' },
          ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed: '1.19.0' }] }],
        },
      ],
    });
    const second = await notify({ name: 'numpy', version: '1.19.0', 'package-manager': 'pip' });
    const recorded = await finished(second.body.data.id);
    expect(recorded['jobs-recorded']).toBe(1);
    const [job] = (await jobs(`notification-id=${second.body.data.id}`)).data;
    expect(job.attributes).toMatchObject({
      'version-in-use': '1.18.5',
      'target-version': '1.19.0',
      'security-fix': true,
      'update-kind': 'minor',
    });
  });

  it('records missing manifests (patterns named as the ecosystem reads them) and unused dependencies with their reason', async () => {
    const docker = await notify({ name: 'ghcr.io/acme/base', version: '2.0', 'package-manager': 'docker' });
    expect((await finished(docker.body.data.id)).outcomes).toEqual([
      {
        'repo-id': '3104',
        'update-config-id': '6',
        outcome: 'failed',
        reason: 'no Dockerfile* or *.Dockerfile or Containerfile* or *.Containerfile in / on branch main',
      },
    ]);
    const npm = await notify({ name: 'lodash', version: '4.17.22', 'package-manager': 'npm_and_yarn' });
    expect((await finished(npm.body.data.id)).outcomes).toContainEqual({
      'repo-id': '3104',
      'update-config-id': '7',
      outcome: 'failed',
      reason: 'no package.json in / on branch main',
    });
    const gem = await notify({ name: 'sidekiq', version: '6.1.0', 'package-manager': 'bundler' });
    const unused = await finished(gem.body.data.id);
    expect(unused).toMatchObject({ 'configs-total': 1, 'repos-scanned': 1, 'jobs-recorded': 0, 'repos-skipped': 0, 'repos-failed': 0 });
    const stripe = await notify({ name: 'stripe', version: '5.23.0', 'package-manager': 'bundler' });
    await finished(stripe.body.data.id);
    const [job] = (await jobs(`notification-id=${stripe.body.data.id}`)).data;
    expect(job.attributes).toMatchObject({ 'version-in-use': '5.22.0', 'update-kind': 'minor' });
  });

  it('shows notifications and jobs only to tokens that reach their organisations', async () => {
    const res = await notify({ name: 'lodash', version: '4.17.21', 'package-manager': 'npm_and_yarn' });
    expect((await request(h.releaseUrl, 'GET', `/release_notifications/${res.body.data.id}`, { headers: as(BOB) })).status).toBe(404);
    expect((await jobs('dependency-name=lodash', BOB)).data).toEqual([]);
    const bobs = await notify({ name: 'lodash', version: '4.17.21', 'package-manager': 'npm_and_yarn' }, BOB);
    expect((await finished(bobs.body.data.id, BOB))['configs-total']).toBe(0);
  });

  it('refuses bad requests with the API error envelope, never 5xx', async () => {
    const noToken = await request(h.releaseUrl, 'POST', '/release_notifications/private', {
      body: { name: 'x', version: '1', 'package-manager': 'pip' },
    });
    expect(noToken.status).toBe(403);
    expect(noToken.body).toEqual({
      errors: [{ status: 403, title: 'Forbidden', detail: "No access token provided in 'Authorization' header" }],
    });
    // Only the shape is refused: a JSON object with three strings. An empty name or an alias is not (see below).
    const bad = await notify({ name: '', version: 7, 'package-manager': 'npm' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer)).toEqual(['/version']);
    const none = await notify({ version: '1.0.0' });
    expect(none.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer)).toEqual(['/name', '/package-manager']);
    expect((await request(h.releaseUrl, 'GET', '/release_notifications/not-a-uuid', { headers: as(ALICE) })).status).toBe(400);
    expect((await request(h.releaseUrl, 'GET', '/pull_request_jobs?page=0', { headers: as(ALICE) })).status).toBe(400);
    expect(
      (await request(h.releaseUrl, 'GET', '/release_notifications/00000000-0000-4000-8000-000000000000', { headers: as(ALICE) })).status,
    ).toBe(404);
  });

  describe('wire fidelity: 204 for every well-formed notification, as the original and its scripts expect (dependabot/api-docs#18)', () => {
    const view = async (id: string) => {
      const res = await request(h.releaseUrl, 'GET', `/release_notifications/${id}`, { headers: as(ALICE) });
      expect(res.status).toBe(200);
      return ReleaseNotificationResource.parse(res.body.data).attributes;
    };
    const receivedFor = (id: string) =>
      h.events.filter((e) => e.type === 'release_notification.received' && (e.data as { id: string }).id === id);

    it('trims the fields and maps the alias npm to npm_and_yarn: 204, then scanned as npm_and_yarn', async () => {
      const plain = await notify({ name: '  lodash ', version: ' 4.17.20\t', 'package-manager': 'npm' }, ALICE, false);
      expect(plain.status).toBe(204);
      expect(plain.text).toBe('');
      const event = await h.waitForEvent(
        (e) => e.type === 'release_notification.received' && (e.data as { version: string }).version === '4.17.20',
      );
      expect(event.data).toMatchObject({ name: 'lodash', version: '4.17.20', packageManager: 'npm_and_yarn' });
      const done = await finished((event.data as { id: string }).id);
      expect(done).toMatchObject({ name: 'lodash', 'package-manager': 'npm_and_yarn', status: 'done', 'jobs-recorded': 3, reason: null });
    });

    it('maps aliases case-insensitively (YARN, GoMod, actions)', async () => {
      for (const [sent, canonical, name] of [
        ['YARN', 'npm_and_yarn', 'left-pad'],
        ['GoMod', 'go_modules', 'golang.org/x/text'],
        ['actions', 'github_actions', 'actions/checkout'],
      ] as const) {
        const res = await notify({ name, version: '1.3.1', 'package-manager': sent });
        expect(res.status).toBe(202);
        expect(ReleaseNotificationResource.parse(res.body.data).attributes).toMatchObject({
          'package-manager': canonical,
          status: 'queued',
        });
      }
    });

    it('records an unknown package manager as rejected with the reason, answers 204, and scans nothing', async () => {
      const plain = await notify({ name: 'payroll', version: '1.0.0', 'package-manager': 'cobol' }, ALICE, false);
      expect(plain.status).toBe(204);
      expect(plain.text).toBe('');

      const represented = await notify({ name: 'payroll', version: '1.0.0', 'package-manager': 'cobol' });
      expect(represented.status).toBe(202);
      const { id } = represented.body.data;
      expect(represented.headers.get('location')).toBe(`/release_notifications/${id}`);
      const expected = {
        name: 'payroll',
        'package-manager': 'cobol',
        status: 'rejected',
        reason: expect.stringMatching(/unknown package manager "cobol"/),
        'configs-total': null,
        'repos-scanned': 0,
        'jobs-recorded': 0,
      };
      expect(ReleaseNotificationResource.parse(represented.body.data).attributes).toMatchObject(expected);
      expect(await view(id)).toMatchObject(expected);
      expect((await jobs(`notification-id=${id}`)).data).toEqual([]);
      // A later notification's event has come through, so the rejected one would have been published before it.
      const later = await notify({ name: 'left-pad', version: '1.3.2', 'package-manager': 'npm_and_yarn' });
      await h.waitForEvent((e) => e.type === 'release_notification.received' && (e.data as { id: string }).id === later.body.data.id);
      expect(receivedFor(id)).toEqual([]);
      expect(await view(id)).toMatchObject({ status: 'rejected' });
    });

    it('records a Maven name that is not groupId:artifactId as rejected, with 204', async () => {
      const plain = await notify({ name: 'spring-core', version: '6.1.0', 'package-manager': 'maven' }, ALICE, false);
      expect(plain.status).toBe(204);
      const represented = await notify({ name: 'spring-core', version: '6.1.0', 'package-manager': 'mvn' });
      expect(represented.status).toBe(202);
      const { id } = represented.body.data;
      expect(await view(id)).toMatchObject({
        'package-manager': 'maven',
        status: 'rejected',
        reason: expect.stringMatching(/groupId:artifactId/),
      });
      expect((await jobs(`notification-id=${id}`)).data).toEqual([]);
      expect(receivedFor(id)).toEqual([]);
    });

    it('records empty and overlong fields as rejected instead of refusing them', async () => {
      const empty = await notify({ name: ' ', version: '1.0.0', 'package-manager': 'pip' });
      expect(empty.status).toBe(202);
      expect(empty.body.data.attributes).toMatchObject({ status: 'rejected', reason: expect.stringMatching(/name must not be empty/) });
      const long = await notify({ name: 'n'.repeat(301), version: '1.0.0', 'package-manager': 'pip' });
      expect(long.body.data.attributes).toMatchObject({ status: 'rejected', reason: expect.stringMatching(/at most 300/) });
      const control = await notify({ name: 'lodash\u0000rm', version: '1.0.0', 'package-manager': 'npm' });
      expect(control.status).toBe(202);
      expect(control.body.data.attributes).toMatchObject({ status: 'rejected', reason: expect.stringMatching(/control characters/) });
    });

    it('still refuses a body missing version, and one that is not JSON, with 400 and the envelope', async () => {
      const missing = await notify({ name: 'lodash', 'package-manager': 'npm' }, ALICE, false);
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual({
        errors: [{ status: 400, title: 'Bad Request', detail: 'version is required', source: { pointer: '/version' } }],
      });
      const notJson = await request(h.releaseUrl, 'POST', '/release_notifications/private', {
        headers: { ...as(ALICE), 'content-type': 'application/json' },
        body: '{"name":"lodash","version":',
      });
      expect(notJson.status).toBe(400);
      expect(notJson.body.errors).toEqual([expect.objectContaining({ status: 400, detail: expect.stringMatching(/not valid JSON/) })]);
      const array = await notify([{ name: 'lodash', version: '1', 'package-manager': 'npm' }], ALICE, false);
      expect(array.status).toBe(400);
    });
  });
});
