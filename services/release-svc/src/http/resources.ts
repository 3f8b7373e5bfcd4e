import type { PullRequestJobResource, ReleaseNotificationResource } from '@switchyard/contracts';
import type { PullRequestJobRow } from '../db/schema.ts';
import type { NotificationView } from '../notifications/notification.service.ts';

/** Domain values to the dependency update API's resource objects: string ids, dasherized attributes. */

/**
 * A `release-notifications` resource, from the notification, its outcome counts and its skipped and failed results;
 * `reason` says why a `rejected` one was not scanned (null otherwise).
 */
export function notificationResource({ notification: n, configsTotal, counts, problems }: NotificationView): ReleaseNotificationResource {
  return {
    id: n.id,
    type: 'release-notifications',
    attributes: {
      name: n.name,
      version: n.version,
      'package-manager': n.package_manager,
      status: n.status,
      reason: n.reason,
      'configs-total': configsTotal,
      'repos-scanned': Object.values(counts).reduce((sum, count) => sum + count, 0),
      'jobs-recorded': counts['job-recorded'] ?? 0,
      'repos-skipped': counts.skipped ?? 0,
      'repos-failed': counts.failed ?? 0,
      'created-at': n.created_at.toISOString(),
      'finished-at': n.finished_at ? n.finished_at.toISOString() : null,
      outcomes: problems.map((p) => ({
        'repo-id': String(p.repoId),
        'update-config-id': String(p.updateConfigId),
        outcome: p.outcome,
        reason: p.reason,
      })),
    },
  };
}

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
      'package-manager': row.package_manager,
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
