import {
  DEMO_TOKEN_ALICE as ALICE,
  createGitHubEmulator,
  type EmulatorFault,
  LARGE_FILE,
  parseReadFilesQuery,
  startGitHubEmulator,
  scaleTestSeed as testSeed,
} from '@switchyard/github-emulator';
import { type Listening, listen } from '@switchyard/service-kit';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitHubCodeHost, type GitHubCodeHost, readFilesQuery, readFilesRequest } from '../src/index.ts';
import { codeHostError } from './code-host-error.ts';

/** One request the emulator received: method, path, status, `If-None-Match`, and the JSON body of a POST. */
interface Seen {
  method: string;
  url: string;
  status: number;
  ifNoneMatch: string | undefined;
  body: unknown;
}

describe('GitHub adapter: several files in one GraphQL query, conditional GETs', () => {
  const logger = pino({ level: 'silent' });
  const seen: Seen[] = [];
  const faults: EmulatorFault[] = [];
  let server: Listening;
  let host: GitHubCodeHost;
  const storefront = { owner: 'acme', name: 'web-storefront' };

  beforeAll(async () => {
    const app = createGitHubEmulator({ seed: testSeed(), logger, faults });
    server = await listen(
      (req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('finish', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          seen.push({
            method: req.method ?? '',
            url: req.url ?? '',
            status: res.statusCode,
            ifNoneMatch: req.headers['if-none-match'],
            body: text === '' ? undefined : JSON.parse(text),
          });
        });
        app(req, res);
      },
      0,
      '127.0.0.1',
    );
    // Without the throttling queue, which spaces GraphQL queries a second apart per token (as it does writes).
    host = createGitHubCodeHost({
      baseUrl: server.url,
      userAgent: 'code-host-tests',
      throttle: false,
      timeoutMs: 2_000,
      retryBaseDelayMs: 1,
      logger,
    });
  });
  afterAll(() => server.close(100));

  /** The requests the emulator answered while `work` ran. */
  async function during(work: () => Promise<unknown>): Promise<Seen[]> {
    const start = seen.length;
    await work();
    await new Promise((resolve) => setImmediate(resolve));
    return seen.slice(start);
  }

  it('reads several files in one POST /graphql of the ReadFiles shape, as readFile reads them; absent ones are left out', async () => {
    let read: Awaited<ReturnType<GitHubCodeHost['readFiles']>> | undefined;
    const requests = await during(async () => {
      read = await host.readFiles(ALICE, storefront, ['package.json', 'package-lock.json', 'yarn.lock', 'src'], { ref: 'main' });
    });
    expect(read).toEqual({
      files: {
        'package.json': await host.readFile(ALICE, storefront, 'package.json', 'main'),
        'package-lock.json': await host.readFile(ALICE, storefront, 'package-lock.json', 'main'),
      },
      tooLarge: {},
    });
    expect(requests.map((r) => `${r.method} ${r.url} ${r.status}`)).toEqual(['POST /graphql 200']);
    // The query is exactly the shape the adapter documents, and the emulator's validator reads it as meant.
    const body = requests[0]?.body as { query: string; variables: Record<string, string> };
    expect(body.query).toBe(readFilesQuery(4));
    expect(body).toEqual(readFilesRequest(storefront, ['package.json', 'package-lock.json', 'yarn.lock', 'src'], 'main'));
    expect(parseReadFilesQuery(body.query, body.variables)).toEqual({
      owner: 'acme',
      name: 'web-storefront',
      repositoryLocation: { line: 2, column: 3 },
      objects: [
        { key: 'f0', expression: 'main:package.json' },
        { key: 'f1', expression: 'main:package-lock.json' },
        { key: 'f2', expression: 'main:yarn.lock' },
        { key: 'f3', expression: 'main:src' },
      ],
      fields: ['byteSize', 'isBinary', 'isTruncated', 'text'],
    });
  });

  it('the default branch without a ref (HEAD), another branch with one; a repo the token cannot see reads as nothing', async () => {
    const main = await host.readFiles(ALICE, storefront, ['package.json', 'package-lock.json']);
    expect(JSON.parse(main.files['package.json'] ?? '').dependencies.lodash).toBe('^4.17.15');
    const develop = await host.readFiles(ALICE, storefront, ['package.json', 'package-lock.json'], { ref: 'develop' });
    expect(JSON.parse(develop.files['package.json'] ?? '').dependencies.lodash).toBe('^4.17.19');
    expect(await host.readFiles(ALICE, { owner: 'bob', name: 'bob-scripts' }, ['requirements.txt', 'setup.py'])).toEqual({
      files: {},
      tooLarge: {},
    });
  });

  it('one file goes through the contents API; a file known to be over the limit is not fetched; one over 1 MB is read raw', async () => {
    const single = await during(() => host.readFiles(ALICE, storefront, ['package.json'], { ref: 'main' }));
    expect(single.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /repos/acme/web-storefront/contents/package.json?ref=main']);

    const small = createGitHubCodeHost({ baseUrl: server.url, maxResponseBytes: 3_000, throttle: false, logger });
    const none = await during(async () => {
      expect(
        await small.readFiles(ALICE, storefront, ['package.json', 'package-lock.json'], { sizes: { 'package-lock.json': 4_000 } }),
      ).toEqual({
        files: { 'package.json': expect.stringContaining('"web-storefront"') },
        tooLarge: { 'package-lock.json': { limitBytes: 3_000, sizeBytes: 4_000 } },
      });
    });
    expect(none.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /repos/acme/web-storefront/contents/package.json']);

    const bigFiles = { owner: 'alice', name: 'big-files' };
    const big = await during(async () => {
      expect(await host.readFiles(ALICE, bigFiles, ['data/huge.txt', 'with space/a b.txt'])).toEqual({
        files: { 'data/huge.txt': LARGE_FILE, 'with space/a b.txt': 'spaced\n' },
        tooLarge: {},
      });
    });
    // The query cut the big blob's text (isTruncated): it is read through the contents API, raw.
    expect(big.map((r) => `${r.method} ${r.url}`)).toEqual([
      'POST /graphql',
      'GET /repos/alice/big-files/contents/data%2Fhuge.txt',
      'GET /repos/alice/big-files/contents/data%2Fhuge.txt',
    ]);
  });

  it('a blob over the limit in the answer is tooLarge; an answer over the limit has each file read on its own', async () => {
    const small = createGitHubCodeHost({ baseUrl: server.url, maxResponseBytes: 2_000, throttle: false, logger });
    const requests = await during(async () => {
      const read = await small.readFiles(ALICE, storefront, ['package.json', 'package-lock.json']);
      expect(Object.keys(read.files)).toEqual(['package.json']);
      expect(read.tooLarge['package-lock.json']).toMatchObject({ limitBytes: 2_000 });
    });
    expect(requests.map((r) => `${r.method} ${r.url}`).sort()).toEqual([
      'GET /repos/acme/web-storefront/contents/package-lock.json',
      'GET /repos/acme/web-storefront/contents/package.json',
      'POST /graphql',
    ]);
  });

  it("GraphQL's rate limit (a RATE_LIMITED error, or a 403) is `rate_limited`, with or without the throttling queue; an unknown token `unauthorized`", async () => {
    const pair = ['package.json', 'package-lock.json'];
    faults.push({ kind: 'rate-limit', resetInSeconds: 120 });
    const refused = await codeHostError(host.readFiles(ALICE, storefront, pair));
    expect({ kind: refused.kind, status: refused.status }).toEqual({ kind: 'rate_limited', status: 403 });
    expect((await codeHostError(host.readFiles('no-such-token', storefront, pair))).kind).toBe('unauthorized');

    const limited: Listening = await startGitHubEmulator({
      seed: { ...testSeed(), rateLimit: { limit: 1, windowSeconds: 3_600 } },
      logger,
    });
    try {
      for (const throttle of [false, true]) {
        const client = createGitHubCodeHost({ baseUrl: limited.url, throttle, maxRateLimitWaitSeconds: 1, logger });
        if (!throttle) expect(Object.keys((await client.readFiles(ALICE, storefront, pair)).files)).toEqual(pair);
        const error = await codeHostError(client.readFiles(ALICE, storefront, pair));
        expect(error.kind).toBe('rate_limited');
        expect(error.retryAfterSeconds).toBeGreaterThan(3_000);
        expect(error.message).toMatch(/API rate limit exceeded for user ID 1001/);
      }
    } finally {
      await limited.close(100);
    }
  });

  it('reads many repositories in two GraphQL queries (sizes, then texts at the commit the first saw); one it cannot see is undefined', async () => {
    const bigFiles = { owner: 'alice', name: 'big-files' };
    let read: Awaited<ReturnType<NonNullable<GitHubCodeHost['readRepositories']>>> = [];
    const requests = await during(async () => {
      read = await host.readRepositories(ALICE, [
        { repo: storefront, branch: 'main', paths: ['package.json', 'package-lock.json', 'yarn.lock', 'src'] },
        { repo: storefront, branch: 'develop', paths: ['package.json'] },
        { repo: { owner: 'bob', name: 'bob-scripts' }, branch: 'main', paths: ['requirements.txt'] },
        { repo: storefront, branch: 'no-such-branch', paths: ['package.json'] },
        { repo: bigFiles, branch: 'main', paths: ['data/huge.txt', 'with space/a b.txt'] },
      ]);
    });
    const [main, develop, unseen, noBranch, big] = read;
    expect(main).toEqual({
      commit: await host.getBranchHead(ALICE, storefront, 'main'),
      files: {
        'package.json': await host.readFile(ALICE, storefront, 'package.json', 'main'),
        'package-lock.json': await host.readFile(ALICE, storefront, 'package-lock.json', 'main'),
      },
      tooLarge: {},
    });
    expect(develop?.commit).toBe(await host.getBranchHead(ALICE, storefront, 'develop'));
    expect(JSON.parse(develop?.files['package.json'] ?? '').dependencies.lodash).toBe('^4.17.19');
    expect(unseen).toBeUndefined();
    expect(noBranch).toBeUndefined();
    expect(big?.files).toEqual({ 'data/huge.txt': LARGE_FILE, 'with space/a b.txt': 'spaced\n' });
    // Two queries for all five repositories; the file over 1 MB through the contents API, at the commit the sizes saw.
    expect(requests.map((r) => `${r.method} ${r.url.split('?')[0]}`)).toEqual([
      'POST /graphql',
      'POST /graphql',
      'GET /repos/alice/big-files/contents/data%2Fhuge.txt',
      'GET /repos/alice/big-files/contents/data%2Fhuge.txt',
    ]);
    expect(requests[2]?.url).toContain(`ref=${big?.commit}`);

    // A client limit between the two files' sizes: the bigger is tooLarge, with its size, and never fetched.
    const sizes = ['package.json', 'package-lock.json'].map((path) => Buffer.byteLength(main?.files[path] ?? ''));
    const limit = Math.max(...sizes) - 1;
    const small = createGitHubCodeHost({ baseUrl: server.url, maxResponseBytes: limit, throttle: false, logger });
    const [tight] = await small.readRepositories(ALICE, [
      { repo: storefront, branch: 'main', paths: ['package.json', 'package-lock.json'] },
    ]);
    const [smaller, bigger] = sizes[1] === limit + 1 ? ['package.json', 'package-lock.json'] : ['package-lock.json', 'package.json'];
    expect(tight?.files).toEqual({ [smaller as string]: main?.files[smaller as string] });
    expect(tight?.tooLarge).toEqual({ [bigger as string]: { limitBytes: limit, sizeBytes: Math.max(...sizes) } });
  });

  it('asks a GET again with If-None-Match; the 304 gives the remembered answer and costs no rate limit', async () => {
    const fresh = createGitHubCodeHost({ baseUrl: server.url, logger });
    const first = await during(async () => {
      expect(await fresh.listDirectory(ALICE, storefront, '', 'main')).toEqual(await host.listDirectory(ALICE, storefront, '', 'main'));
    });
    expect(first[0]).toMatchObject({ status: 200, ifNoneMatch: undefined });
    const again = await during(async () => {
      expect((await fresh.listDirectory(ALICE, storefront, '', 'main'))?.map((entry) => entry.name)).toContain('package.json');
      expect(await fresh.readFile(ALICE, storefront, 'package.json', 'main')).toContain('web-storefront');
      expect(await fresh.readFile(ALICE, storefront, 'package.json', 'main')).toContain('web-storefront');
    });
    expect(again.map((r) => [r.status, typeof r.ifNoneMatch])).toEqual([
      [304, 'string'],
      [200, 'undefined'],
      [304, 'string'],
    ]);
    // A paginated list asked again (the pagination plugin reshapes the answers it gets) is the same list.
    const installations = await fresh.listInstallations(ALICE);
    expect(await fresh.listInstallations(ALICE)).toEqual(installations);
    // Without the cache nothing is asked conditionally.
    const plain = createGitHubCodeHost({ baseUrl: server.url, conditionalCacheBytes: 0, logger });
    const twice = await during(async () => {
      await plain.listDirectory(ALICE, storefront, '', 'main');
      await plain.listDirectory(ALICE, storefront, '', 'main');
    });
    expect(twice.map((r) => r.status)).toEqual([200, 200]);
    expect(() => createGitHubCodeHost({ baseUrl: server.url, conditionalCacheBytes: -1, logger })).toThrow(RangeError);
  });
});
