import type { IncomingMessage, ServerResponse } from 'node:http';
import { DEMO_TOKEN_ALICE as ALICE, createGitHubEmulator, loadDemoSeed, type SeedInput } from '@switchyard/github-emulator';
import { type Listening, listen } from '@switchyard/service-kit';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CodeHost,
  CodeHostError,
  callerFacingError,
  createGitHubCodeHost,
  DEFAULT_MAX_RESPONSE_BYTES,
  formatBytes,
  type GitHubCodeHostOptions,
} from '../src/index.ts';
import { codeHostError } from './code-host-error.ts';

const MiB = 1024 * 1024;
const logger = pino({ level: 'silent' });
const REPO = { owner: 'acme', name: 'web' };

/** What the fake contents endpoint answers to the raw media type. */
type RawAnswer = (res: ServerResponse) => void;

/**
 * A stand-in for GitHub's contents endpoint: the JSON answer says the file has `declaredSize` bytes and no inline
 * content (as GitHub does over 1 MB), the raw media type gets `raw`. Counts requests and notes closed connections.
 */
async function startContentsServer(declaredSize: number, raw: RawAnswer) {
  const seen = { json: 0, raw: 0, closedEarly: 0 };
  const server = await listen(
    (req: IncomingMessage, res: ServerResponse) => {
      res.on('close', () => {
        if (!res.writableFinished) seen.closedEarly += 1;
      });
      if (/vnd\.github(\.v3)?\.raw/.test(req.headers.accept ?? '')) {
        seen.raw += 1;
        raw(res);
        return;
      }
      seen.json += 1;
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify({ type: 'file', encoding: 'none', size: declaredSize, name: 'big.txt', path: 'big.txt', content: '' }));
    },
    0,
    '127.0.0.1',
  );
  const host = (options: Partial<GitHubCodeHostOptions> = {}) =>
    createGitHubCodeHost({ baseUrl: server.url, timeoutMs: 5_000, retryBaseDelayMs: 1, logger, ...options });
  return { server, seen, host };
}

/** Writes `total` bytes of `x` in 16 KiB chunks, waiting for the socket to drain (chunked: no Content-Length). */
function writeChunked(res: ServerResponse, total: number): void {
  res.writeHead(200, { 'content-type': 'application/vnd.github.raw; charset=utf-8' });
  const chunk = Buffer.alloc(16 * 1024, 'x');
  let sent = 0;
  const pump = () => {
    while (sent < total && !res.destroyed) {
      const piece = chunk.subarray(0, Math.min(chunk.length, total - sent));
      sent += piece.length;
      if (!res.write(piece)) {
        res.once('drain', pump);
        return;
      }
    }
    if (!res.destroyed) res.end();
  };
  pump();
}

