import type { RepoRole } from '../seed.ts';
import type { AppPermissions, PermissionLevel } from '../seed-apps.ts';
import { APP_MESSAGES } from './messages.ts';

/**
 * What an installation access token may do on a repository it covers, by GitHub App permission
 * (https://docs.github.com/rest/authentication/permissions-required-for-github-apps).
 */

const levelRank: Record<PermissionLevel, number> = { read: 1, write: 2, admin: 3 };

/** The permission a request needs: any one of `names` at `level` or above (`metadata: read` is every App's). */
export interface NeededPermission {
  names: readonly string[];
  level: 'read' | 'write';
}

/**
 * The repository permission GitHub asks of an App for `method path` (a path of `/repos/{owner}/{repo}/…`), as
 * https://docs.github.com/rest/authentication/permissions-required-for-github-apps lists them: check runs and check
 * suites (`/check-runs…`, `/check-suites…`, `/commits/{ref}/check-runs`, `/commits/{ref}/check-suites`) → `checks`;
 * commit statuses (`/statuses/{sha}`, `/commits/{ref}/status`, `/commits/{ref}/statuses`) → `statuses`; contents, git
 * data, branches, comparisons, commits, releases, merging a pull request or updating its branch → `contents`; pull
 * requests → `pull_requests`; issues, their comments, labels, milestones and assignees → `issues` or `pull_requests`
 * (GitHub takes either, since every pull request is an issue); anything else (the repository, its tags, collaborators'
 * permissions) → `metadata`. Reads (GET, HEAD) need read, the rest write.
 */
export function installationPermissionFor(method: string, path: string): NeededPermission {
  const level = method === 'GET' || method === 'HEAD' ? 'read' : 'write';
  const under = (pattern: RegExp) => pattern.test(path);
  if (under(/^\/repos\/[^/]+\/[^/]+\/(check-runs|check-suites)(\/|$)|^\/repos\/[^/]+\/[^/]+\/commits\/.+\/(check-runs|check-suites)$/)) {
    return { names: ['checks'], level };
  }
  if (under(/^\/repos\/[^/]+\/[^/]+\/(statuses|commits\/.+\/(status|statuses)$)/)) return { names: ['statuses'], level };
  if (under(/^\/repos\/[^/]+\/[^/]+\/pulls\/[^/]+\/(merge|update-branch)$/) && level === 'write') return { names: ['contents'], level };
  if (under(/^\/repos\/[^/]+\/[^/]+\/(contents|git|branches|compare|commits|releases)(\/|$)/)) return { names: ['contents'], level };
  if (under(/^\/repos\/[^/]+\/[^/]+\/pulls(\/|$)/)) return { names: ['pull_requests'], level };
  if (under(/^\/repos\/[^/]+\/[^/]+\/(issues|labels|milestones|assignees)(\/|$)/)) return { names: ['issues', 'pull_requests'], level };
  return { names: ['metadata'], level: 'read' };
}

/** Do `permissions` grant `needed`? `metadata: read` is always granted. */
export function grants(permissions: Readonly<AppPermissions>, needed: NeededPermission): boolean {
  if (needed.level === 'read' && needed.names.includes('metadata')) return true;
  return needed.names.some((name) => {
    const held = permissions[name];
    return held !== undefined && levelRank[held] >= levelRank[needed.level];
  });
}

/** Permissions that act on a repository's content (as opposed to `metadata`, or an organisation's or a user's). */
const REPOSITORY_WRITES = ['contents', 'pull_requests', 'issues', 'statuses', 'checks', 'deployments', 'actions', 'workflows', 'pages'];

/**
 * The role an installation token with `permissions` has on a repository it covers, for the role checks the routes share
 * with users and for the `permissions` object of a repository: `admin` with `administration: write`, `write` with any
 * write permission on the repository's content, else `read`. The routes then check the permission the request needs
 * ({@link installationPermissionFor}), so a token that may write issues still cannot push.
 */
export function installationRole(permissions: Readonly<AppPermissions>): RepoRole {
  if (permissions.administration === 'write' || permissions.administration === 'admin') return 'admin';
  const writes = REPOSITORY_WRITES.some((name) => {
    const held = permissions[name];
    return held === 'write' || held === 'admin';
  });
  return writes ? 'write' : 'read';
}

/**
 * The permissions of a token asked for `requested` on an installation granted `granted`: `requested` itself when each
 * is granted at that level or above (422 messages of {@link APP_MESSAGES} otherwise), with `metadata: read` (every
 * token has it), or `granted` when nothing was asked.
 * @returns the permissions, or the refusal's message
 */
export function narrowPermissions(granted: Readonly<AppPermissions>, requested: unknown): AppPermissions | { error: string } {
  if (requested === undefined || requested === null) return { ...granted };
  if (typeof requested !== 'object' || Array.isArray(requested)) return { error: APP_MESSAGES.permissionActionUnsupported };
  const asked = Object.entries(requested as Record<string, unknown>);
  if (asked.some(([, level]) => level !== 'read' && level !== 'write' && level !== 'admin')) {
    return { error: APP_MESSAGES.permissionActionUnsupported };
  }
  const out: AppPermissions = granted.metadata === undefined ? {} : { metadata: 'read' };
  for (const [name, level] of asked as [string, PermissionLevel][]) {
    const held = granted[name];
    if (held === undefined || levelRank[held] < levelRank[level]) return { error: APP_MESSAGES.permissionsNotGranted };
    out[name] = level;
  }
  return out;
}
