import { GraphQLError } from 'graphql';

/**
 * The `type` GitHub's GraphQL API puts on an error it raises itself (as opposed to the syntax and validation errors of
 * the GraphQL layer, which have none): `NOT_FOUND`, `FORBIDDEN`, `STALE_DATA`, `UNPROCESSABLE`, `RATE_LIMITED`, and the
 * query-limit refusals `MISSING_PAGINATION_BOUNDARIES`, `EXCESSIVE_PAGINATION`, `MAX_NODE_LIMIT_EXCEEDED`
 * (https://docs.github.com/graphql/overview/rate-limits-and-query-limits-for-the-graphql-api).
 */
export type GitHubErrorType =
  | 'NOT_FOUND'
  | 'FORBIDDEN'
  | 'STALE_DATA'
  | 'UNPROCESSABLE'
  | 'RATE_LIMITED'
  | 'MISSING_PAGINATION_BOUNDARIES'
  | 'EXCESSIVE_PAGINATION'
  | 'MAX_NODE_LIMIT_EXCEEDED';

/**
 * An error a resolver throws for GitHub's own reasons (a repository not found, a missing permission, a stale head): the
 * answer carries it as `{ type, path, locations, message }`, GitHub's shape (no `extensions`), with the field it
 * happened on nulled, as GraphQL does (https://spec.graphql.org/October2021/#sec-Handling-Field-Errors).
 */
export class GitHubGraphQLError extends Error {
  readonly type: GitHubErrorType;

  constructor(type: GitHubErrorType, message: string) {
    super(message);
    this.name = 'GitHubGraphQLError';
    this.type = type;
  }
}

/** A GraphQL error as GitHub answers it: `type` on GitHub's own errors, `path` and `locations` where known, `message`. */
export interface GitHubFormattedError {
  type?: GitHubErrorType;
  path?: readonly (string | number)[];
  locations?: readonly { line: number; column: number }[];
  message: string;
}

/**
 * GitHub's answer to an error in a resolver that is a bug, not a refusal: the message GitHub gives its own internal
 * errors, without anything of the error itself.
 */
export const INTERNAL_ERROR_MESSAGE =
  'Something went wrong while executing your query. This may be the result of a timeout, or it could be a GitHub bug. Please include the request ID when reporting this issue.';

/**
 * An error of graphql-js in the answer's shape: a {@link GitHubGraphQLError} a resolver threw as `{ type, path,
 * locations, message }`; a syntax, validation or variable error as graphql-js formats it (`message`, `locations`);
 * any other error a resolver threw (a bug) as {@link INTERNAL_ERROR_MESSAGE} with its `path` and `locations`, handing the
 * error to `onInternal` (to log it).
 */
export function formatGraphQLError(error: GraphQLError, onInternal: (error: Error) => void): GitHubFormattedError {
  const original = error.originalError;
  const where = {
    ...(error.path === undefined ? {} : { path: error.path }),
    ...(error.locations === undefined ? {} : { locations: error.locations }),
  };
  if (original instanceof GitHubGraphQLError) return { type: original.type, ...where, message: original.message };
  if (original !== undefined && original !== null && !(original instanceof GraphQLError)) {
    onInternal(original);
    return { ...where, message: INTERNAL_ERROR_MESSAGE };
  }
  return { ...where, message: error.message };
}
