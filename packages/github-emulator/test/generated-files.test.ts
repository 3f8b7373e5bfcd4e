import { createHash } from 'node:crypto';
import type { Listening } from '@switchyard/service-kit';
import { request } from '@switchyard/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDemoSeed, parseSeed, SeedError, type SeedInput } from '../src/index.ts';
import { ALICE, auth, startEmulator } from './fixtures.ts';

const MiB = 1024 * 1024;
const BIG = 150 * MiB;
const LOCK_PATTERN = '{"name":"x","lockfileVersion":3}\n';

/** The demo seed with generated files in alice's `notes-app`: a 150 MiB lockfile, a 10-byte file and a 2 MiB one. */
function seedWithGeneratedFiles(): SeedInput {
  const demo = loadDemoSeed();
  return {
    ...demo,
    repos: demo.repos.map((repo) =>
      repo.name === 'notes-app'
        ? {
            ...repo,
            files: {
              main: {
                ...repo.files.main,
                'web/package-lock.json': { size: BIG, pattern: LOCK_PATTERN },
                'web/small.txt': { size: 10, pattern: 'abc' },
                'web/two.bin': { size: 2 * MiB },
              },
            },
          }
        : repo,
    ),
  };
}

/** Reads a response body chunk by chunk, keeping only a running sha1 (as git's blob id), the count and both ends. */
async function drain(res: Response): Promise<{ bytes: number; blobSha: string; head: string; tail: string }> {
  const size = Number(res.headers.get('content-length'));
  const hash = createHash('sha1').update(`blob ${size}\0`);
  let bytes = 0;
  let head = '';
  let tail = Buffer.alloc(0);
  for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
    hash.update(chunk);
    if (bytes === 0) head = Buffer.from(chunk).subarray(0, 64).toString('utf8');
    tail = Buffer.concat([tail.subarray(-64), Buffer.from(chunk).subarray(-64)]).subarray(-64);
    bytes += chunk.byteLength;
  }
  return { bytes, blobSha: hash.digest('hex'), head, tail: tail.toString('utf8') };
}

describe('GitHub emulator: generated files', () => {
  let server: Listening;
  beforeAll(async () => {
    ({ server } = await startEmulator(seedWithGeneratedFiles()));
  });
  afterAll(() => server.close());

  const path = (file: string) => `/repos/alice/notes-app/contents/${file}`;
  const raw = (file: string, init: RequestInit = {}) =>
    fetch(`${server.url}${path(file)}`, { ...init, headers: { ...auth(ALICE), accept: 'application/vnd.github.raw' } });

  it('answers the contents API for a file over 1 MB without content (encoding none) and with its real size', async () => {
    const res = await request(server.url, 'GET', path('web/package-lock.json'), { headers: auth(ALICE) });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ type: 'file', encoding: 'none', content: '', size: BIG, path: 'web/package-lock.json' });
    expect(res.body.sha).toMatch(/^[0-9a-f]{40}$/);
    expect(Number(res.headers.get('content-length'))).toBeLessThan(4_096);
    const listing = await request(server.url, 'GET', path('web'), { headers: auth(ALICE) });
    expect(listing.body.map((e: { name: string; size: number }) => [e.name, e.size])).toEqual([
      ['package-lock.json', BIG],
      ['small.txt', 10],
      ['two.bin', 2 * MiB],
    ]);
  });

  it('inlines a generated file of at most 1 MB as base64, like a stored one', async () => {
    const res = await request(server.url, 'GET', path('web/small.txt'), { headers: auth(ALICE) });
    expect(res.body).toMatchObject({ encoding: 'base64', size: 10 });
    expect(Buffer.from(res.body.content, 'base64').toString('utf8')).toBe('abcabcabca');
    expect(await raw('web/small.txt').then((r) => r.text())).toBe('abcabcabca');
  });

  it('streams a 150 MiB file on the raw media type: Content-Length, every byte, the blob sha of the contents API', async () => {
    const json = await request(server.url, 'GET', path('web/package-lock.json'), { headers: auth(ALICE) });
    const res = await raw('web/package-lock.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.github.raw; charset=utf-8');
    expect(res.headers.get('content-length')).toBe(String(BIG));
    const read = await drain(res);
    expect(read.bytes).toBe(BIG);
    expect(read.blobSha).toBe(json.body.sha);
    expect(read.head.startsWith(LOCK_PATTERN)).toBe(true);
    // Byte i of the file is byte (i mod its length) of the pattern (ASCII here).
    const expectedTail = Array.from({ length: 64 }, (_, k) => LOCK_PATTERN[(BIG - 64 + k) % LOCK_PATTERN.length]).join('');
    expect(read.tail).toBe(expectedTail);
  }, 60_000);

  it('stops streaming when the client goes away, and keeps answering', async () => {
    const controller = new AbortController();
    const res = await raw('web/package-lock.json', { signal: controller.signal });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    controller.abort();
    await expect(reader.read()).rejects.toThrow();
    const two = await raw('web/two.bin');
    expect((await drain(two)).bytes).toBe(2 * MiB);
  });

  it('rejects a generated file without a size, with a negative one, or one over 1 GiB', () => {
    const withFile = (file: unknown): SeedInput =>
      ({
        users: [{ id: 1, login: 'u', token: 't' }],
        repos: [
          {
            id: 1,
            owner: 'u',
            name: 'r',
            private: false,
            fork: false,
            defaultBranch: 'main',
            language: null,
            files: { main: { f: file } },
          },
        ],
      }) as unknown as SeedInput;
    for (const file of [{ pattern: 'x' }, { size: -1 }, { size: 1024 ** 3 + 1 }, { size: 1, pattern: '' }, { size: 1, other: 1 }]) {
      expect(() => parseSeed(withFile(file)), JSON.stringify(file)).toThrow(SeedError);
    }
    expect(parseSeed(withFile({ size: 5 })).repos[0]?.files.main?.f).toEqual({ size: 5, pattern: 'x' });
  });
});
