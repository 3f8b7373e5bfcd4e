import { request as httpRequest, type IncomingHttpHeaders, STATUS_CODES } from 'node:http';
import { DependencyApiErrors } from '@switchyard/contracts';
import { expect } from 'vitest';

/** The dependency update API's content type (https://github.com/dependabot/api-docs). */
export const JSON_UTF8 = 'application/json; charset=utf-8';

/** An answer read whole, with the reason phrase the client saw. */
export interface WireResponse {
  status: number;
  statusText: string;
  headers: IncomingHttpHeaders;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests look into bodies of any shape
  body: any;
}

/** How {@link sendOnTheWire} builds a request. */
export interface SendOptions {
  /** Token sent as `Authorization: <scheme> <token>` (default: the caller's default token); null sends no Authorization header. */
  token?: string | null;
  scheme?: string;
  /** Sent as `JSON.stringify(json)` with `content-type: application/json` unless `contentType` says otherwise. */
  json?: unknown;
  /** Sent byte for byte. */
  body?: string | Buffer;
  /** The Content-Type header; null sends none at all. */
  contentType?: string | null;
  /** Send the body chunked, without Content-Length. */
  chunked?: boolean;
  /** Other headers, exactly as given (they win over the ones above). */
  headers?: Record<string, string>;
}

/**
 * Sends one request with node:http, so every header (or its absence) is exactly as given, and reads the
 * whole answer. `defaultToken` is used when `options.token` is undefined.
 */
export function sendOnTheWire(
  baseUrl: string,
  defaultToken: string,
  method: string,
  path: string,
  options: SendOptions = {},
): Promise<WireResponse> {
  const headers: Record<string, string> = {};
  const token = options.token === undefined ? defaultToken : options.token;
  if (token !== null) headers.authorization = `${options.scheme ?? 'Personal'} ${token}`;
  let body = options.body;
  if (options.json !== undefined) body = JSON.stringify(options.json);
  const contentType = options.contentType === undefined ? (body === undefined ? null : 'application/json') : options.contentType;
  if (contentType !== null) headers['content-type'] = contentType;
  if (body !== undefined && !options.chunked) headers['content-length'] = String(Buffer.byteLength(body));
  Object.assign(headers, options.headers);
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = httpRequest(new URL(path, baseUrl), { method, headers, agent: false }, (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const json = /json/.test(res.headers['content-type'] ?? '') && text !== '';
        resolve({
          status: res.statusCode ?? 0,
          statusText: res.statusMessage ?? '',
          headers: res.headers,
          text,
          body: json ? JSON.parse(text) : undefined,
        });
      });
    });
    // A server that answers early (413) may close before the whole body is written; the answer is what counts.
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    if (body === undefined) req.end();
    else if (options.chunked) {
      const buffer = Buffer.from(body);
      const half = Math.floor(buffer.length / 2);
      req.write(buffer.subarray(0, half));
      req.end(buffer.subarray(half));
    } else req.end(body);
  });
}

/** Asserts the API's error envelope with `status`, in `application/json; charset=utf-8`, each error titled with the reason phrase. */
export function expectEnvelope(res: WireResponse, status: number, detail?: RegExp): DependencyApiErrors {
  expect(res.status, res.text).toBe(status);
  expect(res.headers['content-type']).toBe(JSON_UTF8);
  const parsed = DependencyApiErrors.safeParse(res.body);
  expect(parsed.success, res.text).toBe(true);
  const doc = parsed.data as DependencyApiErrors;
  for (const error of doc.errors) expect(error).toMatchObject({ status, title: STATUS_CODES[status] });
  if (detail) expect(doc.errors.map((e) => e.detail).join(' | ')).toMatch(detail);
  return doc;
}
