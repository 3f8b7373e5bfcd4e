import { DEFAULT_UPDATE_CONFIG_SETTINGS, type EventEnvelope, type RepoConfigFileRead, ReposDocument } from '@switchyard/contracts';
import { publishEvents, request } from '@switchyard/service-kit/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ALICE, type ConfigHarness, startConfigHarness } from './harness.ts';

/** acme/web-storefront of the demo seed (private, alice can write), as a push webhook describes it. */
const REPO: RepoConfigFileRead['repo'] = {
  id: 3101,
  name: 'web-storefront',
  fullName: 'acme/web-storefront',
  owner: { id: 2001, login: 'acme', type: 'org' },
  private: true,
  fork: false,
  archived: false,
  htmlUrl: 'http://github.invalid/acme/web-storefront',
  language: 'TypeScript',
  defaultBranch: 'main',
};

const fileConfig = (over: Partial<RepoConfigFileRead['configs'][number]> = {}): RepoConfigFileRead['configs'][number] => ({
  pointer: '#/updates/0',
  packageManager: 'npm_and_yarn',
  language: 'javascript',
  updateSchedule: 'weekly',
  directory: '/',
  targetBranch: null,
  automergeRuleRuntimeDeps: 'never',
  automergeRuleDevelopmentDeps: 'never',
  lockfileOnly: false,
  securityUpdatesOnly: false,
  settings: {
    ...DEFAULT_UPDATE_CONFIG_SETTINGS,
    labels: ['deps'],
    ignore: [{ dependencyName: 'express', versions: ['5.x'], updateTypes: [] }],
    groups: [
      {
        name: 'react',
        patterns: ['react*'],
        excludePatterns: ['react-native'],
        updateTypes: ['minor', 'patch'],
        appliesTo: 'version-updates',
      },
    ],
  },
  ...over,
});

const V2 = '.github/dependabot.yml';

