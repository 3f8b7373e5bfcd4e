import type { RepoPermission } from './port.ts';

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
