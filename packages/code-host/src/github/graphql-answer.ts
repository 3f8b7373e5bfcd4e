import { CodeHostError } from '../errors.ts';
import { retryAfterSecondsFrom } from './errors.ts';

/** One entry of a GraphQL answer's `errors` (GitHub adds `type`: `NOT_FOUND`, `FORBIDDEN`, `RATE_LIMITED`, …). */
export interface GraphQLError {
  type?: unknown;
  message?: unknown;
  path?: unknown;
}

/**
 * The `errors` and `data` of a GitHub GraphQL answer body (`data` null when absent), with the errors' messages joined
 * (`said`, for the caller's own refusals). Every GraphQL read and write of the adapter starts here.
 * @throws CodeHostError `unavailable` (a body that is not a GraphQL answer), `rate_limited` (GitHub's `RATE_LIMITED`
 *   error, with the seconds until `x-ratelimit-reset`, else 60:
 *   https://docs.github.com/graphql/overview/rate-limits-and-query-limits-for-the-graphql-api)
 */
export function graphQLAnswer(
  body: unknown,
  headers: Record<string, string | number | undefined>,
  what: string,
): { errors: GraphQLError[]; data: Record<string, unknown> | null; said: string } {
  const answer = body as { data?: unknown; errors?: unknown } | null;
  if (typeof answer !== 'object' || answer === null) {
    throw new CodeHostError('unavailable', `GitHub ${what}: unexpected response body`, { status: 200 });
  }
  const errors = (Array.isArray(answer.errors) ? answer.errors : []) as GraphQLError[];
  const said = errors.map((error) => String(error?.message ?? error?.type ?? 'error')).join('; ');
  if (errors.some((error) => error?.type === 'RATE_LIMITED')) {
    const retryAfterSeconds = retryAfterSecondsFrom(headers) ?? 60;
    throw new CodeHostError('rate_limited', `GitHub ${what}: rate limited for ${retryAfterSeconds} s (${said})`, {
      status: 200,
      retryAfterSeconds,
    });
  }
  const data = typeof answer.data === 'object' && answer.data !== null ? (answer.data as Record<string, unknown>) : null;
  return { errors, data, said };
}
