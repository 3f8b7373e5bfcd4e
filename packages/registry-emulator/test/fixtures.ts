import { createHash } from 'node:crypto';
import type { Listening } from '@switchyard/service-kit';
import { pino } from 'pino';
import { request } from 'undici';
import { loadDemoSeed, type SeedInput, startRegistryEmulator } from '../src/index.ts';

export const silentLogger = pino({ level: 'silent' });

/** Starts the emulator on a loopback port with `seed` (default: the demo seed) and an optional clock. */
export function startEmulator(seed: SeedInput = loadDemoSeed(), now?: () => number): Promise<Listening> {
  return startRegistryEmulator({ seed, logger: silentLogger, ...(now ? { now } : {}) });
}

/** An answer read whole. */
export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests look into bodies of any shape
  json: () => any;
}

/** One request over real HTTP (undici), read whole. */
export async function call(
  server: Listening,
  method: 'GET' | 'HEAD' | 'POST' | 'PUT',
  path: string,
  options: { headers?: Record<string, string>; body?: unknown } = {},
): Promise<Reply> {
  const headers = { ...options.headers };
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await request(`${server.url}${path}`, { method, headers, ...(body === undefined ? {} : { body }) });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, text, json: () => JSON.parse(text) };
}

export const get = (server: Listening, path: string, headers: Record<string, string> = {}) => call(server, 'GET', path, { headers });
export const post = (server: Listening, path: string, body: unknown) => call(server, 'POST', path, { body });

/** The synthetic artifact bytes and their digests, computed here independently of the emulator. */
export function digests(packageManager: string, name: string, version: string) {
  const bytes = Buffer.from(`${packageManager}:${name}@${version}`);
  const hash = (algorithm: string, encoding: 'hex' | 'base64') => createHash(algorithm).update(bytes).digest(encoding);
  return { bytes, sha1: hash('sha1', 'hex'), sha256: hash('sha256', 'hex'), md5: hash('md5', 'hex'), sha512: hash('sha512', 'base64') };
}

export const sha1Hex = (text: string) => createHash('sha1').update(text).digest('hex');

/** The `<tag>` contents of an XML text, in order. */
export const xmlValues = (xml: string, tag: string) => [...xml.matchAll(new RegExp(`<${tag}>([^<]*)</${tag}>`, 'g'))].map((m) => m[1]);

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
export const basic = (user: string, password: string) => ({
  authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
});