describe('bounded reads from the code host: the size limit of every answer and file', () => {
  const servers: Listening[] = [];
  afterAll(async () => {
    for (const server of servers) await server.close(50);
  });
  async function contents(declaredSize: number, raw: RawAnswer) {
    const started = await startContentsServer(declaredSize, raw);
    servers.push(started.server);
    return started;
  }

  it('defaults to 5 MiB and rejects a limit that is not a whole number of bytes', () => {
    expect(DEFAULT_MAX_RESPONSE_BYTES).toBe(5 * MiB);
    for (const bad of [0, -1, 1.5, Number.NaN]) {
      expect(() => createGitHubCodeHost({ logger, maxResponseBytes: bad })).toThrow(RangeError);
    }
  });

  it('an answer whose Content-Length is over the limit is `too_large` at once, the connection cut, not retried', async () => {
    const { host, seen } = await contents(1_000, (res) => {
      // Declares 6 MiB, sends a little, then nothing more: only the header can tell the client in time.
      res.writeHead(200, { 'content-type': 'application/vnd.github.raw; charset=utf-8', 'content-length': String(6 * MiB) });
      res.write(Buffer.alloc(1024, 'x'));
    });
    const started = Date.now();
    const error = await codeHostError(host().readFile('t0ken', REPO, 'big.txt'));
    expect(Date.now() - started).toBeLessThan(2_000);
    expect([error.kind, error.status, error.limitBytes, error.sizeBytes]).toEqual(['too_large', 200, 5 * MiB, 6 * MiB]);
    expect(error.message).toBe('GitHub GET /repos/acme/web/contents/big.txt: the answer is over the 5.0 MiB limit (6.0 MiB)');
    expect(seen).toMatchObject({ json: 1, raw: 1 });
    await expect.poll(() => seen.closedEarly).toBe(1);
  });

  it('a chunked answer without Content-Length is cut off once the running count passes the limit', async () => {
    const { host, seen } = await contents(1_000, (res) => writeChunked(res, 1024 * MiB));
    const started = Date.now();
    const error = await codeHostError(host({ maxResponseBytes: 256 * 1024 }).readFile('t0ken', REPO, 'big.txt'));
    expect(Date.now() - started).toBeLessThan(2_000);
    expect([error.kind, error.limitBytes, error.sizeBytes]).toEqual(['too_large', 256 * 1024, undefined]);
    expect(error.message).toBe('GitHub GET /repos/acme/web/contents/big.txt: the answer is over the 256.0 KiB limit');
    expect(seen).toMatchObject({ json: 1, raw: 1 });
    await expect.poll(() => seen.closedEarly).toBe(1);
  });

  it('an answer of exactly the limit passes, chunked or with Content-Length; one byte more does not', async () => {
    const limit = 300 * 1024;
    const chunked = await contents(1_000, (res) => writeChunked(res, limit));
    expect(await chunked.host({ maxResponseBytes: limit }).readFile('t0ken', REPO, 'big.txt')).toBe('x'.repeat(limit));
    const declared = await contents(1_000, (res) => {
      res.writeHead(200, { 'content-type': 'application/vnd.github.raw; charset=utf-8', 'content-length': String(limit) });
      res.end(Buffer.alloc(limit, 'y'));
    });
    expect(await declared.host({ maxResponseBytes: limit }).readFile('t0ken', REPO, 'big.txt')).toBe('y'.repeat(limit));
    const over = await codeHostError(chunked.host({ maxResponseBytes: limit - 1 }).readFile('t0ken', REPO, 'big.txt'));
    expect(over.kind).toBe('too_large');
  });

  it('a file whose `size` is over the limit is `too_large` without asking for its content', async () => {
    const { host, seen } = await contents(150 * MiB, (res) => writeChunked(res, 150 * MiB));
    const error = await codeHostError(host().readFile('t0ken', REPO, '/web/package-lock.json'));
    expect([error.kind, error.limitBytes, error.sizeBytes]).toEqual(['too_large', 5 * MiB, 150 * MiB]);
    expect(error.message).toBe(
      'GitHub GET /repos/acme/web/contents/web/package-lock.json: web/package-lock.json is 150.0 MiB, over the 5.0 MiB limit',
    );
    expect(seen).toMatchObject({ json: 1, raw: 0 });
  });

  it('bounds every answer, not only files: a list page over the limit is `too_large`', async () => {
    const server = await listen(
      (_req, res) => {
        const page = JSON.stringify(Array.from({ length: 100 }, (_, i) => ({ id: i, name: `repo-${i}`, description: 'd'.repeat(200) })));
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(page)) });
        res.end(page);
      },
      0,
      '127.0.0.1',
    );
    servers.push(server);
    const host = createGitHubCodeHost({ baseUrl: server.url, maxResponseBytes: 4_096, logger });
    const error = await codeHostError(host.listRepos('t0ken', { id: 1, login: 'acme', type: 'org' }));
    expect([error.kind, error.limitBytes]).toEqual(['too_large', 4_096]);
    expect(error.message).toMatch(/^GitHub GET \/orgs\/acme\/repos: the answer is over the 4\.0 KiB limit \(\d+\.\d KiB\)$/);
  });

  it("is the caller's CodeHostUnavailable (502), saying the answer is too large", () => {
    const mapped = callerFacingError(new CodeHostError('too_large', 'x', { limitBytes: 1, sizeBytes: 2 }));
    expect(mapped).toMatchObject({ name: 'CodeHostUnavailable', kind: 'upstream_failed' });
    expect((mapped as Error).message).toBe("The code host's answer is larger than this service accepts");
  });

  it('formats sizes in binary units with one decimal, whole bytes under 1 KiB', () => {
    expect([0, 512, 1024, 5 * MiB, 150 * MiB, 1536 * MiB].map(formatBytes)).toEqual([
      '0 B',
      '512 B',
      '1.0 KiB',
      '5.0 MiB',
      '150.0 MiB',
      '1.5 GiB',
    ]);
  });
});

describe('bounded reads against the emulator: generated files', () => {
  const requests: string[] = [];
  let server: Listening;

  /** The demo seed with generated files on acme/web-storefront: a 150 MiB lockfile and a 3 MiB file. */
  function seed(): SeedInput {
    const demo = loadDemoSeed();
    return {
      ...demo,
      repos: demo.repos.map((repo) =>
        repo.name === 'web-storefront'
          ? {
              ...repo,
              files: {
                ...repo.files,
                main: {
                  ...repo.files.main,
                  'web/package-lock.json': { size: 150 * MiB, pattern: '{"lockfileVersion":3}\n' },
                  'data/three.txt': { size: 3 * MiB, pattern: 'abc\n' },
                },
              },
            }
          : repo,
      ),
    };
  }

  beforeAll(async () => {
    const app = createGitHubEmulator({ seed: seed(), logger });
    server = await listen(
      (req, res) => {
        requests.push(`${req.url} ${req.headers.accept}`);
        app(req, res);
      },
      0,
      '127.0.0.1',
    );
  });
  afterAll(() => server.close(100));

  const repo = { owner: 'acme', name: 'web-storefront' };
  const hostWith = (maxResponseBytes?: number): CodeHost =>
    createGitHubCodeHost({ baseUrl: server.url, logger, ...(maxResponseBytes === undefined ? {} : { maxResponseBytes }) });

  it('a 150 MiB lockfile is `too_large` from the contents answer alone, naming the path and the limit', async () => {
    const start = requests.length;
    const error = await codeHostError(hostWith().readFile(ALICE, repo, 'web/package-lock.json'));
    expect([error.kind, error.sizeBytes, error.limitBytes]).toEqual(['too_large', 150 * MiB, 5 * MiB]);
    expect(error.message).toContain('web/package-lock.json is 150.0 MiB, over the 5.0 MiB limit');
    expect(requests.slice(start)).toHaveLength(1);
  });

  it('a 3 MiB file is read raw under the default limit, and refused under a 2 MiB one', async () => {
    const text = await hostWith().readFile(ALICE, repo, 'data/three.txt');
    expect(text?.length).toBe(3 * MiB);
    expect(text?.startsWith('abc\nabc\n')).toBe(true);
    const error = await codeHostError(hostWith(2 * MiB).readFile(ALICE, repo, 'data/three.txt'));
    expect(error.message).toContain('data/three.txt is 3.0 MiB, over the 2.0 MiB limit');
    // Small files and lists are untouched by a small limit.
    expect(JSON.parse((await hostWith(64 * 1024).readFile(ALICE, repo, 'package.json')) ?? '').dependencies.lodash).toBe('^4.17.15');
  });
});
