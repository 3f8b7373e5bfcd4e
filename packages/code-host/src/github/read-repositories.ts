import { CodeHostError } from '../errors.ts';
import type { FileReads, RepoRef, RepositoryFiles, RepositoryRead } from '../port.ts';
import { graphQLAnswer } from './graphql-answer.ts';

/**
 * GitHub's GraphQL reads of many repositories at once, in two queries per group of repositories
 * (https://docs.github.com/graphql/reference/objects#repository):
 * 1. {@link sizesRequest}: per repository (`r0`, `r1`, … aliases of `repository(owner:, name:)`) the branch's head
 *    commit (`ref(qualifiedName: "refs/heads/<branch>") { target { oid } }`) and each asked path's blob size
 *    (`object(expression: "refs/heads/<branch>:<path>") { ... on Blob { byteSize isBinary } }`): which files exist;
 * 2. {@link textsRequest}: the texts of those that exist, at that commit (`<oid>:<path>`, so both queries see one
 *    snapshot), packed by their sizes so that an answer stays well within the client's size limit.
 * Neither asks for a connection, so each costs 1 point of the GraphQL rate limit whatever its size (GitHub's rule:
 * https://docs.github.com/graphql/overview/rate-limits-and-node-limits-for-the-graphql-api).
 */

/** Variables and query text of one `POST /graphql`. */
export interface GraphQLRequest {
  query: string;
  variables: Record<string, string>;
}

/** The body of the first query: for each of `reads`, its branch's head commit and each path's blob size. */
export function sizesRequest(reads: readonly RepositoryRead[]): GraphQLRequest {
  const variables: Record<string, string> = {};
  const declared: string[] = [];
  const repositories = reads.map((read, r) => {
    variables[`o${r}`] = read.repo.owner;
    variables[`n${r}`] = read.repo.name;
    variables[`h${r}`] = `refs/heads/${read.branch}`;
    declared.push(`$o${r}: String!`, `$n${r}: String!`, `$h${r}: String!`);
    const objects = read.paths.map((path, f) => {
      variables[`e${r}_${f}`] = `refs/heads/${read.branch}:${path.replace(/^\/+/, '')}`;
      declared.push(`$e${r}_${f}: String!`);
      return `    f${f}: object(expression: $e${r}_${f}) { ... on Blob { byteSize isBinary } }`;
    });
    return `  r${r}: repository(owner: $o${r}, name: $n${r}) {\n    head: ref(qualifiedName: $h${r}) { target { oid } }\n${objects.join('\n')}\n  }`;
  });
  return { query: `query RepositorySizes(${declared.join(', ')}) {\n${repositories.join('\n')}\n}`, variables };
}

/** One file of {@link textsRequest}: the repository (its index in the sizes query), the commit and the path. */
export interface TextAsked {
  repo: RepoRef;
  commit: string;
  path: string;
}

/** The body of the second query: the texts of `files`, each at its commit (`t0`, `t1`, … per repository). */
export function textsRequest(files: readonly TextAsked[]): GraphQLRequest {
  const variables: Record<string, string> = {};
  const declared: string[] = [];
  const byRepo = new Map<string, { repo: RepoRef; objects: string[] }>();
  files.forEach((file, i) => {
    const key = `${file.repo.owner}/${file.repo.name}`;
    const entry = byRepo.get(key) ?? { repo: file.repo, objects: [] };
    byRepo.set(key, entry);
    variables[`e${i}`] = `${file.commit}:${file.path.replace(/^\/+/, '')}`;
    declared.push(`$e${i}: String!`);
    entry.objects.push(`    f${i}: object(expression: $e${i}) { ... on Blob { isTruncated text } }`);
  });
  const repositories = [...byRepo.values()].map(({ repo, objects }, r) => {
    variables[`o${r}`] = repo.owner;
    variables[`n${r}`] = repo.name;
    declared.push(`$o${r}: String!`, `$n${r}: String!`);
    return `  r${r}: repository(owner: $o${r}, name: $n${r}) {\n${objects.join('\n')}\n  }`;
  });
  return { query: `query RepositoryTexts(${declared.join(', ')}) {\n${repositories.join('\n')}\n}`, variables };
}

