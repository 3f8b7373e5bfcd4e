import { formatBytes } from '../byte-size.ts';
import { CodeHostError, isCodeHostError } from '../errors.ts';
import { isTimeout, isTooLarge } from './bounded-fetch.ts';

/** The parts of an Octokit `RequestError` (from `@octokit/request-error`) the mapping reads. */
interface OctokitErrorLike {
  status?: unknown;
  message?: unknown;
  response?: { status: number; headers: Record<string, string | number | undefined>; data?: unknown };
}

/** Seconds to wait when GitHub signals a rate limit without saying for how long (GitHub's docs: "at least one minute"). */
const FALLBACK_RETRY_AFTER_SECONDS = 60;

function header(headers: Record<string, string | number | undefined>, name: string): string | undefined {
  const value = headers[name];
  return value === undefined ? undefined : String(value);
}

/** Whole seconds from `retry-after` (seconds or an HTTP date) or else `x-ratelimit-reset` (epoch seconds); at least 1. */
export function retryAfterSecondsFrom(headers: Record<string, string | number | undefined>, now = Date.now()): number | undefined {
  const retryAfter = header(headers, 'retry-after');
  if (retryAfter !== undefined) {
    const seconds = /^\d+$/.test(retryAfter.trim()) ? Number(retryAfter) : Math.ceil((Date.parse(retryAfter) - now) / 1000);
    if (Number.isFinite(seconds)) return Math.max(1, seconds);
  }
  const reset = Number(header(headers, 'x-ratelimit-reset'));
  if (header(headers, 'x-ratelimit-remaining') === '0' && Number.isFinite(reset) && reset > 0) {
    return Math.max(1, Math.ceil(reset - now / 1000));
  }
  return undefined;
}

/**
 * Does a 403/429 mean a rate limit? GitHub's rules (https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api):
 * a primary limit has `x-ratelimit-remaining: 0`; a secondary limit has `retry-after` or says "secondary rate limit";
 * 429 always means too many requests.
 */
function isRateLimit(status: number, headers: Record<string, string | number | undefined>, message: string): boolean {
  if (status === 429) return true;
  return (
    status === 403 &&
    (header(headers, 'x-ratelimit-remaining') === '0' || header(headers, 'retry-after') !== undefined || /rate limit/i.test(message))
  );
}

/** GitHub's own `message` from an error body, when there is one. */
/**
 * GitHub's `message`, with the details of a validation failure's `errors` (each one's `message`, else its `code`, e.g.
 * `Validation Failed: A pull request already exists for acme:branch.` or `Validation Failed: already_exists`).
 */
function upstreamMessage(response: OctokitErrorLike['response']): string {
  const data = response?.data as { message?: unknown; errors?: unknown } | undefined;
  const message = typeof data?.message === 'string' ? data.message : '';
  const details = (Array.isArray(data?.errors) ? data.errors : []).flatMap((entry: unknown) => {
    const item = entry as { message?: unknown; code?: unknown } | null;
    if (typeof item?.message === 'string' && item.message !== '') return [item.message];
    return typeof item?.code === 'string' ? [item.code] : [];
  });
  return details.length === 0 ? message : `${message}: ${details.join('; ')}`;
}

/**
 * Maps what an Octokit call threw to a {@link CodeHostError}; `what` names the call in messages (e.g. `GET /user`).
 * - the client's timeout, a network error (status 500 without response) → `unavailable`, status 0;
 * - an answer over the client's size limit → `too_large` with `limitBytes` (and `sizeBytes` when it was declared);
 * - 401 → `unauthorized`; 403/429 that is a rate limit → `rate_limited` with `retryAfterSeconds`; other 403 and 451 → `forbidden`;
 * - 404, 410 → `not_found`; 5xx → `unavailable` (with `retryAfterSeconds` when `retry-after` was sent);
 * - 409 and 405 → `conflict` (a moved head, a pull request that cannot be merged); 422 → `conflict` when GitHub says
 *   something already exists (a ref, a label, a pull request for the branch: in its message or an `errors[].code`
 *   `already_exists`) or the update is not a fast forward, else `invalid`; 400 → `invalid`;
 * - any other status → `unavailable` (GitHub refused a request this adapter should not make).
 * A {@link CodeHostError} is returned unchanged; anything that is not an Octokit error (a bug) is returned unchanged too.
 */
