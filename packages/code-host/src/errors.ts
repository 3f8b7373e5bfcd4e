/**
 * Why a code host call failed:
 * - `unauthorized`: the token is missing, malformed, expired or revoked (GitHub 401);
 * - `forbidden`: the token is valid but may not do this (GitHub 403 other than a rate limit);
 * - `not_found`: the resource does not exist or the token cannot see it (GitHub 404/410);
 * - `rate_limited`: a primary or secondary rate limit was hit (GitHub 403/429); see `retryAfterSeconds`;
 * - `unavailable`: the platform did not answer in time, could not be reached, or answered 5xx or something unexpected.
 */
export type CodeHostErrorKind = 'unauthorized' | 'forbidden' | 'not_found' | 'rate_limited' | 'unavailable';

/** Options of {@link CodeHostError}. */
export interface CodeHostErrorOptions {
  /** The upstream HTTP status, or 0 when there was no answer (timeout, connection refused) or no call was made. */
  status?: number;
  /** For `rate_limited` (and a 503 with `retry-after`): whole seconds until a retry may succeed. */
  retryAfterSeconds?: number;
  cause?: unknown;
}

/**
 * The one error type the code host port rejects with. `kind` says what happened (see {@link CodeHostErrorKind}),
 * `status` is the upstream HTTP status (0 when there was none) and `retryAfterSeconds` is set for rate limits.
 * Messages never contain tokens.
 */
export class CodeHostError extends Error {
  readonly kind: CodeHostErrorKind;
  readonly status: number;
  readonly retryAfterSeconds: number | undefined;

  constructor(kind: CodeHostErrorKind, message: string, options: CodeHostErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'CodeHostError';
    this.kind = kind;
    this.status = options.status ?? 0;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/** Is `error` a {@link CodeHostError} (of `kind`, when given)? */
export function isCodeHostError(error: unknown, kind?: CodeHostErrorKind): error is CodeHostError {
  return error instanceof CodeHostError && (kind === undefined || error.kind === kind);
}
