/**
 * `pnpm bench:catalog`: requests per second and p99 latency of catalog-svc, directly and through the
 * gateway, in one run. It makes a fresh database, starts catalog-svc and the gateway as their own
 * processes (LOG_LEVEL=warn), seeds 10,000 books, warms up, then measures each scenario with autocannon
 * and prints a table and the gateway/direct throughput ratios.
 *
 * Environment: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres, a user that may
 * CREATE DATABASE), BENCH_DURATION seconds per measurement (10), BENCH_CONNECTIONS (50).
 */

import { createTestDatabase, freePort, startProcess } from '@switchyard/service-kit/testing';
import autocannon from 'autocannon';
import pg from 'pg';

const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const duration = Number(process.env.BENCH_DURATION ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const BOOKS = 10_000;
const root = new URL('../', import.meta.url);

interface Result {
  scenario: string;
  target: 'direct' | 'gateway';
  requests: number;
  p99: number;
  errors: number;
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
const [catalogPort, gatewayPort] = [await freePort(), await freePort()];
const direct = `http://127.0.0.1:${catalogPort}`;
const viaGateway = `http://127.0.0.1:${gatewayPort}`;
const catalog = await startProcess(
  new URL('services/catalog-svc/src/main.ts', root).pathname,
  { PORT: String(catalogPort), HOST: '127.0.0.1', DATABASE_URL: database.url, LOG_LEVEL: 'warn' },
  `${direct}/readyz`,
);
const gateway = await startProcess(
  new URL('services/gateway/src/main.ts', root).pathname,
  { PORT: String(gatewayPort), HOST: '127.0.0.1', CATALOG_SVC_URL: direct, LOG_LEVEL: 'warn' },
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
  await client.end();

  const scenarios: Array<[string, () => string]> = [
    ['GET /books/{id}', () => `/books/${1 + Math.floor(Math.random() * BOOKS)}`],
    ['GET /books?limit=20', () => '/books?limit=20'],
  ];
  const results: Result[] = [];
  for (const [scenario, path] of scenarios) {
    for (const [target, url] of [
      ['direct', direct],
      ['gateway', viaGateway],
    ] as const) {
      await measure(url, path, 3); // warm-up: JIT, connection pools, PostgreSQL caches
      const r = await measure(url, path, duration);
      results.push({ scenario, target, requests: r.requests.average, p99: r.latency.p99, errors: r.errors + r.non2xx });
    }
  }

  const pad = (value: string | number, width: number) => String(value).padStart(width);
  process.stdout.write(
    `\ncatalog-svc benchmark: ${BOOKS} books, ${connections} connections, ${duration} s per run, Node ${process.versions.node}\n\n`,
  );
  process.stdout.write(`${'scenario'.padEnd(22)}${pad('target', 9)}${pad('req/s', 10)}${pad('p99 ms', 9)}${pad('errors', 8)}\n`);
  for (const r of results) {
    process.stdout.write(
      `${r.scenario.padEnd(22)}${pad(r.target, 9)}${pad(Math.round(r.requests), 10)}${pad(r.p99, 9)}${pad(r.errors, 8)}\n`,
    );
  }
  process.stdout.write('\n');
  for (const [scenario] of scenarios) {
    const d = results.find((r) => r.scenario === scenario && r.target === 'direct');
    const g = results.find((r) => r.scenario === scenario && r.target === 'gateway');
    if (d && g) process.stdout.write(`${scenario.padEnd(22)} gateway/direct throughput: ${(g.requests / d.requests).toFixed(2)}\n`);
  }
} finally {
  await gateway.stop();
  await catalog.stop();
  await database.drop();
}