export function toCodeHostError(error: unknown, what: string): unknown {
  if (error instanceof CodeHostError) return error;
  if (isTooLarge(error)) {
    const size = error.sizeBytes === undefined ? '' : ` (${formatBytes(error.sizeBytes)})`;
    return new CodeHostError('too_large', `GitHub ${what}: the answer is over the ${formatBytes(error.limitBytes)} limit${size}`, {
      status: error.responseStatus,
      limitBytes: error.limitBytes,
      ...(error.sizeBytes === undefined ? {} : { sizeBytes: error.sizeBytes }),
    });
  }
  if (isTimeout(error)) {
    return new CodeHostError('unavailable', `GitHub ${what}: no answer within ${error.timeoutMs} ms`, { status: 0 });
  }
  const e = error as OctokitErrorLike | null;
  if (typeof e?.status !== 'number') return error;
  const response = e.response;
  if (!response) {
    const reason = typeof e.message === 'string' ? e.message : 'request failed';
    return new CodeHostError('unavailable', `GitHub ${what}: not reachable (${reason})`, { status: 0 });
  }
  const status = response.status;
  const headers = response.headers ?? {};
  const message = upstreamMessage(response);
  const said = message ? ` (${status} ${message})` : ` (${status})`;
  if (status === 401) return new CodeHostError('unauthorized', `GitHub ${what}: the token was rejected${said}`, { status });
  if (isRateLimit(status, headers, message)) {
    const retryAfterSeconds = retryAfterSecondsFrom(headers) ?? FALLBACK_RETRY_AFTER_SECONDS;
    return new CodeHostError('rate_limited', `GitHub ${what}: rate limited for ${retryAfterSeconds} s${said}`, {
      status,
      retryAfterSeconds,
    });
  }
  if (status === 403 || status === 451) return new CodeHostError('forbidden', `GitHub ${what}: forbidden${said}`, { status });
  if (status === 404 || status === 410) return new CodeHostError('not_found', `GitHub ${what}: not found${said}`, { status });
  if (status === 409 || status === 405)
    return new CodeHostError('conflict', `GitHub ${what}: refused by the repository's state${said}`, { status });
  if (status === 422 && /already.exists|not a fast.?forward/i.test(message)) {
    return new CodeHostError('conflict', `GitHub ${what}: refused by the repository's state${said}`, { status });
  }
  if (status === 422 || status === 400) return new CodeHostError('invalid', `GitHub ${what}: rejected as invalid${said}`, { status });
  const retryAfterSeconds = status >= 500 ? retryAfterSecondsFrom(headers) : undefined;
  return new CodeHostError(
    'unavailable',
    status >= 500 ? `GitHub ${what}: server error${said}` : `GitHub ${what}: unexpected answer${said}`,
    retryAfterSeconds === undefined ? { status } : { status, retryAfterSeconds },
  );
}

/** GitHub's `message` for the Git Database API on a repository without any commit. */
export const EMPTY_REPOSITORY_MESSAGE = 'Git Repository is empty.';

/**
 * Is `error` GitHub's answer to a Git Database API request (`/repos/{owner}/{repo}/git/…`) on a repository without any
 * commit, as {@link toCodeHostError} maps it: a `conflict` with status 409 whose message carries GitHub's
 * `Git Repository is empty.` ("Git Database API functions will return a 409 Conflict if the Git repository is empty or
 * unavailable", https://docs.github.com/rest/guides/using-the-rest-api-to-interact-with-your-git-database; the body
 * `{"message":"Git Repository is empty.","documentation_url":"https://docs.github.com/rest/git/refs#get-a-reference","status":"409"}`).
 * Such a repository has no branch, ref or tree at all, so a read asking for one finds none. Any other value, another
 * 409 (a pull request's head that moved) included, is not.
 */
export function isEmptyRepositoryError(error: unknown): boolean {
  return isCodeHostError(error, 'conflict') && error.status === 409 && error.message.includes(EMPTY_REPOSITORY_MESSAGE);
}
