import { ProcessStack } from '@switchyard/service-kit/testing';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { digestPost } from '../support/digest-form.ts';
import { seedFixtures } from './fixtures.ts';
import { emptyStats, routeProperty, runsFromEnv, seedFromEnv } from './fuzz-runner.ts';
import { OpenApiResponses } from './openapi-validator.ts';
import { violations as routeViolations } from './oracle.ts';
import { sendRaw } from './raw-request.ts';
import { fuzzRoutes, type RouteContext } from './route-table.ts';
import { exitedProcesses, type FuzzStack, PEER_CREDENTIALS, startFuzzStack } from './stack.ts';

/**
 * Every route of the system, fuzzed through the gateway over HTTP, every service its own process on PostgreSQL and
 * RabbitMQ: random methods, targets (ids of every size, unicode, dot segments, broken escapes), query strings,
 * headers (the demo tokens and garbage) and bodies (valid-shaped with mutated fields, wrong types, huge, deeply
 * nested, not JSON, forms). Properties: no 5xx, errors in each API's format, 2xx bodies valid against the OpenAPI
 * document, no process exits. FUZZ_RUNS requests per route (default 300: about 40 s for the 31 routes on two cores;
 * `pnpm fuzz` runs 10,000), FUZZ_SEED replays a run (each failure names its seed and shrunk request).
 */

const runs = runsFromEnv(300);
const seed = seedFromEnv();
const openapi = new OpenApiResponses();

describe(`routes fuzzed through the gateway (FUZZ_SEED=${seed}, FUZZ_RUNS=${runs})`, () => {
  const processes = new ProcessStack();
  let stack: FuzzStack;
  let context: RouteContext;

  beforeAll(async () => {
    stack = await startFuzzStack(processes, { databaseUrl: inject('databaseUrl'), amqpUrl: inject('amqpUrl') });
    context = await seedFixtures(stack);
  }, 120_000);
  afterAll(() => processes.disposeAsync());

  // The route table needs the running stack (peer-svc's URL, ids that exist): its routes are listed by name here.
  const placeholder: RouteContext = {
    peerSelfUrl: 'http://127.0.0.1:1/DirectoryPlace',
    bookIds: [],
    updateConfigIds: [],
    notificationIds: [],
    registryCredentialIds: [],
    updateRunIds: [],
  };
  const names = fuzzRoutes(placeholder).map((route) => `${route.group} ${route.name}`);

  it.each(names)(
    '%s: no 5xx, errors in the API format, 2xx as documented',
    async (name) => {
      const route = fuzzRoutes(context).find((candidate) => `${candidate.group} ${candidate.name}` === name);
      if (!route) throw new Error(`no route ${name}`);
      const stats = emptyStats();
      await fc.assert(routeProperty(stack, route, openapi, stats, true), { numRuns: runs, seed });
      expect(stats.requests).toBeGreaterThanOrEqual(runs);
      expect(exitedProcesses(stack)).toEqual([]);
    },
    60_000 + runs * 500,
  );

  it('answers what fuzzing once found in the API format: a form that does not inflate, a method the Swagger UI files do not serve, a NUL in a client name', async () => {
    const heartbeat = await sendRaw(stack.gatewayUrl, {
      method: 'POST',
      target: '/emissary/Heartbeat.action',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-encoding': 'gzip', 'x-requested-by': 'fuzz' },
      body: 'hbf=x&hbt=y',
    });
    expect(heartbeat).toMatchObject({ status: 400, text: 'Request body could not be read' });
    expect(heartbeat.headers['content-type']).toBe('text/plain; charset=utf-8');
    const asset = await sendRaw(stack.gatewayUrl, { method: 'PROPFIND', target: '/docs/assets/swagger-ui.css', headers: {} });
    expect(asset.status).toBe(405);
    expect(asset.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(asset.headers.allow).toBe('GET, HEAD');
    expect(JSON.parse(asset.text)).toMatchObject({ status: 405, title: 'Method Not Allowed' });
    // PostgreSQL refuses a NUL in text: the client place lookup's error is the client's, in the peer endpoints' text.
    const nul = await digestPost(stack.gatewayUrl, '/WorkSpaceClientEnqueue.action', 'pickUpClientName=%00&tpObj=%7B%7D', PEER_CREDENTIALS);
    expect(nul).toMatchObject({ status: 400, body: 'A value in the request cannot be stored' });
    expect(nul.headers.get('content-type')).toBe('text/plain; charset=utf-8');
  });

  it('the oracle catches what it is there to catch: a 5xx, the wrong error format, an invalid 2xx', () => {
    const route = fuzzRoutes(placeholder).find((candidate) => candidate.name === '/update_configs/{id}');
    if (!route) throw new Error('no /update_configs/{id} route');
    const req = { method: 'GET', target: '/update_configs/1', headers: {} };
    const answer = (status: number, type: string, text: string) => ({ status, headers: { 'content-type': type }, text });
    const judge = (status: number, type: string, text: string) =>
      routeViolations(route, req, answer(status, type, text), openapi).join(' | ');
    expect(judge(500, 'application/json; charset=utf-8', '{"errors":[{"status":500,"title":"Internal Server Error"}]}')).toMatch(
      /server error 500/,
    );
    expect(judge(404, 'application/problem+json', '{"type":"about:blank","title":"Not Found","status":404}')).toMatch(
      /not application\/json/,
    );
    expect(judge(404, 'application/json; charset=utf-8', '{"errors":[{"status":400,"title":"Bad Request"}]}')).toMatch(
      /does not carry status 404/,
    );
    expect(judge(200, 'application/json; charset=utf-8', '{"data":{"id":1}}')).toMatch(/does not validate/);
    expect(judge(404, 'application/json; charset=utf-8', '{"errors":[{"status":404,"title":"Not Found","detail":"x"}]}')).toBe('');
  });
});
