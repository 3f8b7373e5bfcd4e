import type { Caller } from '@switchyard/code-host';
import type { PullRequestJobResource, PullRequestJobsQuery } from '@switchyard/contracts';
import type { Kysely } from 'kysely';
import type { PullRequestJobRow, ReleaseDatabase } from '../db/schema.ts';
import { listJobs } from './job.repository.ts';

/** Jobs per page of `GET /pull_request_jobs`. */
export const JOBS_PAGE_SIZE = 100;

/** A `pull-request-jobs` resource. */
export function jobResource(row: PullRequestJobRow): PullRequestJobResource {
  return {
    id: String(row.id),
    type: 'pull-request-jobs',
    attributes: {
      'dependency-name': row.dependency_name,
      'dependency-type': row.dependency_type,
      'version-in-use': row.version_in_use,
      'target-version': row.target_version,
      'update-kind': row.update_kind,
      automerge: row.automerge,
      'security-fix': row.security_fix,
      'target-branch': row.target_branch,
      directory: row.directory,
      'package-manager': row.package_manager as PullRequestJobResource['attributes']['package-manager'],
      status: row.status,
      'created-at': row.created_at.toISOString(),
    },
    relationships: {
      repo: { data: { id: String(row.repo_id), type: 'repos' } },
      'update-config': { data: { id: String(row.update_config_id), type: 'update-configs' } },
      'release-notification': { data: { id: row.notification_id, type: 'release-notifications' } },
    },
  };
}

/** `GET /pull_request_jobs`: jobs on repos of the accounts the caller reaches, filtered, newest first, 100 a page. */
export async function listCallerJobs(
  db: Kysely<ReleaseDatabase>,
  caller: Caller,
  query: PullRequestJobsQuery,
): Promise<{ data: PullRequestJobResource[]; next: number | null }> {
  const { rows, more } = await listJobs(
    db,
    {
      accountIds: caller.accounts.map((account) => account.id),
      repoId: query['repo-id'],
      dependencyName: query['dependency-name'],
      notificationId: query['notification-id'],
    },
    query.page,
    JOBS_PAGE_SIZE,
  );
  return { data: rows.map(jobResource), next: more ? query.page + 1 : null };
}
