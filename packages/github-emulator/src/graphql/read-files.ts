import {
  type FieldNode,
  GraphQLError,
  getArgumentValues,
  isObjectType,
  Kind,
  parse,
  type SelectionSetNode,
  type ValidatedExecutionArgs,
  validate,
  validateExecutionArgs,
} from 'graphql';
import { gitHubSchema } from './schema.ts';

/**
 * Reads a query of the shape dependency tools send to read several files of one repository at once (as
 * `@switchyard/code-host`'s `readFilesQuery` writes it), for tests that check what a client sends. The endpoint itself
 * answers any query of the schema (`graphql-routes.ts`); this only says whether a query is of this shape and what it
 * asks:
 *
 * ```graphql
 * query ReadFiles($owner: String!, $name: String!, $f0: String!, $f1: String!) {
 *   repository(owner: $owner, name: $name) {
 *     f0: object(expression: $f0) { ...BlobText }
 *     f1: object(expression: $f1) { ...BlobText }
 *   }
 * }
 * fragment BlobText on Blob { byteSize isBinary isTruncated text }
 * ```
 */

/** A query that is not of the {@link ReadFilesQuery} shape: invalid GraphQL (graphql-js's message), or another shape. */
export class GraphQLQueryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GraphQLQueryError';
  }
}

/** Where something is in a query (https://spec.graphql.org/October2021/#sec-Errors.Error-Result-Format): line and column from 1. */
export interface GraphQLLocation {
  line: number;
  column: number;
}

/**
 * A query of the `ReadFiles` shape: the repository, where its `repository` field starts in the query text (the
 * `locations` of an error on it), per response key (alias) the expression, and the `Blob` fields asked (in the order of
 * the first object's selection).
 */
export interface ReadFilesQuery {
  owner: string;
  name: string;
  repositoryLocation: GraphQLLocation;
  objects: { key: string; expression: string }[];
  fields: string[];
}

/** The fields of `selectionSet` as they apply to a `Blob`: its own, inline `... on Blob` and named fragments on `Blob`. */
function blobFields(args: ValidatedExecutionArgs, selectionSet: SelectionSetNode): string[] {
  const fields: string[] = [];
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) fields.push(selection.name.value);
    else if (selection.kind === Kind.INLINE_FRAGMENT) {
      if (selection.typeCondition === undefined || selection.typeCondition.name.value === 'Blob') {
        fields.push(...blobFields(args, selection.selectionSet));
      }
    } else {
      const fragment = args.fragmentDefinitions[selection.name.value];
      if (fragment?.typeCondition.name.value === 'Blob') fields.push(...blobFields(args, fragment.selectionSet));
    }
  }
  return fields;
}

/**
 * Parses `query` with `variables` as GitHub's schema reads it (graphql-js: parse, validate, coerce the variables) and
 * reads it as the {@link ReadFilesQuery} shape: one operation, a query, selecting one `repository(owner:, name:)` whose
 * selections are all aliased `object(expression:)` fields asking the same `Blob` fields (by inline or named fragment).
 * @throws GraphQLQueryError with graphql-js's message for invalid GraphQL, with what differs for another shape
 */
export function parseReadFilesQuery(query: unknown, variables: unknown): ReadFilesQuery {
  if (typeof query !== 'string') throw new GraphQLQueryError('A query attribute must be specified and must be a string.');
  const schema = gitHubSchema();
  let args: ValidatedExecutionArgs | readonly GraphQLError[];
  try {
    const document = parse(query);
    const errors = validate(schema, document);
    if (errors.length > 0) throw errors[0];
    args = validateExecutionArgs({
      schema,
      document,
      variableValues: typeof variables === 'object' && variables !== null ? (variables as Record<string, unknown>) : null,
    });
  } catch (error) {
    if (error instanceof GraphQLError) throw new GraphQLQueryError(error.message);
    throw error;
  }
  if (!('schema' in args)) throw new GraphQLQueryError(args[0]?.message ?? 'invalid query');
  const { operation } = args;
  if (operation.operation !== 'query') throw new GraphQLQueryError(`Expected a query, not a ${operation.operation}`);
  const [repository, ...others] = operation.selectionSet.selections;
  if (repository?.kind !== Kind.FIELD || repository.name.value !== 'repository' || others.length > 0) {
    throw new GraphQLQueryError('Expected one repository field and nothing else');
  }
  const repositoryField = schema.getQueryType()?.getFields().repository;
  if (!repositoryField) throw new Error('the schema has no Query.repository');
  const { owner, name } = getArgumentValues(repositoryField, repository, args.variableValues) as { owner: string; name: string };
  const repositoryType = schema.getType('Repository');
  const objectDefinition = isObjectType(repositoryType) ? repositoryType.getFields().object : undefined;
  if (!objectDefinition) throw new Error('the schema has no Repository.object');
  const objects: ReadFilesQuery['objects'] = [];
  let fields: string[] | undefined;
  for (const selection of repository.selectionSet?.selections ?? []) {
    const field = selection as FieldNode;
    if (selection.kind !== Kind.FIELD || field.name.value !== 'object' || field.selectionSet === undefined) {
      throw new GraphQLQueryError('Every selection of the repository must be an object(expression:) field');
    }
    const { expression } = getArgumentValues(objectDefinition, field, args.variableValues) as { expression?: unknown };
    if (typeof expression !== 'string') throw new GraphQLQueryError('Every object must be asked by expression');
    const asked = blobFields(args, field.selectionSet);
    if (asked.length === 0) throw new GraphQLQueryError('Every object must ask fields of Blob');
    if (fields !== undefined && fields.join() !== asked.join()) throw new GraphQLQueryError('Every object must ask the same Blob fields');
    fields = asked;
    objects.push({ key: field.alias?.value ?? field.name.value, expression });
  }
  if (fields === undefined) throw new GraphQLQueryError('Selections on Repository cannot be empty');
  const [repositoryLocation] = new GraphQLError('', { nodes: repository }).locations ?? [];
  if (!repositoryLocation) throw new Error('a parsed field has a location');
  return { owner, name, repositoryLocation, objects, fields };
}
