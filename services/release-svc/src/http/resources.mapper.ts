import type { PullRequestJobResource, ReleaseNotificationResource, UpdateRunResource } from '@switchyard/contracts';
import type { PullRequestJobRow } from '../jobs/job.table.ts';
import type { PullRequestJobUpdateRow } from '../jobs/job-update.table.ts';
import type { NotificationView } from '../notifications/notification.service.ts';
import type { UpdateRunView } from '../update-runs/update-run.service.ts';

/** Domain values to the dependency update API's resource objects: string ids, dasherized attributes. */

/**
 * A `release-notifications` resource, from the notification, its outcome counts, its skipped and failed results and the
 * pull requests it caused;
 * `reason` says why a `rejected` one was not scanned (null otherwise).
 */
export function notificationResource({
  notification: n,
  configsTotal,
  counts,
  problems,
  pullRequests,
}: NotificationView): ReleaseNotificationResource {
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
      'pull-requests': pullRequests.map((p) => ({
        'repo-id': String(p.repoId),
        'update-config-id': String(p.updateConfigId),
        'pull-request-job-id': String(p.jobId),
        status: p.status,
        'pull-request-number': p.pullRequestNumber,
        'pull-request-url': p.pullRequestUrl,
      })),
    },
  };
}

/** A `pull-request-jobs` resource; a group's job (`group_name` set) with its `updates`, in order. */
export function jobResource(row: PullRequestJobRow, updates: readonly PullRequestJobUpdateRow[] = []): PullRequestJobResource {
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
      'status-reason': row.status_reason,
      'pull-request-number': row.pull_request_number,
      'pull-request-url': row.pull_request_url,
      unverified: row.unverified,
      'created-at': row.created_at.toISOString(),
      group:
        row.group_name === null
          ? null
          : {
              name: row.group_name,
              updates: updates.map((update) => ({
                'dependency-name': update.dependency_name,
                'dependency-type': update.dependency_type,
                'version-in-use': update.version_in_use,
                'target-version': update.target_version,
                'update-kind': update.update_kind,
              })),
            },
    },
    relationships: {
      repo: { data: { id: String(row.repo_id), type: 'repos' } },
      'update-config': { data: { id: String(row.update_config_id), type: 'update-configs' } },
      'release-notification': { data: row.notification_id ? { id: row.notification_id, type: 'release-notifications' } : null },
      'update-run': { data: row.update_run_id ? { id: row.update_run_id, type: 'update-runs' } : null },
    },
  };
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** An `update-runs` resource: the run, each dependency decided so far, and its jobs. */
export function updateRunResource({ run, dependencies, jobIds }: UpdateRunView): UpdateRunResource {
  return {
    id: run.id,
    type: 'update-runs',
    attributes: {
      trigger: run.trigger,
      status: run.status,
      slot: iso(run.slot),
      'created-at': run.created_at.toISOString(),
      'started-at': iso(run.started_at),
      'finished-at': iso(run.finished_at),
      'dependencies-total': run.dependencies_total,
      'dependencies-checked': run.dependencies_checked,
      'jobs-recorded': run.jobs_recorded,
      'job-limit': run.job_limit,
      'skipped-declarations': run.skipped_declarations,
      error: run.error,
      'error-kind': run.error_kind,
      dependencies: dependencies.map((d) => ({
        name: d.name,
        'dependency-type': d.dependency_type,
        requirement: d.requirement,
        'version-in-use': d.version_in_use,
        'latest-version': d.latest_version,
        'latest-allowed-version': d.latest_allowed_version,
        outcome: d.outcome,
        reason: d.reason,
        'error-kind': d.error_kind,
        registry: d.registry,
        'pull-request-job-id': d.job_id === null ? null : String(d.job_id),
        group: d.group_name,
      })),
    },
    relationships: {
      'update-config': { data: { id: String(run.update_config_id), type: 'update-configs' } },
      repo: { data: { id: String(run.repo_id), type: 'repos' } },
      'release-notification': { data: run.notification_id ? { id: run.notification_id, type: 'release-notifications' } : null },
      'pull-request-jobs': { data: jobIds.map((id) => ({ id: String(id), type: 'pull-request-jobs' as const })) },
    },
  };
}
