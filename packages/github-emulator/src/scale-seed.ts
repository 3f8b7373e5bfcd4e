import { generateRepos, loadDemoSeed, type SeedInput } from './seed.ts';

/** The demo seed's token of `alice` (a member of every demo organisation). */
export const DEMO_TOKEN_ALICE = 'demo-token-alice';
/**
 * The demo seed's other tokens of `alice`, one per kind of grant: classic tokens with only `read:org`, and with
 * `public_repo` and `read:org`; fine-grained tokens with read-only and with read-write repository contents.
 * (Her main token is classic with `repo` and `read:org`.)
 */
export const DEMO_TOKENS_ALICE = Object.freeze({
  readOrg: 'demo-token-alice-read-org',
  publicRepo: 'demo-token-alice-public-repo',
  contentsRead: 'demo-token-alice-contents-read',
  contentsWrite: 'demo-token-alice-contents-write',
});
/** The demo seed's token of `bob`. */
export const DEMO_TOKEN_BOB = 'demo-token-bob';
/**
 * The demo seed's GitHub App: id, slug and bot user (`switchyard[bot]`). Its key pair is a demo key, committed in
 * `demo-seed.json` (`apps[0].privateKey`): `appPrivateKeyFile` writes it out for a client; never use it for a real App.
 */
export const DEMO_APP = Object.freeze({
  id: 4_242,
  slug: 'switchyard',
  clientId: 'Iv1.5a17c4d3e2f10987',
  botLogin: 'switchyard[bot]',
  botUserId: 1_904_242,
});
/** The demo seed's switchyard-bot (the service's own token in demos: a member of every organisation, writer of acme-oss). */
export const DEMO_TOKEN_BOT = 'demo-token-bot';

/** A file bigger than GitHub's 1 MB limit of file contents inline in a contents answer. */
export const LARGE_FILE = `${'x'.repeat(1_100_000)}\nend\n`;

/**
 * The demo seed plus what tests of paging, permissions and large files need: org `bigco` (alice a member with read)
 * with 250 repos, org `hugeco` (alice admin) with 5,000, and alice's private repo `big-files` holding
 * `data/huge.txt` ({@link LARGE_FILE}) and `with space/a b.txt`.
 */
export function scaleTestSeed(): SeedInput {
  const demo = loadDemoSeed();
  return {
    ...demo,
    organizations: [
      ...demo.organizations,
      { id: 2101, login: 'bigco', members: [{ login: 'alice', role: 'member' }], defaultRepoPermission: 'read' },
      { id: 2102, login: 'hugeco', members: [{ login: 'alice', role: 'admin' }], defaultRepoPermission: 'none' },
    ],
    repos: [
      ...demo.repos,
      ...generateRepos('bigco', 250, 100_000),
      ...generateRepos('hugeco', 5_000, 200_000),
      {
        id: 3999,
        owner: 'alice',
        name: 'big-files',
        private: true,
        fork: false,
        defaultBranch: 'main',
        language: null,
        files: { main: { 'data/huge.txt': LARGE_FILE, 'with space/a b.txt': 'spaced\n' } },
      },
    ],
  };
}
