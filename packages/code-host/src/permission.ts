import type { CodeHostRepo, RepoPermission, TokenCapability } from './port.ts';

/** GitHub's `permissions` object on a repository (REST `repository.permissions`); absent flags count as false. */
export interface GitHubPermissions {
  admin?: boolean;
  maintain?: boolean;
  push?: boolean;
  triage?: boolean;
  pull?: boolean;
}

/**
 * Maps GitHub's `permissions` object to a {@link RepoPermission}: admin → `admin`; maintain or push → `write`;
 * triage or pull → `read`; none of them (or no object, as for unauthenticated calls) → `none`.
 * See https://docs.github.com/rest/repos/repos#get-a-repository (the `permissions` field).
 */
export function repoPermissionFrom(permissions: GitHubPermissions | null | undefined): RepoPermission {
  if (!permissions) return 'none';
  if (permissions.admin) return 'admin';
  if (permissions.maintain || permissions.push) return 'write';
  if (permissions.triage || permissions.pull) return 'read';
  return 'none';
}

const rank: Record<RepoPermission, number> = { none: 0, read: 1, write: 2, admin: 3 };

/** Does `actual` allow what `required` allows (none < read < write < admin)? */
export function permissionAtLeast(actual: RepoPermission, required: RepoPermission): boolean {
  return rank[actual] >= rank[required];
}

/**
 * The OAuth scope a token lacks to act for its user on `repo` beyond reading it, or undefined when it has it.
 * GitHub's rule for classic tokens: `repo` covers every repository, `public_repo` only public ones
 * (https://docs.github.com/apps/oauth-apps/building-oauth-apps/scopes-for-oauth-apps); a token without either is
 * read-only whatever its user's role. A `per-repo` token (fine-grained, GitHub App) has no scopes: what it may do
 * is already part of `repo.permission`, so nothing is missing here.
 * @returns `'repo'` when the token has neither `repo` nor, for a public repo, `public_repo` (`repo` is the scope the
 *   dependency update API asks for); undefined otherwise
 */
export function missingWriteScope(capability: TokenCapability, repo: Pick<CodeHostRepo, 'private'>): 'repo' | undefined {
  if (capability.kind === 'per-repo') return undefined;
  const scopes = new Set(capability.scopes);
  if (scopes.has('repo') || (!repo.private && scopes.has('public_repo'))) return undefined;
  return 'repo';
}
