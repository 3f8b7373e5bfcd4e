import type { AccountState, RepoState, UpdateConfigState } from '@switchyard/contracts';
import { generateRepos, parseSeed, type RepoRole, type SeedInput } from '@switchyard/github-emulator';
import { orgState, repoState, updateConfigState } from '../config-state.ts';

/** One generated repo of a fault seed: its ids and the lodash version in use there. */
export interface FaultRepo {
  id: number;
  /** The update config the test creates for it (one npm_and_yarn config at `/` per repo). */
  configId: number;
  fullName: string;
  lodash: string;
}

/** A seed for the GitHub emulator: an organisation of generated npm repos, a user who notifies and the worker's bot. */
export interface FaultSeed {
  seed: SeedInput;
  org: { id: number; login: string };
  /** Token of an admin of the organisation (sends the notifications). */
  ownerToken: string;
  /** Token of the bot member the worker reads manifests (and, with a `write` role, makes branches and pull requests) with. */
  botToken: string;
  repos: FaultRepo[];
}

/** package.json and package-lock.json (lockfile v3) of a repo that depends on lodash `version` (and on jest, for development). */
export function npmFiles(name: string, lodash: string): Record<string, string> {
  const packageJson = {
    name,
    version: '1.0.0',
    private: true,
    dependencies: { lodash: `^${lodash}` },
    devDependencies: { jest: '^25.5.4' },
  };
  const lock = {
    name,
    version: '1.0.0',
    lockfileVersion: 3,
    requires: true,
    packages: {
      '': { name, version: '1.0.0', dependencies: packageJson.dependencies, devDependencies: packageJson.devDependencies },
      'node_modules/lodash': { version: lodash, resolved: `https://registry.npmjs.org/lodash/-/lodash-${lodash}.tgz` },
      'node_modules/jest': { version: '25.5.4', resolved: 'https://registry.npmjs.org/jest/-/jest-25.5.4.tgz', dev: true },
    },
  };
  return { 'package.json': `${JSON.stringify(packageJson, null, 2)}\n`, 'package-lock.json': `${JSON.stringify(lock, null, 2)}\n` };
}

/**
 * package.json alone of a repo that pins lodash at exactly `version` (npm's version in use without a lockfile is the
 * manifest's exact pin): an update rewrites that one line and needs no lockfile resolution
 * (https://docs.npmjs.com/cli/configuring-npm/package-json#dependencies).
 */
export function npmPinnedFiles(name: string, lodash: string): Record<string, string> {
  const packageJson = { name, version: '1.0.0', private: true, dependencies: { lodash } };
  return { 'package.json': `${JSON.stringify(packageJson, null, 2)}\n` };
}

/**
 * An organisation `login` (account `orgId`) of `count` repos (ids from `firstRepoId`), each with one update config
 * (ids from `firstConfigId`) and the lodash version `lodashOf(index)` in use, in the files `filesOf(name, lodash)` on
 * `main` (default {@link npmFiles}: package.json and package-lock.json); an owner and a bot user with tokens unique to
 * `tag`. The bot is a member with the organisation's base permission (read), raised on every repo to `botRepoRole` when
 * given (a collaborator role, as GitHub grants one: `write` lets it push branches and open pull requests,
 * https://docs.github.com/organizations/managing-user-access-to-your-organizations-repositories/managing-repository-roles/repository-roles-for-an-organization).
 * The rate limit is far above what a test uses.
 */
export function faultSeed(options: {
  tag: string;
  orgId: number;
  login: string;
  count: number;
  firstRepoId: number;
  firstConfigId: number;
  lodashOf: (index: number) => string;
  filesOf?: (name: string, lodash: string) => Record<string, string>;
  botRepoRole?: RepoRole;
}): FaultSeed {
  const { tag, orgId, login, count } = options;
  const ownerToken = `faults-${tag}-owner`;
  const botToken = `faults-${tag}-bot`;
  const generated = generateRepos(login, count, options.firstRepoId, { namePrefix: 'svc', private: true });
  const repos: FaultRepo[] = generated.map((repo, index) => ({
    id: repo.id,
    configId: options.firstConfigId + index,
    fullName: `${login}/${repo.name}`,
    lodash: options.lodashOf(index),
  }));
  const seed: SeedInput = {
    users: [
      { id: orgId + 1, login: `${login}-owner`, token: ownerToken },
      { id: orgId + 2, login: `${login}-bot`, token: botToken },
    ],
    organizations: [
      {
        id: orgId,
        login,
        members: [
          { login: `${login}-owner`, role: 'admin' },
          { login: `${login}-bot`, role: 'member' },
        ],
        defaultRepoPermission: 'read',
      },
    ],
    repos: generated.map((repo, index) => ({
      ...repo,
      files: { main: (options.filesOf ?? npmFiles)(repo.name, repos[index]?.lodash ?? '0.0.0') },
      ...(options.botRepoRole ? { collaborators: { [`${login}-bot`]: options.botRepoRole } } : {}),
    })),
    rateLimit: { limit: 10_000_000, windowSeconds: 3_600 },
  };
  parseSeed(seed, `faults ${tag} seed`);
  return { seed, org: { id: orgId, login }, ownerToken, botToken, repos };
}

/** Whether semver `a` is lower than `b` (plain `x.y.z` versions only, which is all the seeds use). */
export function lowerVersion(a: string, b: string): boolean {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) {
    const x = pa[i] ?? 0;
    const y = pb[i] ?? 0;
    if (x !== y) return x < y;
  }
  return false;
}

/** The config ids of the repos whose lodash is older than `version`: exactly the configs a notification must record a job for. */
export function outdatedConfigs(seed: FaultSeed, version: string): number[] {
  return seed.repos.filter((repo) => lowerVersion(repo.lodash, version)).map((repo) => repo.configId);
}

/** What config-svc publishes for the seed: the organisation, its repos and one npm_and_yarn update config per repo. */
export function configEvents(seed: FaultSeed): Array<{ type: string; data: AccountState | RepoState | UpdateConfigState }> {
  const events: Array<{ type: string; data: AccountState | RepoState | UpdateConfigState }> = [
    { type: 'account.created', data: orgState(seed.org.id, seed.org.login) },
  ];
  for (const repo of seed.repos) {
    events.push({ type: 'repo.created', data: repoState({ id: repo.id, accountId: seed.org.id, fullName: repo.fullName }) });
    events.push({ type: 'update_config.created', data: updateConfigState({ id: repo.configId, repoId: repo.id, accountId: seed.org.id }) });
  }
  return events;
}
