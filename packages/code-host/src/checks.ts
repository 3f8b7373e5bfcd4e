import type { CheckRunsSummary, ChecksState, CombinedStatus } from './port.ts';

/**
 * The state of a commit's checks, statuses and check runs together, as a merge gate reads it: `failure` if either
 * failed; `pending` if either is pending (a combined status without any status counts as nothing to wait for, since
 * GitHub calls that `pending` too); else `success` (also when the commit has no checks at all).
 */
export function overallChecks(status: CombinedStatus, runs: CheckRunsSummary): ChecksState {
  const statusState = status.statuses.length === 0 ? 'success' : status.state;
  if (statusState === 'failure' || runs.state === 'failure') return 'failure';
  if (statusState === 'pending' || runs.state === 'pending') return 'pending';
  return 'success';
}