describe('config-svc: update configs from repositories config files', () => {
  let h: ConfigHarness;
  let clock = Date.now();
  beforeAll(async () => {
    h = await startConfigHarness('config_files');
  });
  afterAll(() => h?.close());

  const call = (method: string, path: string, body?: unknown) =>
    request(h.url, method, path, { headers: { authorization: `Personal ${ALICE}` }, ...(body === undefined ? {} : { body }) });
  /** Publishes a read of the repo's files (each a second later than the one before, unless `at` is given) and waits for config-svc to apply it. */
  const read = async (file: RepoConfigFileRead['file'], configs: RepoConfigFileRead['configs'], at?: number) => {
    clock += 1_000;
    const data: RepoConfigFileRead = { repo: REPO, readAt: new Date(at ?? clock).toISOString(), commitSha: null, file, configs };
    const before = h.events.length;
    await publishEvents(inject('amqpUrl'), h.exchange, 'release-svc', [{ type: 'repo_config_file.read', data }]);
    return before;
  };
  const activeRepos = async () => {
    const res = await call('GET', '/repos?account-id=2001&account-type=org&installation-state=active');
    expect(res.status, res.text).toBe(200);
    return ReposDocument.parse(res.body);
  };
  /** Waits until the repo's listing satisfies `check`. */
  const until = async (check: (doc: ReturnType<typeof ReposDocument.parse>) => boolean) => {
    for (let i = 0; i < 100; i += 1) {
      const doc = await activeRepos();
      if (check(doc)) return doc;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('config-svc did not apply the read in time');
  };
  const validFile = { path: V2, version: 2 as const, valid: true, problems: [], skipped: [], ignoredFiles: [] };

  it('a valid file becomes the repo setup: an API config of the same identity is taken over, the others go', async () => {
    const created = await call('POST', '/update_configs', {
      'repo-id': 3101,
      'account-id': 2001,
      'account-type': 'org',
      'package-manager': 'npm_and_yarn',
      directory: '/',
      'update-schedule': 'daily',
    });
    expect(created.status, created.text).toBe(201);
    const other = await call('POST', '/update_configs', {
      'repo-id': 3101,
      'account-id': 2001,
      'account-type': 'org',
      'package-manager': 'bundler',
      directory: '/app',
      'update-schedule': 'daily',
    });
    expect(other.status, other.text).toBe(201);
    const takenId = (created.body as { data: { id: string } }).data.id;
    const otherId = Number((other.body as { data: { id: string } }).data.id);

    await read(validFile, [fileConfig()]);
    const doc = await until((d) => d.included.length === 1 && d.included[0]?.attributes.source === V2);
    const repo = doc.data.find((r) => r.id === '3101');
    expect(repo?.attributes['using-config-file']).toBe(true);
    expect(repo?.attributes['config-file']).toEqual({ path: V2, version: 2, valid: true, problems: [], skipped: [], 'ignored-files': [] });
    expect(doc.included[0]).toMatchObject({ id: takenId, attributes: { 'update-schedule': 'weekly', source: V2 } });
    // The file's ignore rules are listed on the config, without an id: the file, not the API, changes them.
    expect(doc.included[0]?.attributes.ignores).toEqual([
      { id: null, source: V2, 'dependency-name': 'express', versions: ['5.x'], 'update-types': [], 'created-by': null, 'created-at': null },
    ]);
    // So are its groups (the same attribute as an API-made config's `groups` member).
    expect(doc.included[0]?.attributes.groups).toEqual([
      {
        name: 'react',
        patterns: ['react*'],
        'exclude-patterns': ['react-native'],
        'dependency-type': null,
        'update-types': ['minor', 'patch'],
        'applies-to': 'version-updates',
      },
    ]);
    const deleted = await h.waitForEvent(
      (e: EventEnvelope) => e.type === 'update_config.deleted' && (e.data as { id: number }).id === otherId,
    );
    expect(deleted.data).toMatchObject({ packageManager: 'bundler', source: 'api' });
    const updated = await h.waitForEvent(
      (e: EventEnvelope) => e.type === 'update_config.updated' && (e.data as { id: number }).id === Number(takenId),
    );
    expect(updated.data).toMatchObject({
      source: V2,
      updateSchedule: 'weekly',
      settings: { labels: ['deps'], ignore: [{ dependencyName: 'express' }] },
    });
  });

  it('lists the ignores people made on the code host as release-svc publishes them, the newest version only', async () => {
    const id = Number((await activeRepos()).included[0]?.id);
    const held = (version: number, names: string[]) => ({
      updateConfigId: id,
      version,
      ignores: names.map((name, index) => ({
        id: index + 1,
        dependencyName: name,
        kind: 'major' as const,
        version: '7.2.0',
        source: 'command' as const,
        pullRequestJobId: 9,
        createdBy: 'alice',
        createdAt: '2026-11-29T12:00:00.000Z',
      })),
    });
    await publishEvents(inject('amqpUrl'), h.exchange, 'release-svc', [
      { type: 'update_config.ignores_changed', data: held(2, ['react', 'lodash']) },
      { type: 'update_config.ignores_changed', data: held(1, ['stale']) },
    ]);
    const doc = await until((d) => (d.included[0]?.attributes.ignores.length ?? 0) === 3);
    expect(doc.included[0]?.attributes.ignores.slice(1)).toEqual([
      {
        id: '1',
        source: 'command',
        'dependency-name': 'react',
        versions: ['>= 7.a, < 8'],
        'update-types': [],
        'created-by': 'alice',
        'created-at': '2026-11-29T12:00:00.000Z',
      },
      {
        id: '2',
        source: 'command',
        'dependency-name': 'lodash',
        versions: ['>= 7.a, < 8'],
        'update-types': [],
        'created-by': 'alice',
        'created-at': '2026-11-29T12:00:00.000Z',
      },
    ]);
  });

  it('refuses writes through the API to what the file governs, with a 409 naming the file', async () => {
    const id = (await activeRepos()).included[0]?.id;
    const patch = await call('PATCH', `/update_configs/${id}`, { 'update-schedule': 'daily' });
    expect(patch.status).toBe(409);
    expect(patch.text).toContain('.github/dependabot.yml');
    const groups = await call('PATCH', `/update_configs/${id}`, { groups: [] });
    expect(groups.status).toBe(409);
    expect((await activeRepos()).included[0]?.attributes.groups.map((g) => g.name)).toEqual(['react']);
    const del = await call('DELETE', `/update_configs/${id}`);
    expect(del.status).toBe(409);
    const post = await call('POST', '/update_configs', {
      'repo-id': 3101,
      'account-id': 2001,
      'account-type': 'org',
      'package-manager': 'npm_and_yarn',
      directory: '/scopes',
      'update-schedule': 'daily',
    });
    expect(post.status).toBe(409);
    expect(post.text).toContain('acme/web-storefront');
  });

  it('an invalid file keeps the setup as it was and shows its problems', async () => {
    const before = (await activeRepos()).included.map((c) => c.id);
    const problem = {
      pointer: '#/updates/0/schedule/interval',
      message: 'The property \'#/updates/0/schedule/interval\' value "hourly" did not match',
    };
    await read({ ...validFile, valid: false, problems: [problem] }, []);
    const doc = await until((d) => d.data.find((r) => r.id === '3101')?.attributes['config-file']?.valid === false);
    expect(doc.included.map((c) => c.id)).toEqual(before);
    expect(doc.data.find((r) => r.id === '3101')?.attributes['config-file']?.problems).toEqual([problem]);
  });

  it('a read older than the last one applied changes nothing', async () => {
    await read(validFile, [fileConfig({ updateSchedule: 'monthly' })], clock - 60_000);
    // A later read goes through the same queue: once it is applied, the older one was seen and refused.
    await read(validFile, [fileConfig({ updateSchedule: 'daily' })]);
    const doc = await until((d) => d.included[0]?.attributes['update-schedule'] === 'daily');
    expect(doc.data.find((r) => r.id === '3101')?.attributes['config-file']?.valid).toBe(true);
    expect(
      h.events.some((e) => e.type === 'update_config.updated' && (e.data as { updateSchedule: string }).updateSchedule === 'monthly'),
    ).toBe(false);
  });

  it('without the file, the configs that came from it go and the repo is no longer using a config file', async () => {
    await read(null, []);
    const doc = await until((d) => !d.data.some((r) => r.id === '3101'));
    expect(doc.included.filter((c) => c.relationships.repo.data.id === '3101')).toEqual([]);
    const created = await call('POST', '/update_configs', {
      'repo-id': 3101,
      'account-id': 2001,
      'account-type': 'org',
      'package-manager': 'npm_and_yarn',
      directory: '/',
      'update-schedule': 'daily',
    });
    expect(created.status, created.text).toBe(201);
    expect((created.body as { data: { attributes: { source: string } } }).data.attributes.source).toBe('api');
  });
});
