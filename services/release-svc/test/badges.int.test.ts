import { randomUUID } from 'node:crypto';
import { type PullRequestJobStatus, RepoState, UpdateConfigState } from '@switchyard/contracts';
import { createLogger, startService } from '@switchyard/service-kit';
import { createTestDatabase, request, type TestResponse } from '@switchyard/service-kit/testing';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadReleaseConfig } from '../src/config.ts';
import type { ReleaseDatabase } from '../src/db/schema.ts';
import { insertJobOnce } from '../src/jobs/job.repository.ts';
import { applyConfigEvent, type ConfigEvent } from '../src/read-model/read-model.service.ts';
import { finishRun, insertRunOnce } from '../src/runs/update-run.repository.ts';
import { startReleaseApi } from '../src/start.ts';
import { orgState } from './config-state.ts';

const ACCOUNT = 7001;
/** Public repos of the tests, by id; each test that needs a state gives it a repo of its own. */
const REPOS = {
  unconfigured: { id: 870001, fullName: 'octo/no-config' },
  deletedConfig: { id: 870002, fullName: 'octo/config-deleted' },
  enabled: { id: 870003, fullName: 'octo/never-ran' },
  upToDate: { id: 870004, fullName: 'octo/Up-To-Date' },
  pending: { id: 870005, fullName: 'octo/pending' },
  failing: { id: 870006, fullName: 'octo/failing' },
  private: { id: 870007, fullName: 'octo/secret' },
  becomesPublic: { id: 870008, fullName: 'octo/opened-up' },
  single: { id: 870009, fullName: 'octo/single' },
} as const;

/**
 * `GET /badges/status` on real PostgreSQL: release-svc's API alone (in-process bus, no code host is ever asked), its
 * read model written through the consumer's own `applyConfigEvent` (as config-svc's events would), runs and jobs
 * through their repositories, each answer read over HTTP without authentication.
 */
