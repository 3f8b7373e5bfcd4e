import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildSchema, type GraphQLSchema } from 'graphql';
import { type GraphQLContext, readableRepository } from './context.ts';
import { createCommitOnBranch, createPullRequest, createRef } from './mutations.ts';
import { repositoryObject } from './objects.ts';

/** Absolute path of the SDL of the part of GitHub's GraphQL schema the emulator serves (`schema.graphql`). */
export const SCHEMA_PATH = fileURLToPath(new URL('./schema.graphql', import.meta.url));

let built: GraphQLSchema | undefined;

/**
 * The emulator's GraphQL schema: `schema.graphql` (GitHub's names, types and nullability,
 * https://docs.github.com/graphql/overview/public-schema), built once by graphql-js. Resolution is by graphql-js's
 * default resolvers over {@link ROOT_VALUE} and the objects of `objects.ts`.
 * @throws GraphQLError when the SDL is invalid (a bug of the emulator, caught by its tests)
 */
export function gitHubSchema(): GraphQLSchema {
  built ??= buildSchema(readFileSync(SCHEMA_PATH, 'utf8'));
  return built;
}

/** Now as GitHub writes a `DateTime`: ISO 8601 in whole seconds, UTC. */
const dateTime = (epochSeconds: number) => new Date(epochSeconds * 1_000).toISOString().replace('.000Z', 'Z');

/**
 * The root fields of queries and mutations, called by graphql-js with the field's arguments and the request's
 * {@link GraphQLContext}:
 * - `repository(owner, name)`: the repository the caller may read (`readableRepository`: `NOT_FOUND` or `FORBIDDEN`
 *   otherwise); null, without an error, in a dry run (`rateLimit(dryRun: true)`: the query is costed, not run);
 * - `rateLimit`: GitHub's `RateLimit` of the caller's GraphQL limit after this query was charged (`cost`, `nodeCount`,
 *   `limit`, `remaining`, `used`, `resetAt`);
 * - the mutations of `mutations.ts`.
 */
export const ROOT_VALUE = {
  repository: (args: { owner: string; name: string }, ctx: GraphQLContext) =>
    ctx.cost.dryRun ? null : repositoryObject(ctx, readableRepository(ctx, args.owner, args.name)),
  rateLimit: (_args: unknown, ctx: GraphQLContext) => ({
    cost: ctx.cost.cost,
    nodeCount: ctx.cost.nodeCount,
    limit: ctx.limit.limit,
    remaining: ctx.limit.remaining,
    used: ctx.limit.used,
    resetAt: dateTime(ctx.limit.reset),
  }),
  createRef,
  createCommitOnBranch,
  createPullRequest,
};
