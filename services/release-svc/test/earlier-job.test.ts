import { describe, expect, it } from 'vitest';
import { earlierJobOutcome } from '../src/pipeline/record/earlier-job.policy.ts';

// What a run says of an update whose earlier job stands in the way of a new one.
describe('earlierJobOutcome', () => {
  const job = {
    id: 7,
    status: 'open' as const,
    ignored: false,
    pull_request_number: 12,
    target_version: '4.17.22',
    status_reason: null,
    waits_for_job_id: null,
  };

  it('an open pull request, or one still to be opened, is pr-open with its number or job', () => {
    expect(earlierJobOutcome(job)).toEqual({ outcome: 'pr-open', note: 'pull request #12 for 4.17.22 is open' });
    expect(earlierJobOutcome({ ...job, status: 'running', pull_request_number: null })).toEqual({
      outcome: 'pr-open',
      note: 'the pull request for 4.17.22 is being opened (job 7)',
    });
    expect(earlierJobOutcome({ ...job, status: 'queued-limit', pull_request_number: null })).toEqual({
      outcome: 'pr-open',
      note: 'the pull request for 4.17.22 waits for the open pull-request limit (job 7)',
    });
  });

  it('a job waiting for an older pull request someone else pushed to says which', () => {
    const reason =
      "waits for pull request #9 (lodash 4.17.21), which has commits by someone else: it stays the dependency's one pull request until it is merged or closed";
    expect(
      earlierJobOutcome({ ...job, status: 'queued-limit', pull_request_number: null, status_reason: reason, waits_for_job_id: 3 }),
    ).toEqual({
      outcome: 'pr-open',
      note: `the pull request for 4.17.22 ${reason}`,
    });
  });

  it('an ignored version and a failed job are skipped, saying why', () => {
    expect(earlierJobOutcome({ ...job, status: 'closed', ignored: true })).toEqual({
      outcome: 'skipped',
      note: 'ignored: pull request #12 for 4.17.22 was closed unmerged; reopening it undoes that',
    });
    expect(earlierJobOutcome({ ...job, status: 'failed', status_reason: 'needs-resolution: no lockfile entry' })).toEqual({
      outcome: 'skipped',
      note: 'the job for 4.17.22 failed: needs-resolution: no lockfile entry',
    });
  });
});
