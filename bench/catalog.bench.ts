/**
 * `pnpm bench:catalog`: requests per second and p99 latency of `GET /books/{id}` (random ids over 10,000 books) from four
 * servers, each its own process as compose runs them, measured one after the other in one run: json-server (the CRUD
 * server a user would otherwise pick, `json-server-catalog.ts`), the bare handler (`node:http` + `pg` with one prepared
 * statement: a practical ceiling, `bare-catalog.ts`), catalog-svc directly, and catalog-svc through the gateway; then
 * `GET /books?limit=20` directly and through the gateway. It makes a fresh database, seeds it, writes the same books to
 * json-server's file, warms each target up, measures with autocannon, and prints the table and the ratios the
 * performance goals name (direct / bare, gateway / direct, gateway / json-server, gateway p99 / direct p99), and the CPU
 * time per request that catalog-svc and the gateway used (from `/proc`, Linux only): on a machine whose cores the load
 * generator, PostgreSQL and both services share, the gateway's share of the CPU is what it costs.
 *
 * Environment: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres, a user that may
 * CREATE DATABASE), BENCH_DURATION seconds per measurement (10), BENCH_CONNECTIONS (50), BENCH_PROFILE_DIR (catalog-svc
 * and the gateway run with `--cpu-prof` into it: the figures are then not the real ones).
 */

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, freePort, type RunningProcess, startProcess } from '@switchyard/service-kit/testing';
import autocannon from 'autocannon';
import pg from 'pg';
import { cpuSeconds } from './process-cpu.ts';

