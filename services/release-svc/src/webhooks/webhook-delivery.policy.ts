/**
 * When a webhook delivery's event happened by its payload (ms since the epoch), or undefined when it does not say:
 * `pull_request.updated_at`; for `push`, `repository.pushed_at` in the push event's form (Unix seconds, a number). A
 * push's `head_commit.timestamp` is when that commit was made, not when it was pushed (a branch created at an old commit
 * is a new push). The webhook route refuses a delivery whose event is older than `WEBHOOK_MAX_AGE_MS` by this time.
 */
export function eventTime(payload: unknown): number | undefined {
  const p = payload as { pull_request?: { updated_at?: unknown }; repository?: { pushed_at?: unknown } } | null;
  const updatedAt = p?.pull_request?.updated_at;
  if (typeof updatedAt === 'string') {
    const time = Date.parse(updatedAt);
    return Number.isNaN(time) ? undefined : time;
  }
  const pushedAt = p?.repository?.pushed_at;
  return typeof pushedAt === 'number' && Number.isFinite(pushedAt) ? pushedAt * 1000 : undefined;
}
