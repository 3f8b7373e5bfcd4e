import { CodeHostError } from '../errors.ts';
import type { FileTooLarge, RepoRef } from '../port.ts';
import { graphQLAnswer } from './graphql-answer.ts';

/**
 * GitHub's GraphQL query that reads several blobs of one repository at once: one aliased `object(expression:)` per
 * file (`f0`, `f1`, …; the expression `<ref>:<path>`, `HEAD` for the default branch), each asking the `Blob` fields
 * `byteSize isBinary isTruncated text` (https://docs.github.com/graphql/reference/objects#blob). An expression that names
 * nothing is `null`, one naming a directory `{}` (the fragment does not apply). One query costs one point of the
 * GraphQL rate limit.
 */
export function readFilesQuery(count: number): string {
  const indices = Array.from({ length: count }, (_, i) => i);
  const variables = ['$owner: String!', '$name: String!', ...indices.map((i) => `$f${i}: String!`)].join(', ');
  const objects = indices.map((i) => `    f${i}: object(expression: $f${i}) { ...BlobText }`).join('\n');
  return `query ReadFiles(${variables}) {\n  repository(owner: $owner, name: $name) {\n${objects}\n  }\n}\nfragment BlobText on Blob { byteSize isBinary isTruncated text }`;
}

/** The body of `POST /graphql` that reads `paths` of `repo` at `ref` (the default branch when undefined): {@link readFilesQuery} and its variables. */
export function readFilesRequest(
  repo: RepoRef,
  paths: readonly string[],
  ref?: string,
): { query: string; variables: Record<string, string> } {
  const variables: Record<string, string> = { owner: repo.owner, name: repo.name };
  paths.forEach((path, i) => {
    variables[`f${i}`] = `${ref ?? 'HEAD'}:${path}`;
  });
  return { query: readFilesQuery(paths.length), variables };
}

/** How one blob of a {@link readFilesQuery} answer is taken: its text, absent, over the limit, or to read otherwise. */
export type BlobAnswer = { text: string } | { missing: true } | { tooLarge: FileTooLarge } | { readAlone: true };

/**
 * The blobs of a {@link readFilesQuery} answer, in the order of `paths`: `text` for a blob read whole; `missing` for a
 * path naming nothing, a directory, or a repository the token cannot see (`NOT_FOUND`, as `readFile` answers
 * undefined); `tooLarge` for a blob over `maxBytes`; `readAlone` for a blob whose text GitHub cut (`isTruncated`) or
 * did not give (`isBinary`), which the caller reads through the contents API.
 * @throws CodeHostError `rate_limited` (GitHub's `RATE_LIMITED` error, with the seconds until `x-ratelimit-reset`),
 *   `invalid` (any other error: the query was refused), `unavailable` (a body that is not a GraphQL answer)
 */
export function blobAnswers(
  body: unknown,
  headers: Record<string, string | number | undefined>,
  paths: readonly string[],
  maxBytes: number,
  what: string,
): BlobAnswer[] {
  const { errors, data, said } = graphQLAnswer(body, headers, what);
  const repository = data?.repository as Record<string, unknown> | null | undefined;
  if (repository === null && errors.length > 0 && errors.every((error) => error?.type === 'NOT_FOUND')) {
    return paths.map(() => ({ missing: true }));
  }
  if (errors.length > 0) throw new CodeHostError('invalid', `GitHub ${what}: the query was refused (${said})`, { status: 200 });
  if (typeof repository !== 'object' || repository === null) {
    throw new CodeHostError('unavailable', `GitHub ${what}: unexpected response body`, { status: 200 });
  }
  return paths.map((_, i) => {
    const blob = repository[`f${i}`] as { byteSize?: unknown; isBinary?: unknown; isTruncated?: unknown; text?: unknown } | null;
    if (typeof blob !== 'object' || blob === null || typeof blob.byteSize !== 'number') return { missing: true };
    if (blob.byteSize > maxBytes) return { tooLarge: { limitBytes: maxBytes, sizeBytes: blob.byteSize } };
    if (blob.isTruncated === true || blob.isBinary === true || typeof blob.text !== 'string') return { readAlone: true };
    return { text: blob.text };
  });
}