describe('the status badge (GET /badges/status)', () => {
  let url: string;
  let db: Kysely<ReleaseDatabase>;
  let close: () => Promise<void>;
  let configIds = 880_000;

  beforeAll(async () => {
    const running = await startService(async (scope) => {
      const logger = createLogger('test', process.env.TEST_LOG_LEVEL ?? 'silent');
      const database = await createTestDatabase(inject('databaseUrl'), 'release_badges');
      scope.defer(() => database.drop());
      // The code host's URL is a port where nothing listens: the badge must never need it.
      const config = loadReleaseConfig({
        HOST: '127.0.0.1',
        PORT: '0',
        DATABASE_URL: database.url,
        CODE_HOST_API_URL: 'http://127.0.0.1:9',
      });
      const api = scope.use(await startReleaseApi(config, logger));
      return { url: api.url, db: api.database.db.withSchema('release') };
    });
    url = running.url;
    db = running.db;
    close = () => running.close();
    await apply('account.created', orgState(ACCOUNT, 'octo'));
    for (const repo of Object.values(REPOS)) await addRepo(repo, { private: repo === REPOS.private || repo === REPOS.becomesPublic });
  });
  afterAll(() => close?.());

  /** Applies one of config-svc's state events to the read model, as the worker's consumer does. */
  async function apply(type: ConfigEvent['type'], data: unknown): Promise<void> {
    const event = { id: randomUUID(), type, source: 'config-svc', time: new Date().toISOString(), data } as ConfigEvent;
    await db.transaction().execute((trx) => applyConfigEvent(trx, event));
  }
  async function addRepo(repo: { id: number; fullName: string }, options: { private: boolean; revision?: number }): Promise<void> {
    const state = RepoState.parse({
      id: repo.id,
      accountId: ACCOUNT,
      name: repo.fullName.split('/')[1],
      fullName: repo.fullName,
      private: options.private,
      fork: false,
      archived: false,
      htmlUrl: `https://github.com/${repo.fullName}`,
      language: null,
      defaultBranch: 'main',
      revision: options.revision ?? 1,
    });
    await apply(options.revision ? 'repo.updated' : 'repo.created', state);
  }
  /** A new npm_and_yarn config of `repoId` (deleted when asked), as config-svc's event carries it. */
  async function addConfig(repoId: number, options: { deleted?: boolean } = {}): Promise<number> {
    const id = ++configIds;
    const state = UpdateConfigState.parse({
      id,
      repoId,
      accountId: ACCOUNT,
      packageManager: 'npm_and_yarn',
      language: 'javascript',
      updateSchedule: 'weekly',
      directory: '/',
      targetBranch: null,
      automergeRuleRuntimeDeps: 'never',
      automergeRuleDevelopmentDeps: 'never',
      lockfileOnly: false,
      securityUpdatesOnly: false,
      revision: 1,
    });
    await apply('update_config.created', state);
    if (options.deleted) await apply('update_config.deleted', state);
    return id;
  }
  /** A manual run of the config, left queued or finished `done` or `failed`. */
  async function addRun(configId: number, repoId: number, outcome: 'queued' | 'done' | 'failed'): Promise<void> {
    const run = await insertRunOnce(db, {
      updateConfigId: configId,
      repoId,
      accountId: ACCOUNT,
      trigger: 'manual',
      triggerKey: `manual:${randomUUID()}`,
    });
    if (!run) throw new Error('the run was not recorded');
    if (outcome === 'done') await finishRun(db, run.id);
    if (outcome === 'failed') await finishRun(db, run.id, { error: 'package.json in / is not valid JSON', kind: 'manifest_unreadable' });
  }
  /** A pull-request job of the config for `dependency`, moved to `status`. */
  async function addJob(configId: number, repoId: number, dependency: string, status: PullRequestJobStatus): Promise<void> {
    const recording = await db.transaction().execute((trx) =>
      insertJobOnce(trx, undefined, {
        notificationId: null,
        updateRunId: null,
        unverified: false,
        updateConfigId: configId,
        repoId,
        accountId: ACCOUNT,
        packageManager: 'npm_and_yarn',
        dependencyName: dependency,
        dependencyType: 'runtime',
        versionInUse: '1.0.0',
        targetVersion: '2.0.0',
        updateKind: 'major',
        automerge: false,
        securityFix: false,
        targetBranch: 'main',
        directory: '/',
      }),
    );
    if (!('recorded' in recording)) throw new Error('the job was not recorded');
    await db.updateTable('pull_request_job').set({ status }).where('id', '=', recording.recorded.id).execute();
  }

  const badge = (query: string, headers: Record<string, string> = {}): Promise<TestResponse> =>
    request(url, 'GET', `/badges/status${query}`, { headers });
  const json = (query: string) => badge(query, { accept: 'application/json' });
  const ofRepo = (repo: { fullName: string }) => `?host=github&repo=${repo.fullName}`;
  const ofId = (repo: { id: number }) => `?host=github&identifier=${repo.id}`;

  describe('states', () => {
    it('is inactive (lightgrey) for a public repo without an update config, or whose configs were all deleted', async () => {
      for (const query of [ofRepo(REPOS.unconfigured), ofId(REPOS.unconfigured)]) {
        const res = await json(query);
        expect(res.status, query).toBe(200);
        expect(res.body).toEqual({ status: 'inactive', colour: 'lightgrey' });
      }
      await addConfig(REPOS.deletedConfig.id, { deleted: true });
      expect((await json(ofRepo(REPOS.deletedConfig))).body).toEqual({ status: 'inactive', colour: 'lightgrey' });
    });

    it('is enabled (green) while a config has not finished a run (a queued one does not count)', async () => {
      const config = await addConfig(REPOS.enabled.id);
      expect((await json(ofRepo(REPOS.enabled))).body).toEqual({ status: 'enabled', colour: 'green' });
      await addRun(config, REPOS.enabled.id, 'queued');
      expect((await json(ofRepo(REPOS.enabled))).body).toEqual({ status: 'enabled', colour: 'green' });
    });

    it('is up to date (brightgreen) when every config’s last run succeeded and no pull request is open', async () => {
      const first = await addConfig(REPOS.upToDate.id);
      const second = await addConfig(REPOS.upToDate.id);
      await addRun(first, REPOS.upToDate.id, 'failed');
      await addRun(first, REPOS.upToDate.id, 'done');
      await addRun(second, REPOS.upToDate.id, 'done');
      // A run still queued after the last finished one changes nothing; neither do jobs that are no longer open.
      await addRun(second, REPOS.upToDate.id, 'queued');
      for (const [dependency, status] of [
        ['merged-dep', 'merged'],
        ['closed-dep', 'closed'],
        ['superseded-dep', 'superseded'],
        ['failed-dep', 'failed'],
        ['vanished-dep', 'vanished'],
      ] as const) {
        await addJob(first, REPOS.upToDate.id, dependency, status);
      }
      expect((await json(ofRepo(REPOS.upToDate))).body).toEqual({ status: 'up to date', colour: 'brightgreen' });
    });

    it('counts the open update pull requests of every config (yellow), `1 update pending` for one', async () => {
      const first = await addConfig(REPOS.single.id);
      await addRun(first, REPOS.single.id, 'done');
      await addJob(first, REPOS.single.id, 'lodash', 'open');
      expect((await json(ofRepo(REPOS.single))).body).toEqual({ status: '1 update pending', colour: 'yellow' });

      const a = await addConfig(REPOS.pending.id);
      const b = await addConfig(REPOS.pending.id);
      await addRun(a, REPOS.pending.id, 'done');
      await addJob(a, REPOS.pending.id, 'lodash', 'open');
      await addJob(a, REPOS.pending.id, 'react', 'open');
      await addJob(b, REPOS.pending.id, 'express', 'open');
      // Recorded but not opened yet, or closed: not an open pull request.
      await addJob(b, REPOS.pending.id, 'jest', 'pending');
      await addJob(b, REPOS.pending.id, 'typescript', 'queued-limit');
      await addJob(b, REPOS.pending.id, 'left-pad', 'merged');
      expect((await json(ofRepo(REPOS.pending))).body).toEqual({ status: '3 updates pending', colour: 'yellow' });
    });

    it('is failing (red) when a config’s last finished run failed, open pull requests or not, until a run succeeds', async () => {
      const healthy = await addConfig(REPOS.failing.id);
      const broken = await addConfig(REPOS.failing.id);
      await addRun(healthy, REPOS.failing.id, 'done');
      await addRun(broken, REPOS.failing.id, 'done');
      await addRun(broken, REPOS.failing.id, 'failed');
      await addJob(healthy, REPOS.failing.id, 'lodash', 'open');
      expect((await json(ofRepo(REPOS.failing))).body).toEqual({ status: 'failing', colour: 'red' });
      await addRun(broken, REPOS.failing.id, 'done');
      expect((await json(ofRepo(REPOS.failing))).body).toEqual({ status: '1 update pending', colour: 'yellow' });
    });
  });

  describe('the SVG and JSON forms', () => {
    it('answers an SVG by default: the label and the status, image/svg+xml, cached 5 minutes, with an ETag', async () => {
      for (const accept of [undefined, '*/*', 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8', 'text/plain']) {
        const res = await badge(ofRepo(REPOS.unconfigured), accept === undefined ? {} : { accept });
        expect(res.status, String(accept)).toBe(200);
        expect(res.headers.get('content-type'), String(accept)).toMatch(/^image\/svg\+xml(;|$)/);
        expect(res.text).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
        expect(res.text).toContain('aria-label="Dependabot: inactive"');
        expect(res.text).toContain('>Dependabot</text>');
        expect(res.text).toContain('>inactive</text>');
        expect(res.headers.get('cache-control')).toBe('public, max-age=300');
        expect(res.headers.get('etag')).toMatch(/^"[\w-]{27}"$/);
        expect(res.headers.get('vary')).toMatch(/accept/i);
        expect(res.headers.get('access-control-allow-origin')).toBe('*');
        expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'");
        expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      }
    });

    it('answers the original’s JSON to a client that asks for it, with its own ETag', async () => {
      const svg = await badge(ofRepo(REPOS.pending));
      for (const accept of ['application/json', 'application/json, text/plain, */*', 'image/svg+xml;q=0.5, application/json']) {
        const res = await badge(ofRepo(REPOS.pending), { accept });
        expect(res.status, accept).toBe(200);
        expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
        expect(res.text).toBe('{"status":"3 updates pending","colour":"yellow"}');
        expect(res.headers.get('cache-control')).toBe('public, max-age=300');
        expect(res.headers.get('vary')).toMatch(/accept/i);
        expect(res.headers.get('etag')).toMatch(/^"[\w-]{27}"$/);
        expect(res.headers.get('etag')).not.toBe(svg.headers.get('etag'));
      }
    });

    it('answers 304 without a body to a matching If-None-Match, and a new ETag once the state changes', async () => {
      const first = await badge(ofRepo(REPOS.enabled));
      const etag = first.headers.get('etag') ?? '';
      const again = await badge(ofRepo(REPOS.enabled), { 'if-none-match': etag });
      expect(again.status).toBe(304);
      expect(again.text).toBe('');
      expect(again.headers.get('etag')).toBe(etag);
      expect(again.headers.get('cache-control')).toBe('public, max-age=300');
      expect((await badge(ofRepo(REPOS.enabled), { 'if-none-match': `W/${etag}` })).status).toBe(304);
      expect((await badge(ofRepo(REPOS.enabled), { 'if-none-match': '"something-else"' })).status).toBe(200);

      const config = await addConfig(REPOS.enabled.id);
      await addRun(config, REPOS.enabled.id, 'failed');
      const changed = await badge(ofRepo(REPOS.enabled), { 'if-none-match': etag });
      expect(changed.status).toBe(200);
      expect(changed.text).toContain('aria-label="Dependabot: failing"');
      expect(changed.headers.get('etag')).not.toBe(etag);
    });

    it('answers HEAD with the headers alone', async () => {
      const res = await request(url, 'HEAD', `/badges/status${ofRepo(REPOS.unconfigured)}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
      expect(res.text).toBe('');
    });
  });

  describe('who may see a badge', () => {
    it('needs no authentication, and ignores an Authorization header it cannot check', async () => {
      const res = await badge(ofRepo(REPOS.unconfigured), { authorization: 'Personal not-a-token', accept: 'application/json' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 'inactive', colour: 'lightgrey' });
    });

    it('matches owner/name case-insensitively, as the code host does', async () => {
      for (const name of ['octo/up-to-date', 'OCTO/UP-TO-DATE', 'octo/Up-To-Date']) {
        expect((await json(`?host=github&repo=${name}`)).body, name).toEqual({ status: 'up to date', colour: 'brightgreen' });
      }
    });

    it('answers 404 for an unknown repo, by name or by identifier, as a JSON:API error', async () => {
      const byName = await json('?host=github&repo=octo/nothing-here');
      expect(byName.status).toBe(404);
      expect(byName.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(byName.headers.get('cache-control')).toBe('no-store');
      expect(byName.body).toEqual({
        errors: [{ status: 404, title: 'Not Found', detail: 'No public repo is known for repo=octo/nothing-here' }],
      });
      const byId = await badge('?host=github&identifier=123456789');
      expect(byId.status).toBe(404);
      expect(byId.body.errors[0].detail).toBe('No public repo is known for identifier=123456789');
    });

    it('answers a private repo exactly as an unknown one, by name, identifier or both', async () => {
      await addConfig(REPOS.private.id);
      for (const query of [
        ofRepo(REPOS.private),
        ofId(REPOS.private),
        `?host=github&repo=${REPOS.private.fullName}&identifier=${REPOS.private.id}`,
      ]) {
        const res = await badge(query);
        expect(res.status, query).toBe(404);
        expect(res.body.errors).toEqual([
          { status: 404, title: 'Not Found', detail: expect.stringMatching(/^No public repo is known for /) },
        ]);
      }
      expect((await badge(ofRepo(REPOS.private))).body.errors[0].detail).toBe('No public repo is known for repo=octo/secret');
    });

    it('follows the repo’s events: a repo made public is served once its repo.updated arrives', async () => {
      expect((await badge(ofRepo(REPOS.becomesPublic))).status).toBe(404);
      await addRepo(REPOS.becomesPublic, { private: false, revision: 2 });
      expect((await json(ofRepo(REPOS.becomesPublic))).body).toEqual({ status: 'inactive', colour: 'lightgrey' });
      // An older state arriving late changes nothing; a newer private one hides it again.
      await addRepo(REPOS.becomesPublic, { private: true, revision: 2 });
      expect((await badge(ofRepo(REPOS.becomesPublic))).status).toBe(200);
      await addRepo(REPOS.becomesPublic, { private: true, revision: 3 });
      expect((await badge(ofRepo(REPOS.becomesPublic))).status).toBe(404);
    });

    it('answers repo and identifier together when they name the same repo, and 404 when they disagree', async () => {
      const same = await json(`?host=github&repo=octo/pending&identifier=${REPOS.pending.id}`);
      expect(same.status).toBe(200);
      expect(same.body.status).toBe('3 updates pending');
      for (const query of [
        `?host=github&repo=${REPOS.pending.fullName}&identifier=${REPOS.unconfigured.id}`,
        `?host=github&repo=${REPOS.pending.fullName}&identifier=123456789`,
        `?host=github&repo=octo/nothing-here&identifier=${REPOS.pending.id}`,
      ]) {
        const res = await badge(query);
        expect(res.status, query).toBe(404);
        expect(res.body.errors[0].detail, query).toMatch(/^No public repo is known for repo=.+ and identifier=\d+$/);
      }
    });
  });

  describe('bad requests', () => {
    const refused = async (query: string, parameter: string, detail: RegExp) => {
      const res = await badge(query);
      expect(res.status, query).toBe(400);
      expect(res.headers.get('content-type'), query).toBe('application/json; charset=utf-8');
      expect(res.body.errors, query).toEqual([
        { status: 400, title: 'Bad Request', detail: expect.stringMatching(detail), source: { parameter } },
      ]);
    };

    it('needs host=github', async () => {
      await refused('?repo=octo/pending', 'host', /^host is required: github$/);
      await refused('?host=gitlab&repo=octo/pending', 'host', /^host must be github, the only code host served$/);
      await refused('?host=GitHub&repo=octo/pending', 'host', /^host must be github/);
    });

    it('needs repo or identifier', async () => {
      await refused('?host=github', 'repo', /^repo or identifier is required$/);
      await refused('?host=github&repo=', 'repo', /^repo must be a repo as owner\/name$/);
    });

    it('refuses a malformed or repeated repo or identifier, naming it', async () => {
      for (const repo of [
        'octo',
        'octo/',
        '/name',
        'a/b/c',
        'octo/..',
        'octo/.',
        '-octo/x',
        'oc to/x',
        'octo/x%00',
        `octo/${'x'.repeat(101)}`,
      ]) {
        await refused(`?host=github&repo=${encodeURIComponent(repo)}`, 'repo', /^repo must be a repo as owner\/name$/);
      }
      await refused('?host=github&repo=octo/a&repo=octo/b', 'repo', /^repo must be given once, as owner\/name$/);
      for (const identifier of ['abc', '0', '-1', '1e3', '1.5', '', '99999999999999999', '9007199254740993']) {
        await refused(`?host=github&identifier=${identifier}`, 'identifier', /^identifier must be the code host's numeric repo id$/);
      }
      await refused('?host=github&identifier=1&identifier=2', 'identifier', /^identifier must be given once/);
    });

    it('never answers 5xx, whatever the query', async () => {
      const junk = [
        '?host=github&repo=%E0%A4%A',
        '?host=github&repo=%C0%AF',
        '?host=github&identifier=%00',
        `?host=github&repo=${'a'.repeat(5000)}`,
        '?host[]=github&repo=octo/pending',
        '?host=github&repo[x]=octo/pending',
        '?host=github&identifier=00000000000000870005',
        '?host=github&identifier=0000870005',
        '?%zz=1&host=github&repo=octo/pending',
        '?host=github&repo=octo/pending%2F..%2F..',
        '?host=github&repo=%F0%9F%92%A9/%F0%9F%92%A9',
        '?host=github&repo=octo/pending;drop table repo',
        `?host=github&repo=octo/pending&identifier=${'9'.repeat(400)}`,
      ];
      for (const query of junk) {
        const res = await badge(query);
        expect(res.status, query).toBeLessThan(500);
        expect(res.status, query).not.toBe(401);
      }
      // Leading zeros are still the number.
      expect((await json('?host=github&identifier=0000870005')).body).toEqual({ status: '3 updates pending', colour: 'yellow' });
    });

    it('answers 405 to another method, naming GET', async () => {
      const res = await request(url, 'POST', `/badges/status${ofRepo(REPOS.pending)}`, { body: {} });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('GET, HEAD');
      expect(res.body.errors[0].status).toBe(405);
    });
  });
});
