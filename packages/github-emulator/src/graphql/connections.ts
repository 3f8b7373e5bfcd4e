import { GitHubGraphQLError } from './errors.ts';

/** The pagination arguments of a connection field (https://relay.dev/graphql/connections.htm#sec-Arguments). */
export interface ConnectionArgs {
  first?: number | null;
  last?: number | null;
  after?: string | null;
  before?: string | null;
}

/** A page of a connection: its edges with their cursors, the nodes alone, `pageInfo` and `totalCount`, GitHub's shape. */
export interface Connection<N> {
  edges: { cursor: string; node: N }[];
  nodes: N[];
  pageInfo: { startCursor: string | null; endCursor: string | null; hasNextPage: boolean; hasPreviousPage: boolean };
  totalCount: number;
}

/** An opaque cursor for the item at `index` of a list (base64 of `cursor:v2:<index>`, the look of GitHub's). */
export function cursorOf(index: number): string {
  return Buffer.from(`cursor:v2:${index}`).toString('base64');
}

/**
 * The index a cursor of {@link cursorOf} stands for.
 * @throws GitHubGraphQLError `UNPROCESSABLE` `` `<cursor>` does not appear to be a valid cursor. `` for any other text
 */
function indexOf(cursor: string): number {
  const match = /^cursor:v2:(\d{1,9})$/.exec(Buffer.from(cursor, 'base64').toString('utf8'));
  if (!match) throw new GitHubGraphQLError('UNPROCESSABLE', `\`${cursor}\` does not appear to be a valid cursor.`);
  return Number(match[1]);
}

/**
 * One page of `all` as a Relay connection (https://relay.dev/graphql/connections.htm#sec-Pagination-algorithm): the
 * items after `after` and before `before`, then the `first` of them or the `last`; `hasNextPage` when `first` left some
 * out, `hasPreviousPage` when `last` did. `first`/`last` are checked before execution (`cost.ts`: each connection needs
 * one, at most 100); here a missing one takes everything. `toNode` makes each node.
 * @throws GitHubGraphQLError for a cursor this function did not make
 */
export function connection<T, N>(all: readonly T[], args: ConnectionArgs, toNode: (item: T) => N): Connection<N> {
  let start = 0;
  let end = all.length;
  if (typeof args.after === 'string') start = Math.min(end, indexOf(args.after) + 1);
  if (typeof args.before === 'string') end = Math.max(start, Math.min(end, indexOf(args.before)));
  let from = start;
  let to = end;
  if (typeof args.first === 'number') to = Math.min(to, from + Math.max(0, args.first));
  if (typeof args.last === 'number') from = Math.max(from, to - Math.max(0, args.last));
  const edges = all.slice(from, to).map((item, offset) => ({ cursor: cursorOf(from + offset), node: toNode(item) }));
  return {
    edges,
    nodes: edges.map((edge) => edge.node),
    pageInfo: {
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
      hasNextPage: typeof args.first === 'number' && to < end,
      hasPreviousPage: typeof args.last === 'number' && from > start,
    },
    totalCount: all.length,
  };
}
