import {
  CodeHostUnavailable,
  type DomainError,
  Forbidden,
  InvalidInput,
  NotFound,
  PreconditionFailed,
  RateLimited,
  Unauthenticated,
} from '@switchyard/service-kit';

/**
 * Why a code host call failed:
 * - `unauthorized`: the token is missing, malformed, expired or revoked (GitHub 401);
 * - `forbidden`: the token is valid but may not do this (GitHub 403 other than a rate limit);
 * - `not_found`: the resource does not exist or the token cannot see it (GitHub 404/410);
 * - `rate_limited`: a primary or secondary rate limit was hit (GitHub 403/429); see `retryAfterSeconds`;
 * - `unavailable`: the platform did not answer in time, could not be reached, or answered 5xx or something unexpected;
 * - `too_large`: a file or an answer is bigger than the client accepts (`maxResponseBytes` of the GitHub adapter); see
 *   `limitBytes` and `sizeBytes`. Asking again gets the same answer, so it is never retried.
 * - `conflict`: a write the repository's current state refuses: a branch that moved (GitHub 409, or 422 "not a fast
 *   forward"), a ref that already exists (422), a pull request that cannot be merged (405);
 * - `invalid`: a write whose input the platform rejects (GitHub 422 `Validation Failed` / `Invalid request`, 400).
 */
export type CodeHostErrorKind =
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'rate_limited'
  | 'unavailable'
  | 'too_large'
  | 'conflict'
  | 'invalid';

/** Options of {@link CodeHostError}. */
export interface CodeHostErrorOptions {
  /** The upstream HTTP status, or 0 when there was no answer (timeout, connection refused) or no call was made. */
  status?: number;
  /** For `rate_limited` (and a 503 with `retry-after`): whole seconds until a retry may succeed. */
  retryAfterSeconds?: number;
  /** For `too_large`: the most bytes the client accepts in one answer or file. */
  limitBytes?: number;
  /** For `too_large`: the file's or answer's size in bytes, when the platform said it (else only "over `limitBytes`" is known). */
  sizeBytes?: number;
  cause?: unknown;
}

/**
 * The one error type the code host port rejects with. `kind` says what happened (see {@link CodeHostErrorKind}),
 * `status` is the upstream HTTP status (0 when there was none), `retryAfterSeconds` is set for rate limits, and
 * `limitBytes` (with `sizeBytes` when known) for `too_large`. Messages never contain tokens.
 */
export class CodeHostError extends Error {
  readonly kind: CodeHostErrorKind;
  readonly status: number;
  readonly retryAfterSeconds: number | undefined;
  readonly limitBytes: number | undefined;
  readonly sizeBytes: number | undefined;

  constructor(kind: CodeHostErrorKind, message: string, options: CodeHostErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'CodeHostError';
    this.kind = kind;
    this.status = options.status ?? 0;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.limitBytes = options.limitBytes;
    this.sizeBytes = options.sizeBytes;
  }
}

/**
 * `error` when it is a {@link CodeHostError} saying the code host is down or rate-limited (`unavailable`,
 * `rate_limited`: a later attempt may succeed), else undefined.
 */
export function transientCodeHostError(error: unknown): CodeHostError | undefined {
  return error instanceof CodeHostError && (error.kind === 'unavailable' || error.kind === 'rate_limited') ? error : undefined;
}

/** Is `error` a {@link CodeHostError} (of `kind`, when given)? */
export function isCodeHostError(error: unknown, kind?: CodeHostErrorKind): error is CodeHostError {
  return error instanceof CodeHostError && (kind === undefined || error.kind === kind);
}

/**
 * What a failure of the code host means for the caller on whose behalf it was asked, as a domain error whose
 * message is fit for that caller: a rejected token `Unauthenticated`, a refusal `Forbidden`, `NotFound`, a rate
 * limit `RateLimited` (with the seconds to wait, 60 when GitHub gave none), an answer over the size limit
 * `CodeHostUnavailable` saying so, a `conflict` `PreconditionFailed`, an `invalid` `InvalidInput`, anything else
 * `CodeHostUnavailable`.
 * Errors that are not a {@link CodeHostError} come back as they are.
 */
export function callerFacingError(error: unknown): DomainError | unknown {
  if (!(error instanceof CodeHostError)) return error;
  const cause = { cause: error };
  switch (error.kind) {
    case 'unauthorized':
      return new Unauthenticated('Bad credentials: the code host rejected the access token', cause);
    case 'forbidden':
      return new Forbidden('The code host refused this access token the information it needs', cause);
    case 'not_found':
      return new NotFound('Not found on the code host', cause);
    case 'rate_limited':
      return new RateLimited('The code host rate limit for this access token is exhausted; retry later', {
        ...cause,
        retryAfterSeconds: error.retryAfterSeconds ?? 60,
      });
    case 'too_large':
      return new CodeHostUnavailable("The code host's answer is larger than this service accepts", cause);
    case 'conflict':
      return new PreconditionFailed('The code host refused the change: the repository has changed meanwhile or cannot take it', cause);
    case 'invalid':
      return new InvalidInput('The code host rejected the request as invalid', cause);
    default:
      return new CodeHostUnavailable('The code host did not answer; retry later', cause);
  }
}
