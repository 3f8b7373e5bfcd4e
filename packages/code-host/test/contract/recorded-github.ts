import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { expect } from 'vitest';
import { gitHubDescription, type SentRequest } from '../../../github-emulator/test/contract/github-description.ts';
import { createGitHubCodeHost, type GitHubCodeHost, type GitHubCodeHostOptions } from '../../src/index.ts';
import type { OperationRef, RecordedAnswer } from './fixtures/recorded.ts';

/** A request the adapter sent to the {@link RecordedGitHub}: method, raw path, query, parsed body, and its headers. */
export interface ReceivedRequest extends SentRequest {
  headers: IncomingHttpHeaders;
}

/**
 * A local HTTP server (node:http, real requests from the adapter) that plays recorded GitHub answers: each request is
 * matched to an operation given to {@link RecordedGitHub.serve} by its method and path template, and answered with that
 * operation's next recorded answer. A request no operation takes is answered 501 and fails the test that checks it.
 */
export interface RecordedGitHub {
  /** The server's address (`http://127.0.0.1:<port>`), the adapter's `baseUrl`. */
  url: string;
  /** Every request received, in order. */
  received: ReceivedRequest[];
  /** Answers requests of `operation` with `answers` in order, repeating the last one. */
  serve(operation: OperationRef, ...answers: RecordedAnswer[]): void;
  /** Forgets the answers to play and the requests received. */
  reset(): void;
  close(): Promise<void>;
}

/** `{base}` → the server's address; `{in:N}` → the epoch second N seconds from now. */
function headerValue(value: string, base: string): string {
  return value
    .replaceAll('{base}', base)
    .replace(/\{in:(\d+)\}/g, (_, seconds: string) => String(Math.floor(Date.now() / 1000) + Number(seconds)));
}

/** Starts a {@link RecordedGitHub} on a loopback port. */
export async function startRecordedGitHub(): Promise<RecordedGitHub> {
  const description = gitHubDescription();
  const queues: { operation: OperationRef; answers: RecordedAnswer[] }[] = [];
  const received: ReceivedRequest[] = [];
  let base = '';
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', base);
      const text = Buffer.concat(chunks).toString('utf8');
      const method = (req.method ?? 'GET').toLowerCase();
      received.push({
        method: method.toUpperCase(),
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        body: text === '' ? undefined : JSON.parse(text),
        headers: req.headers,
      });
      // The most specific template first: the one with the most literal characters.
      const literal = (path: string) => path.replace(/\{[^}]+\}/g, '').length;
      const queue = queues
        .filter(({ operation }) => operation.method === method && description.matches(operation, url.pathname))
        .sort((a, b) => literal(b.operation.path) - literal(a.operation.path))[0];
      const answer = queue && (queue.answers.length > 1 ? queue.answers.shift() : queue.answers[0]);
      if (!answer) {
        res.writeHead(501, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify({ message: `no recorded answer for ${method.toUpperCase()} ${url.pathname}` }));
        return;
      }
      const headers = Object.fromEntries(Object.entries(answer.headers).map(([name, value]) => [name, headerValue(value, base)]));
      if (answer.text !== undefined) {
        const raw = Buffer.from(answer.text, 'utf8');
        res.writeHead(answer.status, { ...headers, 'content-length': String(raw.length) });
        res.end(raw);
        return;
      }
      if (answer.body === undefined) {
        res.writeHead(answer.status, headers);
        res.end();
        return;
      }
      const body = Buffer.from(JSON.stringify(answer.body), 'utf8');
      res.writeHead(answer.status, { ...headers, 'content-length': String(body.length) });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    received,
    serve(operation, ...answers) {
      if (answers.length === 0) throw new Error('serve needs at least one answer');
      const existing = queues.find((q) => q.operation.method === operation.method && q.operation.path === operation.path);
      if (existing) existing.answers = [...answers];
      else queues.push({ operation, answers: [...answers] });
    },
    reset() {
      queues.length = 0;
      received.length = 0;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** The token the contract tests send (any plausible token: the recorded server does not check it). */
export const TOKEN = 'ghp_contractTestToken0000000000000000000';

/**
 * A GitHub adapter on `github`'s address, quiet, without retries of 5xx answers and, unless `options` say otherwise,
 * without the throttling plugin's pacing (which spaces writes a second apart).
 */
export function adapterOn(github: RecordedGitHub, options: Partial<GitHubCodeHostOptions> = {}): GitHubCodeHost {
  return createGitHubCodeHost({
    baseUrl: github.url,
    logger: pino({ level: 'silent' }),
    timeoutMs: 5_000,
    retries: 0,
    retryBaseDelayMs: 1,
    throttle: false,
    ...options,
  });
}

/**
 * Asserts that `sent` is a request GitHub's description documents for `operation` (see
 * `GitHubDescription.requestErrors`: path template, path and query parameters, request body schema), sent as GitHub
 * requires: with the token (`Authorization: token …`), a `User-Agent`, and the v3 JSON media type or a
 * `vnd.github` one.
 */
export function expectDocumentedRequest(sent: ReceivedRequest | undefined, operation: OperationRef): ReceivedRequest {
  expect(sent, `no request for ${operation.method.toUpperCase()} ${operation.path}`).toBeDefined();
  const request = sent as ReceivedRequest;
  expect(gitHubDescription().requestErrors(operation, request), `${request.method} ${request.path}`).toEqual([]);
  expect(request.headers.authorization).toBe(`token ${TOKEN}`);
  expect(request.headers['user-agent']).toMatch(/^switchyard-code-host /);
  expect(request.headers.accept).toMatch(/^application\/vnd\.github\./);
  return request;
}