const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const duration = Number(process.env.BENCH_DURATION ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const profileDir = process.env.BENCH_PROFILE_DIR;
const profiled: Record<string, string> = profileDir ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${profileDir}` } : {};
const BOOKS = 10_000;
const root = new URL('../', import.meta.url);

interface Result {
  scenario: string;
  target: 'json-server' | 'bare' | 'direct' | 'gateway';
  requests: number;
  p99: number;
  errors: number;
  /** CPU microseconds per request that catalog-svc and the gateway used during the run (direct and gateway runs). */
  catalogCpuMicros?: number | undefined;
  gatewayCpuMicros?: number | undefined;
}

function measure(url: string, path: () => string, seconds: number): Promise<autocannon.Result> {
  return autocannon({
    url,
    connections,
    duration: seconds,
    requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: path() }) }],
  });
}

const database = await createTestDatabase(adminUrl, 'bench_catalog');
const [catalogPort, gatewayPort, barePort, jsonServerPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
const direct = `http://127.0.0.1:${catalogPort}`;
const viaGateway = `http://127.0.0.1:${gatewayPort}`;
const bareUrl = `http://127.0.0.1:${barePort}`;
const jsonServerUrl = `http://127.0.0.1:${jsonServerPort}`;
const scratch = mkdtempSync(join(tmpdir(), 'bench-catalog-'));
const catalog = await startProcess(
  new URL('services/catalog-svc/src/main.ts', root).pathname,
  { PORT: String(catalogPort), HOST: '127.0.0.1', DATABASE_URL: database.url, LOG_LEVEL: 'warn', ...profiled },
  `${direct}/readyz`,
);
const others: RunningProcess[] = [];
const gateway = await startProcess(
  new URL('services/gateway/src/main.ts', root).pathname,
  { PORT: String(gatewayPort), HOST: '127.0.0.1', CATALOG_SVC_URL: direct, LOG_LEVEL: 'warn', ...profiled },
  `${viaGateway}/readyz`,
);

try {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  await client.query(
    `insert into catalog.book (name, author, price, year)
     select 'Book ' || n, 'Author ' || (n % 500), round((random() * 100)::numeric, 2)::float8, 1900 + (n % 125)
     from generate_series(1, $1::int) as n`,
    [BOOKS],
  );
  await client.query('analyze catalog.book');
  const books = (await client.query('select id, name, author, price, year from catalog.book order by id')).rows;
  await client.end();
  const dbFile = join(scratch, 'db.json');
  writeFileSync(dbFile, JSON.stringify({ books }));
  others.push(
    await startProcess(
      new URL('bench/bare-catalog.ts', root).pathname,
      { PORT: String(barePort), DATABASE_URL: database.url },
      `${bareUrl}/readyz`,
    ),
    await startProcess(
      new URL('bench/json-server-catalog.ts', root).pathname,
      { PORT: String(jsonServerPort), DB: dbFile },
      `${jsonServerUrl}/books/1`,
    ),
  );

  const byId = () => `/books/${1 + Math.floor(Math.random() * BOOKS)}`;
  const runs: Array<[string, Result['target'], string, () => string]> = [
    ['GET /books/{id}', 'json-server', jsonServerUrl, byId],
    ['GET /books/{id}', 'bare', bareUrl, byId],
    ['GET /books/{id}', 'direct', direct, byId],
    ['GET /books/{id}', 'gateway', viaGateway, byId],
    ['GET /books?limit=20', 'direct', direct, () => '/books?limit=20'],
    ['GET /books?limit=20', 'gateway', viaGateway, () => '/books?limit=20'],
  ];
  const results: Result[] = [];
  for (const [scenario, target, url, path] of runs) {
    await measure(url, path, 3); // warm-up: JIT, connection pools, PostgreSQL caches
    const before = [cpuSeconds(catalog.child.pid), cpuSeconds(gateway.child.pid)];
    const r = await measure(url, path, duration);
    const [catalogCpu, gatewayCpu] = [cpuSeconds(catalog.child.pid), cpuSeconds(gateway.child.pid)].map(
      (after, i) => ((after - (before[i] ?? 0)) * 1e6) / Math.max(1, r.requests.total),
    );
    results.push({
      scenario,
      target,
      requests: r.requests.average,
      p99: r.latency.p99,
      errors: r.errors + r.non2xx,
      catalogCpuMicros: target === 'direct' || target === 'gateway' ? catalogCpu : undefined,
      gatewayCpuMicros: target === 'gateway' ? gatewayCpu : undefined,
    });
  }
  const scenarios = [...new Set(runs.map(([scenario]) => scenario))];

  const pad = (value: string | number, width: number) => String(value).padStart(width);
  process.stdout.write(
    `\ncatalog-svc benchmark: ${BOOKS} books, ${connections} connections, ${duration} s per run, Node ${process.versions.node}\n\n`,
  );
  process.stdout.write(
    `${'scenario'.padEnd(22)}${pad('target', 12)}${pad('req/s', 10)}${pad('p99 ms', 9)}${pad('errors', 8)}` +
      `${pad('catalog-svc µs CPU/req', 24)}${pad('gateway µs CPU/req', 20)}\n`,
  );
  const micros = (value: number | undefined) => (value === undefined || Number.isNaN(value) ? '' : Math.round(value));
  for (const r of results) {
    process.stdout.write(
      `${r.scenario.padEnd(22)}${pad(r.target, 12)}${pad(Math.round(r.requests), 10)}${pad(r.p99, 9)}${pad(r.errors, 8)}` +
        `${pad(micros(r.catalogCpuMicros), 24)}${pad(micros(r.gatewayCpuMicros), 20)}\n`,
    );
  }
  process.stdout.write('\n');
  const of = (scenario: string, target: Result['target']) => results.find((r) => r.scenario === scenario && r.target === target);
  const ratio = (label: string, a: number | undefined, b: number | undefined) =>
    a !== undefined && b ? process.stdout.write(`  ${label.padEnd(40)}${(a / b).toFixed(2)}\n`) : undefined;
  for (const scenario of scenarios) {
    process.stdout.write(`${scenario}\n`);
    const [json, bare, d, g] = (['json-server', 'bare', 'direct', 'gateway'] as const).map((target) => of(scenario, target));
    ratio('direct / bare handler, req/s', d?.requests, bare?.requests);
    ratio('gateway / direct, req/s', g?.requests, d?.requests);
    ratio('gateway / json-server, req/s', g?.requests, json?.requests);
    ratio('gateway p99 / direct p99', g?.p99, d?.p99);
  }
} finally {
  for (const other of others) await other.stop();
  await gateway.stop();
  await catalog.stop();
  await database.drop();
  rmSync(scratch, { recursive: true, force: true });
}
