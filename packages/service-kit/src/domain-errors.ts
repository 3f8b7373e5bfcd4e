import type { ProblemFieldError } from '@switchyard/contracts';

/**
 * What went wrong, by meaning rather than by status: domain services throw a {@link DomainError} of one of
 * these kinds and know nothing of HTTP; {@link statusOf} gives the status a wire format answers with.
 */
export type DomainErrorKind =
  | 'invalid'
  | 'not_found'
  | 'already_exists'
  | 'conflict'
  | 'forbidden'
  | 'unauthenticated'
  | 'precondition_failed'
  | 'rate_limited'
  | 'upstream_failed'
  | 'upstream_timeout'
  | 'unavailable';

/** Options of {@link DomainError}: the invalid fields of an `invalid` error, a retry delay, the cause. */
export interface DomainErrorOptions {
  /** Field by field, what is wrong (JSON Pointer or parameter name, and a detail naming the problem). */
  errors?: ProblemFieldError[];
  /** Whole seconds after which a retry may succeed (`rate_limited`, `unavailable`). */
  retryAfterSeconds?: number;
  cause?: unknown;
}

/**
 * Base of the errors a domain service throws. `message` is written for the client (it becomes the answer's
 * detail), so it must never carry secrets, stack traces or internal addresses; `kind` says what happened.
 */
export class DomainError extends Error {
  readonly kind: DomainErrorKind;
  readonly errors: ProblemFieldError[] | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(kind: DomainErrorKind, message: string, options: DomainErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'DomainError';
    this.kind = kind;
    this.errors = options.errors;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/**
 * The base of one named domain error: `new NotFound(message, options?)` is a {@link DomainError} of kind `not_found`
 * named `NotFound`, and `instanceof NotFound` tells it apart from errors of other names of the same kind.
 */
function namedDomainError(kind: DomainErrorKind, name: string) {
  return class extends DomainError {
    constructor(message: string, options: DomainErrorOptions = {}) {
      super(kind, message, options);
      this.name = name;
    }
  };
}

/** The request's values break a rule the schema cannot express (e.g. a repo of another account). */
export class InvalidInput extends namedDomainError('invalid', 'InvalidInput') {}

/** The resource does not exist, or the caller may not know that it does. */
export class NotFound extends namedDomainError('not_found', 'NotFound') {}

/** A resource with the same identity already exists. */
export class AlreadyExists extends namedDomainError('already_exists', 'AlreadyExists') {}

/**
 * The resource's present state rules the change out, whoever asks (RFC 9110 §15.5.10): e.g. an update config its
 * repository's config file owns, which a write through the API would lose at the file's next read.
 */
export class Conflict extends namedDomainError('conflict', 'Conflict') {}

/** The caller is known but may not do this. */
export class Forbidden extends namedDomainError('forbidden', 'Forbidden') {}

/** The caller's credentials are missing from where they were needed, or were rejected. */
export class Unauthenticated extends namedDomainError('unauthenticated', 'Unauthenticated') {}

/** The resource changed since the version the caller based its change on (a stale `If-Match`). */
export class PreconditionFailed extends namedDomainError('precondition_failed', 'PreconditionFailed') {}

/** An upstream's rate limit for this caller is exhausted; `retryAfterSeconds` says when to retry. */
export class RateLimited extends namedDomainError('rate_limited', 'RateLimited') {}

/** The code host could not be reached, answered with an error, or answered something unexpected. */
export class CodeHostUnavailable extends namedDomainError('upstream_failed', 'CodeHostUnavailable') {}

/** Another service this one calls on the caller's behalf (a peer, a registry) failed. */
export class UpstreamFailed extends namedDomainError('upstream_failed', 'UpstreamFailed') {}

/** Another service this one calls on the caller's behalf did not answer in time. */
export class UpstreamTimeout extends namedDomainError('upstream_timeout', 'UpstreamTimeout') {}

/** This service cannot take the request now (its broker or database is away); retrying later may work. */
export class ServiceUnavailable extends namedDomainError('unavailable', 'ServiceUnavailable') {}

/** A status for every {@link DomainErrorKind}. */
export type DomainStatuses = Record<DomainErrorKind, number>;

/**
 * The statuses of HTTP's own semantics (RFC 9110 section 15): `already_exists` and `conflict` 409, `precondition_failed` 412,
 * `upstream_failed` 502, `upstream_timeout` 504, `unavailable` 503, and the obvious rest.
 */
export const HTTP_STATUSES: Readonly<DomainStatuses> = Object.freeze({
  invalid: 400,
  not_found: 404,
  already_exists: 409,
  conflict: 409,
  forbidden: 403,
  unauthenticated: 401,
  precondition_failed: 412,
  rate_limited: 429,
  upstream_failed: 502,
  upstream_timeout: 504,
  unavailable: 503,
});

/**
 * The status `error` is answered with in a wire format that departs from {@link HTTP_STATUSES} where
 * `overrides` say (the dependency update API answers a duplicate with 400, as the original did).
 */
export function statusOf(error: DomainError, overrides: Partial<DomainStatuses> = {}): number {
  return overrides[error.kind] ?? HTTP_STATUSES[error.kind];
}

/** The response headers a domain error asks for: `Retry-After` when it has a retry delay. */
export function domainErrorHeaders(error: DomainError): Record<string, string> {
  return error.retryAfterSeconds === undefined ? {} : { 'retry-after': String(error.retryAfterSeconds) };
}
