import { describe, expect, it } from 'vitest';
import { DEMO_SEED_PATH, generateRepos, loadDemoSeed, loadSeedFile, parseSeed, SeedError } from '../src/index.ts';

describe('emulator seed', () => {
  it('bundles a valid demo seed: alice, bob and the bot, three orgs, private repos, a fork, an archived repo and manifests', () => {
    const seed = loadDemoSeed();
    expect(seed.users.map((u) => [u.login, u.token])).toEqual([
      ['alice', 'demo-token-alice'],
      ['bob', 'demo-token-bob'],
      ['switchyard-bot', 'demo-token-bot'],
    ]);
    for (const org of seed.organizations) expect(org.members.map((m) => m.login)).toContain('switchyard-bot');
    expect(seed.organizations.map((o) => o.login)).toEqual(['acme', 'globex', 'initech', 'acme-oss']);
    expect(seed.repos.some((r) => r.private)).toBe(true);
    expect(seed.repos.filter((r) => r.fork)).toHaveLength(1);
    expect(seed.repos.filter((r) => r.archived)).toHaveLength(1);
    const manifests = seed.repos.flatMap((r) => Object.keys(r.files[r.defaultBranch] ?? {}));
    for (const name of ['package.json', 'package-lock.json', 'requirements.txt', 'Gemfile', 'Gemfile.lock'])
      expect(manifests).toContain(name);
    expect(new Set(seed.repos.map((r) => r.language)).size).toBeGreaterThan(5);
    // demo-seed.json holds the accounts; the parts of demo-seeds/ add organisations, repos and files.
    expect(loadSeedFile(DEMO_SEED_PATH).users).toEqual(seed.users);
  });

  it('applies defaults: archived false, no collaborators or files, a 5,000 an hour rate limit', () => {
    const seed = parseSeed({
      users: [{ id: 1, login: 'u', token: 't' }],
      repos: [{ id: 5, owner: 'u', name: 'r', private: false, fork: false, defaultBranch: 'main', language: null }],
    });
    expect(seed.repos[0]).toMatchObject({ archived: false, collaborators: {}, files: {} });
    expect(seed.organizations).toEqual([]);
    expect(seed.rateLimit).toEqual({ limit: 5_000, windowSeconds: 3_600 });
  });

  it('lists every problem at once: duplicates, unknown owners, members and collaborators, bad shapes', () => {
    const attempt = () =>
      parseSeed(
        {
          users: [
            { id: 1, login: 'a', token: 't' },
            { id: 1, login: 'A', token: 't' },
          ],
          organizations: [{ id: 2, login: 'org', members: [{ login: 'ghost', role: 'member' }], defaultRepoPermission: 'read' }],
          repos: [
            { id: 9, owner: 'nobody', name: 'x', private: true, fork: false, defaultBranch: 'main', language: null },
            {
              id: 9,
              owner: 'org',
              name: 'bad name',
              private: true,
              fork: false,
              defaultBranch: 'main',
              language: null,
              collaborators: { ghost: 'read' },
            },
            {
              id: 10,
              owner: 'org',
              name: 'y',
              private: true,
              fork: false,
              defaultBranch: 'main',
              language: null,
              files: { main: { '/abs': '' } },
            },
          ],
        },
        'inline',
      );
    expect(attempt).toThrow(SeedError);
    const problems = (() => {
      try {
        attempt();
        return [];
      } catch (error) {
        return [...(error as SeedError).problems];
      }
    })();
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^repos\.1\.name: must be a repository name/),
        expect.stringMatching(/^repos\.2\.files\.main\.\/abs: must be a relative file path/),
      ]),
    );
    // Cross-checks run only once the shapes are valid.
    const crossChecked = () =>
      parseSeed({
        users: [
          { id: 1, login: 'a', token: 't' },
          { id: 1, login: 'A', token: 't' },
        ],
        organizations: [{ id: 2, login: 'org', members: [{ login: 'ghost', role: 'member' }], defaultRepoPermission: 'read' }],
        repos: [
          { id: 9, owner: 'nobody', name: 'x', private: true, fork: false, defaultBranch: 'main', language: null },
          {
            id: 9,
            owner: 'org',
            name: 'x',
            private: true,
            fork: false,
            defaultBranch: 'main',
            language: null,
            collaborators: { ghost: 'read' },
          },
          { id: 11, owner: 'ORG', name: 'X', private: true, fork: false, defaultBranch: 'main', language: null },
        ],
      });
    try {
      crossChecked();
      expect.unreachable('the seed is invalid');
    } catch (error) {
      expect((error as SeedError).problems).toEqual([
        'users.1.id: duplicate account id 1',
        'users.1.login: duplicate login A',
        'users.1.token: duplicate token',
        'organizations.0.members.0.login: no user ghost',
        'repos.0.owner: no user or organisation nobody',
        'repos.1.id: duplicate repository id 9',
        'repos.1.collaborators.ghost: no user ghost',
        'repos.2.name: duplicate repository ORG/X',
      ]);
    }
  });

  it('generateRepos makes many valid repos with consecutive ids and padded names', () => {
    const repos = generateRepos('hugeco', 5_000, 200_000, { private: false, files: { 'package.json': '{}' } });
    expect(repos).toHaveLength(5_000);
    expect(repos[0]).toMatchObject({
      id: 200_000,
      owner: 'hugeco',
      name: 'repo-0001',
      private: false,
      files: { main: { 'package.json': '{}' } },
    });
    expect(repos[4_999]).toMatchObject({ id: 204_999, name: 'repo-5000' });
    const seed = parseSeed({
      users: [{ id: 1, login: 'u', token: 't' }],
      organizations: [{ id: 2, login: 'hugeco', members: [], defaultRepoPermission: 'read' }],
      repos: [...repos, ...generateRepos('u', 3, 1)],
    });
    expect(seed.repos).toHaveLength(5_003);
    expect(generateRepos('u', 3, 1).map((r) => r.private)).toEqual([false, false, true]);
  });
});
