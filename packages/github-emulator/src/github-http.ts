import { createHash, randomBytes } from 'node:crypto';
import { ifNoneMatchHits } from '@switchyard/service-kit';
import type { Request, Response } from 'express';

/** `documentation_url`s GitHub puts in error bodies, by endpoint. */
export const DOCS = {
  root: 'https://docs.github.com/rest',
  user: 'https://docs.github.com/rest/users/users#get-the-authenticated-user',
  userOrgs: 'https://docs.github.com/rest/orgs/orgs#list-organizations-for-the-authenticated-user',
  orgMembership: 'https://docs.github.com/rest/orgs/members#get-an-organization-membership-for-the-authenticated-user',
  userRepos: 'https://docs.github.com/rest/repos/repos#list-repositories-for-the-authenticated-user',
  orgRepos: 'https://docs.github.com/rest/repos/repos#list-organization-repositories',
  repo: 'https://docs.github.com/rest/repos/repos#get-a-repository',
  contents: 'https://docs.github.com/rest/repos/contents#get-repository-content',
  rateLimits: 'https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api',
  advisories: 'https://docs.github.com/rest/security-advisories/global-advisories#list-global-security-advisories',
  advisory: 'https://docs.github.com/rest/security-advisories/global-advisories#get-a-global-security-advisory',
  userInstallations: 'https://docs.github.com/rest/apps/installations#list-app-installations-accessible-to-the-user-access-token',
  installationRepos: 'https://docs.github.com/rest/apps/installations#list-repositories-accessible-to-the-user-access-token',
} as const;

/** GitHub's `basic-error` body: `{"message","documentation_url","status"}` (`status` is a string, as GitHub sends it). */
export function errorBody(status: number, message: string, documentationUrl: string = DOCS.root) {
  return { message, documentation_url: documentationUrl, status: String(status) };
}

/**
 * An error answer in GitHub's shape, thrown by the emulator's handlers: `status`, a `basic-error` body (plus `errors`
 * for a 422), and extra response headers (e.g. `retry-after`).
 */
export class GitHubApiError extends Error {
  readonly status: number;
  readonly documentationUrl: string;
  readonly headers: Record<string, string>;
  readonly errors: unknown[] | undefined;

  constructor(
    status: number,
    message: string,
    documentationUrl: string = DOCS.root,
    options: { headers?: Record<string, string>; errors?: unknown[] } = {},
  ) {
    super(message);
    this.name = 'GitHubApiError';
    this.status = status;
    this.documentationUrl = documentationUrl;
    this.headers = options.headers ?? {};
    this.errors = options.errors;
  }
}

/** 404 `{"message":"Not Found"}`: what GitHub answers for anything missing or invisible to the caller. */
export const notFound = (documentationUrl: string = DOCS.root) => new GitHubApiError(404, 'Not Found', documentationUrl);

/** 401 `{"message":"Bad credentials"}`. */
export const badCredentials = () => new GitHubApiError(401, 'Bad credentials', DOCS.root);

/** 422 `Validation Failed` naming an invalid query parameter. */
export function validationFailed(field: string, message: string, documentationUrl: string): GitHubApiError {
  return new GitHubApiError(422, 'Validation Failed', documentationUrl, {
    errors: [{ resource: 'Repository', field, code: 'invalid', message }],
  });
}

/** 422 `Validation Failed` with `errors` as plain messages (GitHub's `validation-error-simple`, e.g. of `GET /advisories`). */
export function validationFailedSimple(message: string, documentationUrl: string): GitHubApiError {
  return new GitHubApiError(422, 'Validation Failed', documentationUrl, { errors: [message] });
}

/** Headers GitHub sends on every REST answer (media type, API version, a request id). */
export function setCommonHeaders(res: Response): void {
  res.setHeader('x-github-media-type', 'github.v3; format=json');
  res.setHeader('x-github-api-version-selected', '2022-11-28');
  res.setHeader(
    'x-github-request-id',
    randomBytes(8)
      .toString('hex')
      .toUpperCase()
      .replace(/(.{4})(?=.)/g, '$1:'),
  );
  res.setHeader('vary', 'Accept, Authorization, Cookie, X-GitHub-OTP');
}

/**
 * Gives back the rate-limit unit a request was counted (and sets the `x-ratelimit-*` headers to match), set per
 * request by the authentication in front of a route; absent when nothing was counted.
 */
const REFUND = 'refundRateLimit';

/** Remembers how to give back the rate-limit unit this request was counted, for a `304 Not Modified` ({@link sendJson}). */
export function setRateLimitRefund(res: Response, refund: () => void): void {
  res.locals[REFUND] = refund;
}

/**
 * The entity tag of a JSON body: a weak tag of the SHA-256 of its bytes (`W/"<64 hex>"`), the form GitHub gives its
 * JSON answers (https://docs.github.com/rest/using-the-rest-api/best-practices-for-using-the-rest-api#use-conditional-requests-if-appropriate).
 */
export function entityTagOf(text: string): string {
  return `W/"${createHash('sha256').update(text).digest('hex')}"`;
}

/**
 * Sends `text` as `type` with `status`. A 200 answer to a GET or HEAD carries an `ETag` ({@link entityTagOf}); when the
 * request's `If-None-Match` names it, the answer is `304 Not Modified` without a body instead, and the request is not
 * counted against the rate limit (GitHub's rule for conditional requests).
 */
export function sendText(res: Response, status: number, type: string, text: string): void {
  const method = res.req.method;
  if (status === 200 && (method === 'GET' || method === 'HEAD')) {
    const etag = entityTagOf(text);
    res.setHeader('etag', etag);
    if (ifNoneMatchHits(res.req.headers['if-none-match'], etag)) {
      (res.locals[REFUND] as (() => void) | undefined)?.();
      res.status(304).end();
      return;
    }
  }
  res.status(status).type(type).send(text);
}

/** Sends `body` as `application/json; charset=utf-8` with `status`, conditional as {@link sendText} says. */
export function sendJson(res: Response, status: number, body: unknown): void {
  sendText(res, status, 'application/json; charset=utf-8', JSON.stringify(body));
}

/** Sends a {@link GitHubApiError} as GitHub would. */
export function sendError(res: Response, error: GitHubApiError): void {
  for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
  const body = errorBody(error.status, error.message, error.documentationUrl);
  sendJson(
    res,
    error.status,
    error.errors ? { message: body.message, errors: error.errors, documentation_url: body.documentation_url, status: body.status } : body,
  );
}

/** The token of `Authorization: token <t>` or `Authorization: Bearer <t>` (scheme case-insensitive), else undefined. */
export function tokenOf(req: Request): string | undefined {
  const match = /^(?:token|bearer)\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  return match?.[1];
}

/** The first value of query parameter `name`, or undefined. */
export function queryValue(req: Request, name: string): string | undefined {
  const value = (req.query as Record<string, unknown>)[name];
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first : undefined;
}

/** The REST root as this request reached it (`http://host:port` plus the mount path), for URLs in bodies and links. */
export function apiBaseOf(req: Request): string {
  return `${req.protocol}://${req.get('host') ?? 'localhost'}${req.baseUrl}`;
}
