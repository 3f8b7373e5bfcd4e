import type { PullRequestJobStatus } from '@switchyard/contracts';

/** The statuses of a job still under way: its pull request open, or still to be opened. */
export const LIVE_STATUSES: readonly PullRequestJobStatus[] = ['pending', 'queued-limit', 'running', 'open'];

/**
 * What a person closing a pull request unmerged means, in the job's `status-reason`: Dependabot's rule, that version is
 * not proposed again for the config (a newer one is), until the pull request is reopened.
 */
export const IGNORED = 'this version is not proposed again for the config until the pull request is reopened';

/**
 * What this service says on a pull request a person closed unmerged, as Dependabot did ("OK, I won't notify you about
 * <dependency> again, unless you re-open this PR", https://docs.github.com/code-security/dependabot/working-with-dependabot/managing-pull-requests-for-dependency-updates):
 * here for that version only, since a newer one is proposed again; for a group's pull request, for those updates together.
 */
export function ignoredNotice(job: { dependency_name: string; target_version: string; group_name: string | null }): string {
  if (job.group_name !== null) {
    return `OK, I won't propose these updates of the ${job.group_name} group again for this configuration. Reopen this pull request to undo that; a newer version of any of them will still be proposed.`;
  }
  return `OK, I won't propose ${job.dependency_name} ${job.target_version} again for this configuration. Reopen this pull request to undo that; a newer version will still be proposed.`;
}
