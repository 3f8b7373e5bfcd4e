import type { GitHubApiError } from '../github-http.ts';
import type { EmulatedCredential, EmulatedRepo, EmulatedUser, World } from '../world.ts';
import type { AppsState, InstallationRecord, InstallationTokenRecord } from './installations.ts';
import { installationSuspended } from './messages.ts';

/** What installations reach: their repositories, who sees them, and the credential of an installation access token. */

/** The repositories `record` covers now: every repository of its account (`all`) or the selected ones, in seed order. */
export function installationRepos(world: World, record: InstallationRecord): EmulatedRepo[] {
  const repos = world.reposOf(record.account);
  if (record.repositorySelection === 'all') return repos;
  const selected = new Set(record.repositoryIds);
  return repos.filter((repo) => selected.has(repo.id));
}

/** Does installation `record` cover `repo` now? */
export function installationCovers(record: InstallationRecord, repo: EmulatedRepo): boolean {
  if (repo.owner.toLowerCase() !== record.account.toLowerCase()) return false;
  return record.repositorySelection === 'all' || record.repositoryIds.includes(repo.id);
}

/** Does the token `token` of installation `record` reach `repo`: covered by the installation, and by the token if narrowed? */
export function tokenCovers(record: InstallationRecord, token: InstallationTokenRecord, repo: EmulatedRepo): boolean {
  return installationCovers(record, repo) && (token.repositoryIds === null || token.repositoryIds.includes(repo.id));
}

/** The repositories the token `token` of installation `record` reaches now, in seed order. */
export function tokenRepos(world: World, record: InstallationRecord, token: InstallationTokenRecord): EmulatedRepo[] {
  return installationRepos(world, record).filter((repo) => token.repositoryIds === null || token.repositoryIds.includes(repo.id));
}

/** The installations on `user`'s own account and on the organisations they are a member of, by id. */
export function installationsReaching(world: World, apps: AppsState, user: EmulatedUser): InstallationRecord[] {
  return apps.installations().filter((record) => world.reachesAccount(user, record.account));
}

/**
 * The credential of an installation access token at `nowMs`: the App's bot user with the installation's grant. Undefined
 * (GitHub's 401 `Bad credentials`) for a token never minted, revoked, expired, of an uninstalled installation or of an
 * App the seed lacks; a 403 `This installation has been suspended` to throw for a suspended installation's.
 */
export function installationCredential(
  world: World,
  apps: AppsState,
  token: string,
  nowMs: number,
): EmulatedCredential | GitHubApiError | undefined {
  const record = apps.token(token);
  if (!record || Date.parse(record.expiresAt) <= nowMs) return undefined;
  const installation = apps.installation(record.installationId);
  const bot = installation === undefined ? undefined : world.botOf(installation.appId);
  if (!installation || !bot) return undefined;
  if (installation.suspendedAt !== null) return installationSuspended();
  return {
    user: bot,
    grant: {
      kind: 'installation',
      installationId: installation.id,
      appId: installation.appId,
      token,
      permissions: record.permissions,
      covers: (repo) => tokenCovers(installation, record, repo),
    },
  };
}
