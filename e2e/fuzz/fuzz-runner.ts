import fc from 'fast-check';
import { digestAuthorization } from '../support/digest-form.ts';
import type { OpenApiResponses } from './openapi-validator.ts';
import { violations } from './oracle.ts';
import { type FuzzRequest, type FuzzResponse, sendRaw } from './raw-request.ts';
import type { FuzzRoute } from './route-table.ts';
import { exitedProcesses, type FuzzStack, PEER_CREDENTIALS } from './stack.ts';

/** One request that broke a property: how to send it again, what came back, and what was wrong. */
export interface FuzzFailure {
  route: string;
  request: string;
  response: string;
  problems: string[];
}

/** What one route's run sent and got. */
export interface RouteStats {
  requests: number;
  /** Status code → answers with it (`0`: no answer at all). */
  statuses: Map<number, number>;
  failures: FuzzFailure[];
}

/** Empty {@link RouteStats}. */
export const emptyStats = (): RouteStats => ({ requests: 0, statuses: new Map(), failures: [] });

/** How many runs a route gets, from `FUZZ_RUNS` (a positive integer), else `fallback`. @throws Error for another value */
export function runsFromEnv(fallback: number): number {
  const text = process.env.FUZZ_RUNS;
  if (text === undefined || text === '') return fallback;
  const runs = Number(text);
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`FUZZ_RUNS must be a positive integer, not ${JSON.stringify(text)}`);
  return runs;
}

/** The fast-check seed, from `FUZZ_SEED` (an integer), else a new random one. @throws Error for another value */
export function seedFromEnv(): number {
  const text = process.env.FUZZ_SEED;
  if (text === undefined || text === '') return (Math.random() * 2 ** 31) | 0;
  const seed = Number(text);
  if (!Number.isInteger(seed)) throw new Error(`FUZZ_SEED must be an integer, not ${JSON.stringify(text)}`);
  return seed;
}

const excerpt = (text: string, length = 300) => (text.length > length ? `${text.slice(0, length)}… (${text.length} chars)` : text);

/** `req` as a reader can send it again: method, target, headers and the start of the body (JSON-escaped). */
export function describeRequest(req: FuzzRequest): string {
  const bodyText = req.body === undefined ? '' : Buffer.isBuffer(req.body) ? `0x${req.body.toString('hex')}` : req.body;
  return `${req.method} ${JSON.stringify(req.target)} headers ${JSON.stringify(req.headers)}${req.digest ? ' (with Digest credentials)' : ''}${
    req.body === undefined ? '' : ` body ${JSON.stringify(excerpt(bodyText))}`
  }`;
}

const describeResponse = (res: FuzzResponse) =>
  `${res.status} ${JSON.stringify(res.headers['content-type'] ?? null)} ${JSON.stringify(excerpt(res.text))}`;

/** {@link sendRaw} to the gateway, once more with a longer wait when a large body met a connection closed by an early answer. */
function send(stack: FuzzStack, req: FuzzRequest): Promise<FuzzResponse> {
  return sendRaw(stack.gatewayUrl, req).catch((error: unknown) => {
    if (['EPIPE', 'ECONNRESET'].includes((error as { code?: string }).code ?? '')) return sendRaw(stack.gatewayUrl, req, 15_000, 1_000);
    throw error;
  });
}

/**
 * Sends `req` through the gateway. With `req.digest`, first without credentials (that answer is judged too), then,
 * when it was a 401 with a Digest challenge, again with the answer to it, as peer-svc's clients do.
 * @throws Error when a connection fails or breaks (the caller records it as a failure)
 */
async function exchange(stack: FuzzStack, req: FuzzRequest): Promise<[FuzzRequest, FuzzResponse][]> {
  const { authorization: _dropped, ...unauthenticated } = req.headers;
  const first = req.digest ? { ...req, headers: unauthenticated } : req;
  const res = await send(stack, first);
  const challenge = res.headers['www-authenticate'];
  if (!req.digest || res.status !== 401 || typeof challenge !== 'string' || !/algorithm=MD5\b/.test(challenge)) return [[first, res]];
  const uri = req.target;
  const answered = {
    ...req,
    headers: { ...unauthenticated, authorization: digestAuthorization(challenge, uri, PEER_CREDENTIALS, req.method) },
  };
  return [
    [first, res],
    [answered, await send(stack, answered)],
  ];
}

/**
 * Sends one fuzzed request of `route`, counts it in `stats` and returns what was wrong: a broken connection, an
 * answer that breaks {@link violations}, a process of the stack that exited. Failures are also added to `stats`.
 */
export async function fuzzOnce(
  stack: FuzzStack,
  route: FuzzRoute,
  req: FuzzRequest,
  openapi: OpenApiResponses,
  stats: RouteStats,
): Promise<FuzzFailure[]> {
  const failures: FuzzFailure[] = [];
  try {
    for (const [sent, res] of await exchange(stack, req)) {
      stats.requests += 1;
      stats.statuses.set(res.status, (stats.statuses.get(res.status) ?? 0) + 1);
      const problems = violations(route, sent, res, openapi);
      if (problems.length > 0)
        failures.push({ route: route.name, request: describeRequest(sent), response: describeResponse(res), problems });
    }
  } catch (error) {
    stats.requests += 1;
    stats.statuses.set(0, (stats.statuses.get(0) ?? 0) + 1);
    failures.push({ route: route.name, request: describeRequest(req), response: 'no answer', problems: [(error as Error).message] });
  }
  const exited = exitedProcesses(stack);
  if (exited.length > 0) failures.push({ route: route.name, request: describeRequest(req), response: '-', problems: exited });
  stats.failures.push(...failures);
  return failures;
}

/** A failure as text: route, problems, request and response. */
export const formatFailure = (failure: FuzzFailure) =>
  `${failure.route}: ${failure.problems.join('; ')}\n  request:  ${failure.request}\n  response: ${failure.response}`;

/**
 * The property of `route`: every fuzzed request of it gets an answer {@link violations} finds nothing wrong with,
 * and every process of the stack keeps running. `stopAtFailure` makes a failing request fail the property (fast-check
 * then shrinks it and reports the seed); otherwise failures are only recorded in `stats` and the run goes on.
 */
export function routeProperty(
  stack: FuzzStack,
  route: FuzzRoute,
  openapi: OpenApiResponses,
  stats: RouteStats,
  stopAtFailure: boolean,
): fc.IAsyncPropertyWithHooks<[FuzzRequest]> {
  return fc.asyncProperty(route.request, async (req) => {
    const failures = await fuzzOnce(stack, route, req, openapi, stats);
    if (stopAtFailure && failures.length > 0) throw new Error(failures.map(formatFailure).join('\n'));
  });
}
