import { CodeHostError } from '../errors.ts';
import type { CheckRunEntry, CheckRunsSummary, ChecksState, CodeHostPullRequest, CombinedStatus, CommitStatusEntry } from '../port.ts';

function unexpected(what: string): CodeHostError {
  return new CodeHostError('unavailable', `GitHub ${what}: unexpected response body`, { status: 200 });
}

const stringOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null);

function branchOf(value: unknown, what: string): { ref: string; sha: string } {
  const b = value as { ref?: unknown; sha?: unknown } | null;
  if (typeof b !== 'object' || b === null || typeof b.ref !== 'string' || typeof b.sha !== 'string') throw unexpected(what);
  return { ref: b.ref, sha: b.sha };
}

/**
 * GitHub's `pull-request` or `pull-request-simple` object (https://docs.github.com/rest/pulls/pulls) as a
 * {@link CodeHostPullRequest}: `merged` from `merged` or else `merged_at`; `mergeable` and `mergeable_state` null when
 * absent (listings); `nodeId` from `node_id`, null when absent.
 * @throws CodeHostError `unavailable` when the body is not a pull request
 */
export function toPullRequest(json: unknown, what: string): CodeHostPullRequest {
  const p = json as Record<string, unknown> | null;
  if (typeof p !== 'object' || p === null || !Number.isInteger(p.number) || typeof p.html_url !== 'string' || typeof p.title !== 'string') {
    throw unexpected(what);
  }
  if (p.state !== 'open' && p.state !== 'closed') throw unexpected(what);
  const labels = Array.isArray(p.labels) ? p.labels : [];
  return {
    number: p.number as number,
    nodeId: stringOrNull(p.node_id),
    htmlUrl: p.html_url,
    state: p.state,
    merged: typeof p.merged === 'boolean' ? p.merged : typeof p.merged_at === 'string',
    draft: p.draft === true,
    title: p.title,
    body: stringOrNull(p.body),
    head: branchOf(p.head, what),
    base: branchOf(p.base, what),
    mergeable: typeof p.mergeable === 'boolean' ? p.mergeable : null,
    mergeableState: stringOrNull(p.mergeable_state),
    labels: labels.flatMap((l: unknown) => {
      const name = typeof l === 'string' ? l : (l as { name?: unknown } | null)?.name;
      return typeof name === 'string' ? [name] : [];
    }),
    mergeCommitSha: stringOrNull(p.merge_commit_sha),
  };
}

const STATUS_STATES: ReadonlySet<string> = new Set(['error', 'failure', 'pending', 'success']);

/**
 * GitHub's `combined-commit-status` (https://docs.github.com/rest/commits/statuses#get-the-combined-status-for-a-specific-reference)
 * as a {@link CombinedStatus}. GitHub's combined `state` is `failure`, `pending` or `success`.
 * @throws CodeHostError `unavailable` when the body is not a combined status
 */
export function toCombinedStatus(json: unknown, what: string): CombinedStatus {
  const c = json as { sha?: unknown; state?: unknown; statuses?: unknown } | null;
  if (typeof c !== 'object' || c === null || typeof c.sha !== 'string' || !Array.isArray(c.statuses)) throw unexpected(what);
  const state: ChecksState = c.state === 'success' ? 'success' : c.state === 'failure' || c.state === 'error' ? 'failure' : 'pending';
  const statuses = c.statuses.map((entry: unknown): CommitStatusEntry => {
    const s = entry as Record<string, unknown> | null;
    if (
      typeof s !== 'object' ||
      s === null ||
      typeof s.context !== 'string' ||
      typeof s.state !== 'string' ||
      !STATUS_STATES.has(s.state)
    ) {
      throw unexpected(what);
    }
    return {
      context: s.context,
      state: s.state as CommitStatusEntry['state'],
      description: stringOrNull(s.description),
      targetUrl: stringOrNull(s.target_url),
    };
  });
  return { sha: c.sha, state, statuses };
}

/** Conclusions of a completed check run that do not block a merge (GitHub treats `neutral` and `skipped` as passing). */
const PASSING = new Set(['success', 'neutral', 'skipped']);

/**
 * Check runs (https://docs.github.com/rest/checks/runs#list-check-runs-for-a-git-reference) summarised: `pending` while
 * any run is not `completed`, `failure` when any concluded other than success/neutral/skipped, else `success` (also
 * when there are none).
 * @throws CodeHostError `unavailable` when an entry is not a check run
 */
export function toCheckRuns(runs: readonly unknown[], what: string): CheckRunsSummary {
  const entries = runs.map((entry): CheckRunEntry => {
    const r = entry as Record<string, unknown> | null;
    if (typeof r !== 'object' || r === null || typeof r.name !== 'string' || typeof r.status !== 'string') throw unexpected(what);
    return { name: r.name, status: r.status as CheckRunEntry['status'], conclusion: stringOrNull(r.conclusion) };
  });
  const state: ChecksState = entries.some((r) => r.status !== 'completed')
    ? 'pending'
    : entries.some((r) => !PASSING.has(r.conclusion ?? ''))
      ? 'failure'
      : 'success';
  return { state, runs: entries };
}
