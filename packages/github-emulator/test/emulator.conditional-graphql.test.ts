import type { Listening } from '@switchyard/service-kit';
import { request } from '@switchyard/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LARGE_FILE, parseReadFilesQuery, REQUEST_COUNTER_PATH, type RequestCounts } from '../src/index.ts';
import { ALICE, auth, BOB, startEmulator } from './fixtures.ts';

/** The query shape `POST /graphql` answers: aliased blobs of one repository (as `@switchyard/code-host` sends it). */
const READ_FILES = `query ReadFiles($owner: String!, $name: String!, $f0: String!, $f1: String!, $f2: String!, $f3: String!) {
  repository(owner: $owner, name: $name) {
    f0: object(expression: $f0) { ...BlobText }
    f1: object(expression: $f1) { ...BlobText }
    f2: object(expression: $f2) { ...BlobText }
    f3: object(expression: $f3) { ...BlobText }
  }
}
fragment BlobText on Blob { byteSize isBinary isTruncated text }`;

describe('GitHub emulator: conditional requests, the request counter and GraphQL blob reads', () => {
  let server: Listening;

  beforeAll(async () => {
    ({ server } = await startEmulator());
  }, 60_000);
  afterAll(() => server.close());

  const get = (path: string, token: string, headers: Record<string, string> = {}) =>
    request(server.url, 'GET', path, { headers: { ...auth(token), ...headers } });
  const graphql = (token: string | undefined, query: string, variables: Record<string, unknown>) =>
    request(server.url, 'POST', '/graphql', { headers: token ? auth(token) : {}, body: { query, variables } });

  it('JSON answers to GET carry an ETag; If-None-Match naming it is a 304 without a body, not counted against the rate limit', async () => {
    const path = '/repos/acme/web-storefront/contents/?ref=main';
    const first = await get(path, ALICE);
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^W\/"[0-9a-f]{64}"$/);
    const used = Number(first.headers.get('x-ratelimit-used'));

    const again = await get(path, ALICE, { 'if-none-match': etag as string });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    expect(Number(again.headers.get('x-ratelimit-used'))).toBe(used);
    expect(again.headers.get('x-ratelimit-resource')).toBe('core');

    // Another tag, or another resource, is answered in full and counted.
    const stale = await get(path, ALICE, { 'if-none-match': 'W/"0000"' });
    expect(stale.status).toBe(200);
    expect(Number(stale.headers.get('x-ratelimit-used'))).toBe(used + 1);
    const file = await get('/repos/acme/web-storefront/contents/package.json', ALICE, { 'if-none-match': etag as string });
    expect(file.status).toBe(200);
    expect(file.headers.get('etag')).not.toBe(etag);
    // Errors carry no tag.
    expect((await get('/repos/acme/web-storefront/contents/missing.json', ALICE)).headers.get('etag')).toBeNull();
  });

  it('counts every request by route and status, and the GraphQL points, at /_emulator/requests, which a DELETE sets back to zero', async () => {
    expect((await request(server.url, 'DELETE', REQUEST_COUNTER_PATH)).status).toBe(204);
    await get('/repos/acme/web-storefront/contents/?ref=main', ALICE);
    await get('/repos/acme/web-storefront/contents/package.json', ALICE);
    await get('/repos/acme/web-storefront/contents/missing.json', ALICE);
    await get('/no/such/route', ALICE);
    await graphql(ALICE, READ_FILES, { owner: 'acme', name: 'web-storefront', f0: 'HEAD:a', f1: 'HEAD:b', f2: 'HEAD:c', f3: 'HEAD:d' });
    const counts = (await request(server.url, 'GET', REQUEST_COUNTER_PATH)).body as RequestCounts;
    expect(counts).toEqual({
      total: 5,
      routes: {
        'GET /repos/:owner/:repo/contents{/*path}': { 200: 2, 404: 1 },
        unmatched: { 404: 1 },
        'POST /graphql': { 200: 1 },
      },
      limited: { primary: 0, secondaryConcurrent: 0, secondaryContent: 0 },
      graphqlPoints: 1,
    });
  });

  it('POST /graphql reads blobs by expression: text and size; null for nothing, {} for a directory; one point of the GraphQL limit', async () => {
    const storefront = JSON.parse((await get('/repos/acme/web-storefront/contents/package.json', ALICE)).text);
    const res = await graphql(ALICE, READ_FILES, {
      owner: 'acme',
      name: 'web-storefront',
      f0: 'main:package.json',
      f1: 'HEAD:package-lock.json',
      f2: 'main:yarn.lock',
      f3: 'main:src',
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-resource')).toBe('graphql');
    const repository = res.body.data.repository;
    expect(repository.f0.text).toBe(Buffer.from(storefront.content, 'base64').toString('utf8'));
    expect(repository.f0).toEqual({ byteSize: storefront.size, isBinary: false, isTruncated: false, text: repository.f0.text });
    expect(JSON.parse(repository.f1.text).lockfileVersion).toBe(3);
    expect(repository.f2).toBeNull();
    expect(repository.f3).toEqual({});
    expect(res.body.errors).toBeUndefined();

    // Another branch, and a ref that does not exist.
    const develop = await graphql(ALICE, READ_FILES, {
      owner: 'acme',
      name: 'web-storefront',
      f0: 'develop:package.json',
      f1: 'no-such-branch:package.json',
      f2: 'main',
      f3: 'main:',
    });
    expect(JSON.parse(develop.body.data.repository.f0.text).dependencies.lodash).toBe('^4.17.19');
    expect(develop.body.data.repository.f1).toBeNull();
    expect(develop.body.data.repository.f2).toEqual({});
    expect(develop.body.data.repository.f3).toEqual({});
  });

  it('cuts a blob over 1 MB at 1 MB and says so (isTruncated), asking only the fields named (inline fragment, literals)', async () => {
    const query = `query { repository(owner: "alice", name: "big-files") {
      huge: object(expression: "main:data/huge.txt") { ... on Blob { byteSize isTruncated text oid } }
      small: object(expression: "main:with space/a b.txt") { ... on Blob { byteSize isTruncated text oid } }
    } }`;
    const res = await graphql(ALICE, query, {});
    const { huge, small } = res.body.data.repository;
    expect(huge.byteSize).toBe(Buffer.byteLength(LARGE_FILE));
    expect(huge.isTruncated).toBe(true);
    expect(huge.text).toBe(LARGE_FILE.slice(0, 1_048_576));
    expect(small).toEqual({ byteSize: 7, isTruncated: false, text: 'spaced\n', oid: expect.stringMatching(/^[0-9a-f]{40}$/) });
    expect(Object.keys(huge).sort()).toEqual(['byteSize', 'isTruncated', 'oid', 'text']);
  });

  it('a repository the token cannot see is null with a NOT_FOUND error (path and locations); no token is 401 Bad credentials', async () => {
    const variables = { owner: 'bob', name: 'bob-scripts', f0: 'HEAD:requirements.txt', f1: 'HEAD:x', f2: 'HEAD:y', f3: 'HEAD:z' };
    const hidden = await graphql(ALICE, READ_FILES, variables);
    expect(hidden.status).toBe(200);
    expect(hidden.body).toEqual({
      data: { repository: null },
      errors: [
        {
          type: 'NOT_FOUND',
          path: ['repository'],
          locations: [{ line: 2, column: 3 }],
          message: "Could not resolve to a Repository with the name 'bob/bob-scripts'.",
        },
      ],
    });
    const seen = await graphql(BOB, READ_FILES, variables);
    expect(seen.body.data.repository.f0.text).toBe('click==7.1.2\n');
    const anonymous = await graphql(undefined, READ_FILES, variables);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.message).toBe('Bad credentials');
  });

  it('refuses an invalid query as graphql-js words it: HTTP 200, errors with message and locations, no data', async () => {
    const refused = async (query: string, variables: Record<string, unknown> = {}) => {
      const res = await graphql(ALICE, query, variables);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-resource')).toBe('graphql');
      expect(res.body.data).toBeUndefined();
      return res.body.errors as { message: string; locations?: { line: number; column: number }[] }[];
    };
    expect(await refused('query { viewer { login } }')).toEqual([
      { message: 'Cannot query field "viewer" on type "Query".', locations: [{ line: 1, column: 9 }] },
    ]);
    const size = 'query { repository(owner: "acme", name: "x") { f: object(expression: "HEAD:a") { ... on Blob { size } } } }';
    expect(await refused(size)).toEqual([
      { message: 'Cannot query field "size" on type "Blob".', locations: [{ line: 1, column: size.indexOf('size }') + 1 }] },
    ]);
    expect(
      await refused('query($e: String!) { repository(owner: "acme", name: "x") { f: object(expression: $e) { ... on Blob { text } } } }'),
    ).toEqual([
      {
        message: 'Variable "$e" has invalid value: Expected a value of non-null type "String!" to be provided.',
        locations: [{ line: 1, column: 7 }],
      },
    ]);
    expect(
      (await refused('query { repository(owner: "acme", name: "x") { f: object(expression: $e) { ... on Blob { text } } } }'))[0]?.message,
    ).toBe('Variable "$e" is not defined.');
    expect((await refused('mutation { x }'))[0]?.message).toBe('Cannot query field "x" on type "Mutation".');
    expect(
      (await refused('query { repository(owner: "a", name: "b") { f: object(expression: "HEAD:a") { ...Missing } } }'))[0]?.message,
    ).toBe('Unknown fragment "Missing".');
    const unclosed = 'query { repository(owner: "a" name: "b") { f: object(expression: "HEAD:a") { ... on Blob { text } }';
    expect(await refused(unclosed)).toEqual([
      { message: 'Syntax Error: Expected Name, found <EOF>.', locations: [{ line: 1, column: unclosed.length + 1 }] },
    ]);
    expect(await refused('')).toEqual([{ message: 'Syntax Error: Unexpected <EOF>.', locations: [{ line: 1, column: 1 }] }]);
    const noQuery = await request(server.url, 'POST', '/graphql', { headers: auth(ALICE), body: { variables: {} } });
    expect(noQuery.body).toEqual({ errors: [{ message: 'A query attribute must be specified and must be a string.' }] });
  });

  it('parses the query shape into the repository (with where its field starts), the expressions by alias and the blob fields', () => {
    expect(parseReadFilesQuery(READ_FILES, { owner: 'acme', name: 'web', f0: 'HEAD:a', f1: 'main:b', f2: 'x:c', f3: 'y:d' })).toEqual({
      owner: 'acme',
      name: 'web',
      repositoryLocation: { line: 2, column: 3 },
      objects: [
        { key: 'f0', expression: 'HEAD:a' },
        { key: 'f1', expression: 'main:b' },
        { key: 'f2', expression: 'x:c' },
        { key: 'f3', expression: 'y:d' },
      ],
      fields: ['byteSize', 'isBinary', 'isTruncated', 'text'],
    });
  });

  it('locates the repository field as GraphQL errors do: line and column from 1, after LF, CRLF or CR line ends', () => {
    const locate = (query: string) => parseReadFilesQuery(query, {}).repositoryLocation;
    const object = 'f: object(expression: "HEAD:a") { ... on Blob { text } }';
    expect(locate(`query { repository(owner: "a", name: "b") { ${object} } }`)).toEqual({ line: 1, column: 9 });
    expect(locate(`# read\r\nquery {\r\n\r\n    repository(owner: "a", name: "b") { ${object} } }`)).toEqual({ line: 4, column: 5 });
    expect(locate(`query {\r\trepository(owner: "a", name: "b") { ${object} } }`)).toEqual({ line: 2, column: 2 });
  });
});
