import type { PullRequestJobRow } from '../../jobs/job.table.ts';

/**
 * What a run says of an update whose job was recorded earlier and stands in the way of a new one (`insertJobOnce`):
 * `pr-open` while that job is under way (its pull request open, with its number, or still to be opened), `skipped` when
 * a person closed its pull request unmerged (the version is ignored) or it failed; `note` says which, in words.
 */
export function earlierJobOutcome(
  job: Pick<
    PullRequestJobRow,
    'id' | 'status' | 'ignored' | 'pull_request_number' | 'target_version' | 'status_reason' | 'waits_for_job_id'
  >,
): { outcome: 'pr-open' | 'skipped'; note: string } {
  const version = job.target_version;
  if (job.status === 'open') return { outcome: 'pr-open', note: `pull request #${job.pull_request_number} for ${version} is open` };
  if (job.status === 'queued-limit' && job.waits_for_job_id !== null) {
    return { outcome: 'pr-open', note: `the pull request for ${version} ${job.status_reason ?? 'waits for an older pull request'}` };
  }
  if (job.status === 'queued-limit') {
    return { outcome: 'pr-open', note: `the pull request for ${version} waits for the open pull-request limit (job ${job.id})` };
  }
  if (job.status === 'pending' || job.status === 'running') {
    return { outcome: 'pr-open', note: `the pull request for ${version} is being opened (job ${job.id})` };
  }
  if (job.ignored) {
    return {
      outcome: 'skipped',
      note: `ignored: pull request #${job.pull_request_number} for ${version} was closed unmerged; reopening it undoes that`,
    };
  }
  return { outcome: 'skipped', note: `the job for ${version} failed: ${job.status_reason ?? 'no reason recorded'}` };
}