/**
 * The data of a multi-repository answer, with the aliases of the repositories GitHub could not give (an error whose
 * `path` starts at that alias: `NOT_FOUND` for a repository the token cannot see, `FORBIDDEN` for one an installation
 * does not cover) in `refused`.
 * @throws CodeHostError `rate_limited` (GitHub's `RATE_LIMITED`, with the seconds until `x-ratelimit-reset`), `invalid`
 *   (an error that names no repository: the query was refused), `unavailable` (a body that is not a GraphQL answer)
 */
export function repositoriesAnswer(
  body: unknown,
  headers: Record<string, string | number | undefined>,
  what: string,
): { data: Record<string, unknown>; refused: Set<string> } {
  const { errors, data, said } = graphQLAnswer(body, headers, what);
  const refused = new Set<string>();
  for (const error of errors) {
    const alias = Array.isArray(error?.path) && typeof error.path[0] === 'string' ? error.path[0] : undefined;
    if (alias === undefined) throw new CodeHostError('invalid', `GitHub ${what}: the query was refused (${said})`, { status: 200 });
    refused.add(alias);
  }
  if (data === null) {
    throw new CodeHostError('unavailable', `GitHub ${what}: unexpected response body`, { status: 200 });
  }
  return { data, refused };
}

/** A file of the sizes query that exists: its size in bytes, and whether GitHub takes it for binary. */
export interface SizedFile {
  path: string;
  byteSize: number;
  isBinary: boolean;
}

/**
 * Repository `r` of a sizes answer: its branch's head commit and the files that exist (blobs; a path naming nothing,
 * a directory or a submodule is left out), or undefined when the repository or its branch could not be read.
 */
export function sizesOf(
  data: Record<string, unknown>,
  refused: ReadonlySet<string>,
  r: number,
  paths: readonly string[],
): { commit: string; files: SizedFile[] } | undefined {
  const repository = data[`r${r}`] as Record<string, unknown> | null | undefined;
  if (refused.has(`r${r}`) || typeof repository !== 'object' || repository === null) return undefined;
  const oid = (repository.head as { target?: { oid?: unknown } } | null | undefined)?.target?.oid;
  if (typeof oid !== 'string') return undefined;
  const files: SizedFile[] = [];
  paths.forEach((path, f) => {
    const blob = repository[`f${f}`] as { byteSize?: unknown; isBinary?: unknown } | null | undefined;
    if (typeof blob !== 'object' || blob === null || typeof blob.byteSize !== 'number') return;
    files.push({ path, byteSize: blob.byteSize, isBinary: blob.isBinary === true });
  });
  return { commit: oid, files };
}

/**
 * The texts of a texts answer, in the order of `files`: the text, or undefined for a file to read otherwise (GitHub cut
 * it, `isTruncated`, gave none, or its repository was refused meanwhile).
 */
export function textsOf(
  data: Record<string, unknown>,
  refused: ReadonlySet<string>,
  files: readonly TextAsked[],
): Array<string | undefined> {
  const aliasOf = new Map<string, string>();
  for (const file of files) {
    const key = `${file.repo.owner}/${file.repo.name}`;
    if (!aliasOf.has(key)) aliasOf.set(key, `r${aliasOf.size}`);
  }
  return files.map((file, i) => {
    const alias = aliasOf.get(`${file.repo.owner}/${file.repo.name}`) ?? '';
    const repository = data[alias] as Record<string, unknown> | null | undefined;
    if (refused.has(alias) || typeof repository !== 'object' || repository === null) return undefined;
    const blob = repository[`f${i}`] as { isTruncated?: unknown; text?: unknown } | null | undefined;
    if (typeof blob !== 'object' || blob === null || blob.isTruncated === true || typeof blob.text !== 'string') return undefined;
    return blob.text;
  });
}

/** An empty {@link RepositoryFiles} at `commit`. */
export function emptyRepositoryFiles(commit: string): RepositoryFiles & FileReads {
  return { commit, files: {}, tooLarge: {} };
}
