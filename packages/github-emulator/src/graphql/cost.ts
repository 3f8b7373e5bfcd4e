import {
  type GraphQLCompositeType,
  GraphQLError,
  type GraphQLNamedType,
  getArgumentValues,
  getNamedType,
  isCompositeType,
  isInterfaceType,
  isObjectType,
  Kind,
  type SelectionSetNode,
  type ValidatedExecutionArgs,
} from 'graphql';
import type { GitHubFormattedError } from './errors.ts';

/** The most items one page of a connection may ask (`first` or `last`), GitHub's limit. */
export const MAX_PAGE_SIZE = 100;
/** The most nodes one query may ask in all, GitHub's limit. */
export const MAX_NODES = 500_000;

/**
 * What a query costs before it runs, as GitHub computes it
 * (https://docs.github.com/graphql/overview/rate-limits-and-query-limits-for-the-graphql-api):
 * - `requests`: for each connection field, how many requests it takes to fill it, assuming every `first`/`last` is
 *   filled: 1 at the top, else the number of parent nodes (the product of the `first`/`last` of the connections it is
 *   nested in). The docs' example: 100 repositories, 50 issues each, 60 labels each: 1 + 100 + 5,000 = 5,101;
 * - `cost`: a query's `requests` / 100, rounded, at least 1 (51 in the example; aliases of `repository` and `object`
 *   are no connections, so reading 50 repositories × 3 files costs 1); a mutation costs 1;
 * - `nodeCount`: the nodes the query may return, the sum over connections of their parents times their page size
 *   (50 repositories × 10 issues: 50 + 500 = 550);
 * - `dryRun`: the query asks `rateLimit(dryRun: true)`: it is costed, not run, and not charged.
 */
export interface QueryCost {
  requests: number;
  cost: number;
  nodeCount: number;
  dryRun: boolean;
}

const message = {
  missing: (field: string) => `You must provide a \`first\` or \`last\` value to properly paginate the \`${field}\` connection.`,
  excessive: (asked: number, field: string, argument: string) =>
    `Requesting ${asked} records on the \`${field}\` connection exceeds the \`${argument}\` limit of ${MAX_PAGE_SIZE} records.`,
  tooMany: (field: string, nodes: number) =>
    `By the time this query traverses to the ${field} connection, it is requesting up to ${nodes.toLocaleString('en-US')} possible nodes which exceeds the maximum limit of ${MAX_NODES.toLocaleString('en-US')}.`,
};

/** Connection types end in `Connection`, as every one of GitHub's schema does (`RefConnection`, `PullRequestConnection`). */
const isConnection = (type: GraphQLNamedType) => type.name.endsWith('Connection');

/**
 * The {@link QueryCost} of the operation `args` runs (its variables coerced, its fragments indexed: graphql-js's
 * `validateExecutionArgs`), or the errors GitHub answers instead of running it, each with GitHub's `type`, the
 * `locations` of the field and its message: a connection without `first` or `last` (`MISSING_PAGINATION_BOUNDARIES`),
 * one asking more than {@link MAX_PAGE_SIZE} (`EXCESSIVE_PAGINATION`), and a query that may return more than
 * {@link MAX_NODES} nodes (`MAX_NODE_LIMIT_EXCEEDED`). Every fragment is counted, whatever type it applies to (an
 * upper bound, as a static count must be). `first`/`last` under 0 count as 0.
 */
export function operationCost(args: ValidatedExecutionArgs): QueryCost | { errors: GitHubFormattedError[] } {
  const { schema, operation, fragmentDefinitions, variableValues } = args;
  const errors: GitHubFormattedError[] = [];
  let requests = 0;
  let nodeCount = 0;
  let dryRun = false;
  const locationsOf = (node: Parameters<typeof getArgumentValues>[1]) => new GraphQLError('', { nodes: node }).locations ?? [];

  const walk = (selectionSet: SelectionSetNode, parent: GraphQLCompositeType, parents: number, root: boolean): void => {
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.INLINE_FRAGMENT) {
        const type = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : parent;
        if (type && isCompositeType(type)) walk(selection.selectionSet, type, parents, root);
        continue;
      }
      if (selection.kind === Kind.FRAGMENT_SPREAD) {
        const fragment = fragmentDefinitions[selection.name.value];
        const type = fragment ? schema.getType(fragment.typeCondition.name.value) : undefined;
        if (fragment && type && isCompositeType(type)) walk(fragment.selectionSet, type, parents, root);
        continue;
      }
      if (!isObjectType(parent) && !isInterfaceType(parent)) continue;
      const field = parent.getFields()[selection.name.value];
      if (!field) continue;
      const type = getNamedType(field.type);
      const values = field.args.length > 0 ? getArgumentValues(field, selection, variableValues) : {};
      if (root && field.name === 'rateLimit' && values.dryRun === true) dryRun = true;
      let children = parents;
      if (isConnection(type)) {
        const first = typeof values.first === 'number' ? values.first : undefined;
        const last = typeof values.last === 'number' ? values.last : undefined;
        if (first === undefined && last === undefined) {
          errors.push({ type: 'MISSING_PAGINATION_BOUNDARIES', locations: locationsOf(selection), message: message.missing(field.name) });
          continue;
        }
        const [argument, asked] = first !== undefined ? ['first', first] : ['last', last as number];
        if (asked > MAX_PAGE_SIZE) {
          errors.push({
            type: 'EXCESSIVE_PAGINATION',
            locations: locationsOf(selection),
            message: message.excessive(asked, field.name, argument),
          });
          continue;
        }
        requests += parents;
        children = parents * Math.max(0, asked);
        nodeCount += children;
        if (nodeCount > MAX_NODES) {
          errors.push({
            type: 'MAX_NODE_LIMIT_EXCEEDED',
            locations: locationsOf(selection),
            message: message.tooMany(field.name, nodeCount),
          });
          continue;
        }
      }
      if (selection.selectionSet && isCompositeType(type)) walk(selection.selectionSet, type, children, false);
    }
  };

  const rootType = schema.getRootType(operation.operation);
  if (rootType) walk(operation.selectionSet, rootType, 1, true);
  if (errors.length > 0) return { errors };
  const cost = operation.operation === 'mutation' ? 1 : Math.max(1, Math.round(requests / 100));
  return { requests, cost, nodeCount, dryRun };
}
