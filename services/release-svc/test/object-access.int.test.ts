import { ReleaseNotificationResource } from '@switchyard/contracts';
import { loadDemoSeed, type SeedRepoInput } from '@switchyard/github-emulator';
import { request, waitFor } from '@switchyard/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALICE, type ReleaseHarness, startReleaseHarness } from './harness.ts';

// Object-level authorisation (OWASP API1): a notification scans every config of the organisations the sender's token
// reaches, but what each caller is shown of it (jobs, outcomes, counts) covers only the repos that caller's token can
// see on the code host. The organisation `umbrella` has base permission `none`: members see only the private repos
// they are collaborators on. carol is a member who is on `lobby` only; alice is on all three.

const CAROL = 'test-token-carol';
const UMBRELLA = { id: 2099, login: 'umbrella' };
const demo = loadDemoSeed();
const npmFiles = demo.repos.find((repo) => repo.id === 3101)?.files.main ?? {};

function umbrellaRepo(id: number, name: string, collaborators: Record<string, 'read' | 'write'>, files = npmFiles): SeedRepoInput {
  return {
    id,
    owner: UMBRELLA.login,
    name,
    private: true,
    fork: false,
    defaultBranch: 'main',
    language: null,
    collaborators,
    files: { main: files },
  };
}

const seed = {
  ...demo,
  users: [...demo.users, { id: 1003, login: 'carol', token: CAROL }],
  organizations: [
    ...demo.organizations,
    {
      ...UMBRELLA,
      defaultRepoPermission: 'none' as const,
      members: [
        { login: 'alice', role: 'member' as const },
        { login: 'carol', role: 'member' as const },
        { login: 'switchyard-bot', role: 'member' as const },
      ],
    },
  ],
  repos: [
    ...demo.repos,
    umbrellaRepo(3901, 'vault', { alice: 'write', 'switchyard-bot': 'read' }),
    umbrellaRepo(3902, 'lobby', { alice: 'write', carol: 'read', 'switchyard-bot': 'read' }),
    umbrellaRepo(3903, 'attic', { alice: 'write', 'switchyard-bot': 'read' }, { 'README.md': 'nothing to scan\n' }),
  ],
};
const repo = (name: string) => ({ accountId: UMBRELLA.id, fullName: `${UMBRELLA.login}/${name}`, defaultBranch: 'main' });

describe('what a caller sees of a notification: only repos their token can see', () => {
  let h: ReleaseHarness;
  beforeAll(async () => {
    h = await startReleaseHarness('object_access', {
      seed,
      repos: { 3901: repo('vault'), 3902: repo('lobby'), 3903: repo('attic') },
    });
    await h.configure({ id: 51, repoId: 3901 });
    await h.configure({ id: 52, repoId: 3902 });
    await h.configure({ id: 53, repoId: 3903 });
  });
  afterAll(() => h?.close());

  const as = (token: string) => ({ authorization: `Personal ${token}` });
  const get = (path: string, token: string) => request(h.releaseUrl, 'GET', path, { headers: as(token) });
  async function finished(id: string, token: string): Promise<ReleaseNotificationResource['attributes']> {
    return waitFor(async () => {
      const res = await get(`/release_notifications/${id}`, token);
      return res.body?.data?.attributes?.status === 'done' ? ReleaseNotificationResource.parse(res.body.data).attributes : undefined;
    }, 20_000);
  }
  const jobRepos = async (query: string, token: string) =>
    (await get(`/pull_request_jobs?${query}`, token)).body.data.map(
      (job: { relationships: { repo: { data: { id: string } } } }) => job.relationships.repo.data.id,
    );

  it("scans the whole organisation for a member's notification, and shows that member only the repos they can see", async () => {
    const sent = await request(h.releaseUrl, 'POST', '/release_notifications/private', {
      headers: { ...as(CAROL), prefer: 'return=representation' },
      body: { name: 'lodash', version: '4.17.21', 'package-manager': 'npm_and_yarn' },
    });
    expect(sent.status, sent.text).toBe(202);
    const id: string = sent.body.data.id;

    // alice, on every repo, sees the whole scan: two jobs and the failure on attic (no manifest).
    const all = await finished(id, ALICE);
    expect(all).toMatchObject({ 'configs-total': 3, 'repos-scanned': 3, 'jobs-recorded': 2, 'repos-failed': 1 });
    expect(all.outcomes.map((o) => o['repo-id'])).toEqual(['3903']);
    expect((await jobRepos(`notification-id=${id}`, ALICE)).sort()).toEqual(['3901', '3902']);

    // carol sent it, but sees only lobby: its job, counted alone; nothing of vault or attic, not even how many.
    const hers = await finished(id, CAROL);
    expect(hers).toMatchObject({ 'configs-total': 1, 'repos-scanned': 1, 'jobs-recorded': 1, 'repos-failed': 0, outcomes: [] });
    expect(await jobRepos(`notification-id=${id}`, CAROL)).toEqual(['3902']);
    expect(await jobRepos('repo-id=3901', CAROL)).toEqual([]);
    expect(await jobRepos('dependency-name=lodash', CAROL)).toEqual(['3902']);
    expect(JSON.stringify((await get(`/release_notifications/${id}`, CAROL)).body)).not.toMatch(/vault|attic|3901|3903/);
  });
});
