/**
 * The one GraphQL query shape the emulator answers (GitHub's GraphQL API, https://docs.github.com/graphql): blobs of one
 * repository by revision expression, each under its own alias, as dependency tools batch file reads:
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
 *
 * Arguments may be variables or string literals; the blob's fields (`byteSize`, `isBinary`, `isTruncated`, `text`,
 * `oid`) may come in a named fragment or an inline `... on Blob`. Anything else is refused with a message naming what
 * was not understood ({@link GraphQLQueryError}).
 */

/** The fields of GitHub's `Blob` type the emulator answers. */
export const BLOB_FIELDS = ['byteSize', 'isBinary', 'isTruncated', 'text', 'oid'] as const;
/** A field of {@link BLOB_FIELDS}. */
export type BlobField = (typeof BLOB_FIELDS)[number];

/** The most `object` selections one query may hold. */
export const MAX_OBJECTS_PER_QUERY = 100;

/** A query the emulator does not answer: a syntax error, another shape, a missing variable. */
export class GraphQLQueryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GraphQLQueryError';
  }
}

/** A parsed `ReadFiles` query: the repository, and per response key (alias) the expression and the blob fields asked. */
export interface ReadFilesQuery {
  owner: string;
  name: string;
  objects: { key: string; expression: string }[];
  fields: BlobField[];
}

type Token = { kind: 'name' | 'punct' | 'string'; value: string };

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  const pattern = /\s+|,|#[^\n]*|(\.\.\.|[{}():!$])|([_A-Za-z][_0-9A-Za-z]*)|("(?:[^"\\\n]|\\.)*")|(.)/gy;
  for (let match = pattern.exec(source); match !== null && match[0] !== ''; match = pattern.exec(source)) {
    if (match[1] !== undefined) tokens.push({ kind: 'punct', value: match[1] });
    else if (match[2] !== undefined) tokens.push({ kind: 'name', value: match[2] });
    else if (match[3] !== undefined) tokens.push({ kind: 'string', value: JSON.parse(match[3]) as string });
    else if (match[4] !== undefined) throw new GraphQLQueryError(`Parse error on "${match[4]}"`);
  }
  return tokens;
}

/**
 * Parses `query` (with `variables`) as the {@link ReadFilesQuery} shape.
 * @throws GraphQLQueryError when it is another shape, malformed, or a variable it uses is missing or not a string
 */
export function parseReadFilesQuery(query: unknown, variables: unknown): ReadFilesQuery {
  if (typeof query !== 'string') throw new GraphQLQueryError('A query attribute must be specified and must be a string.');
  const vars = (typeof variables === 'object' && variables !== null ? variables : {}) as Record<string, unknown>;
  const tokens = tokenize(query);
  let at = 0;
  const peek = () => tokens[at];
  const take = (value?: string): Token => {
    const token = tokens[at];
    if (!token || (value !== undefined && token.value !== value)) {
      throw new GraphQLQueryError(`Expected ${value ?? 'more'} but found ${token ? `"${token.value}"` : 'the end of the query'}`);
    }
    at += 1;
    return token;
  };
  const name = () => {
    const token = take();
    if (token.kind !== 'name') throw new GraphQLQueryError(`Expected a name but found "${token.value}"`);
    return token.value;
  };
  const declared = new Set<string>();
  const value = (): string => {
    const token = take();
    if (token.kind === 'string') return token.value;
    if (token.value !== '$') throw new GraphQLQueryError(`Expected a string or a variable but found "${token.value}"`);
    const variable = name();
    if (!declared.has(variable)) throw new GraphQLQueryError(`Variable $${variable} is used but not declared`);
    const given = vars[variable];
    if (typeof given !== 'string') throw new GraphQLQueryError(`Variable $${variable} of type String! was provided invalid value`);
    return given;
  };
  const fieldList = (): BlobField[] => {
    take('{');
    const fields: BlobField[] = [];
    while (peek()?.value !== '}') {
      const field = name();
      if (!(BLOB_FIELDS as readonly string[]).includes(field))
        throw new GraphQLQueryError(`Field '${field}' is not answered on type 'Blob'`);
      fields.push(field as BlobField);
    }
    take('}');
    if (fields.length === 0) throw new GraphQLQueryError('Selections on Blob cannot be empty');
    return fields;
  };

  take('query');
  if (peek()?.kind === 'name') name();
  if (peek()?.value === '(') {
    take('(');
    while (peek()?.value !== ')') {
      take('$');
      const variable = name();
      take(':');
      take('String');
      if (peek()?.value === '!') take('!');
      declared.add(variable);
    }
    take(')');
  }
  take('{');
  take('repository');
  take('(');
  const args: Record<string, string> = {};
  while (peek()?.value !== ')') {
    const arg = name();
    if (arg !== 'owner' && arg !== 'name') throw new GraphQLQueryError(`Field 'repository' doesn't accept argument '${arg}'`);
    take(':');
    args[arg] = value();
  }
  take(')');
  if (args.owner === undefined || args.name === undefined)
    throw new GraphQLQueryError("Field 'repository' is missing required arguments: owner, name");
  take('{');
  const objects: ReadFilesQuery['objects'] = [];
  let fields: BlobField[] | undefined;
  /** Takes the Blob fields of an inline fragment or of the named one: every object must ask the same. */
  const askFields = (asked: BlobField[]) => {
    if (fields !== undefined && fields.join() !== asked.join()) throw new GraphQLQueryError('Every object must ask the same Blob fields');
    fields = asked;
  };
  let fragmentName: string | undefined;
  while (peek()?.value !== '}') {
    let key = name();
    if (peek()?.value === ':') {
      take(':');
      take('object');
    } else if (key !== 'object') throw new GraphQLQueryError(`Field '${key}' is not answered on type 'Repository'`);
    else key = 'object';
    take('(');
    take('expression');
    take(':');
    const expression = value();
    take(')');
    take('{');
    take('...');
    if (peek()?.value === 'on') {
      take('on');
      take('Blob');
      askFields(fieldList());
    } else {
      const fragment = name();
      if (fragmentName !== undefined && fragmentName !== fragment) throw new GraphQLQueryError('Every object must use the same fragment');
      fragmentName = fragment;
    }
    take('}');
    if (objects.some((object) => object.key === key)) throw new GraphQLQueryError(`Field '${key}' has an argument conflict`);
    objects.push({ key, expression });
  }
  take('}');
  take('}');
  if (fragmentName !== undefined) {
    take('fragment');
    if (name() !== fragmentName) throw new GraphQLQueryError(`Fragment ${fragmentName} was used, but not defined`);
    take('on');
    take('Blob');
    askFields(fieldList());
  }
  if (at !== tokens.length) throw new GraphQLQueryError(`Parse error on "${tokens[at]?.value}"`);
  if (objects.length === 0 || fields === undefined) throw new GraphQLQueryError('Selections on Repository cannot be empty');
  if (objects.length > MAX_OBJECTS_PER_QUERY) throw new GraphQLQueryError(`At most ${MAX_OBJECTS_PER_QUERY} objects may be asked at once`);
  return { owner: args.owner, name: args.name, objects, fields };
}
