/**
 * `pnpm fuzz`: the properties of routes.fuzz.e2e.test.ts (same route table, arbitraries and oracle), run long and
 * outside vitest against a stack this script starts itself (every service its own process, fresh databases, its
 * own exchange and queues, all removed at the end). Each route gets FUZZ_RUNS fuzzed requests (default 10,000);
 * failures do not stop the run: each is recorded, and the first few of every route are printed with the request
 * that reproduces it. Prints per route group the requests sent, the status-code histogram (`0`: no answer) and the
 * failures, then the seed (FUZZ_SEED replays the run).
 *
 * Environment: FUZZ_RUNS, FUZZ_SEED, TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres, a user
 * that may CREATE DATABASE), TEST_AMQP_URL (default amqp://guest:guest@127.0.0.1:5672). Exits 1 when a property failed.
 */

import { performance } from 'node:perf_hooks';
import { ProcessStack } from '@switchyard/service-kit/testing';
import fc from 'fast-check';
import { seedFixtures } from './fixtures.ts';
import { emptyStats, formatFailure, type RouteStats, routeProperty, runsFromEnv, seedFromEnv } from './fuzz-runner.ts';
import { OpenApiResponses } from './openapi-validator.ts';
import { type FuzzRoute, fuzzRoutes } from './route-table.ts';
import { exitedProcesses, startFuzzStack } from './stack.ts';

const runs = runsFromEnv(10_000);
const seed = seedFromEnv();
const databaseUrl = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const amqpUrl = process.env.TEST_AMQP_URL || 'amqp://guest:guest@127.0.0.1:5672';
/** Prints one line (or lines) to stdout. */
const say = (text: string) => process.stdout.write(`${text}\n`);

/** Failures printed per route (all are counted). */
const SHOWN_FAILURES = 5;

const histogram = (statuses: Map<number, number>) =>
  [...statuses.entries()]
    .sort(([a], [b]) => a - b)
    .map(([status, count]) => `${status}×${count}`)
    .join(' ');

/** Sums the stats of a group's routes. */
function total(all: RouteStats[]): RouteStats {
  const sum = emptyStats();
  for (const stats of all) {
    sum.requests += stats.requests;
    for (const [status, count] of stats.statuses) sum.statuses.set(status, (sum.statuses.get(status) ?? 0) + count);
    sum.failures.push(...stats.failures);
  }
  return sum;
}

const processes = new ProcessStack();
let stopping = false;
process.once('SIGINT', () => {
  stopping = true;
  say('\ninterrupted: stopping the stack');
  processes.disposeAsync().finally(() => process.exit(130));
});

let failed = false;
try {
  say(`fuzzing every route through the gateway: FUZZ_RUNS=${runs} FUZZ_SEED=${seed}`);
  const stack = await startFuzzStack(processes, { databaseUrl, amqpUrl });
  const context = await seedFixtures(stack);
  const openapi = new OpenApiResponses();
  const groups = new Map<FuzzRoute['group'], RouteStats[]>();
  const started = performance.now();
  for (const route of fuzzRoutes(context)) {
    if (stopping) break;
    const stats = emptyStats();
    const routeStarted = performance.now();
    await fc.check(routeProperty(stack, route, openapi, stats, false), { numRuns: runs, seed });
    const seconds = (performance.now() - routeStarted) / 1_000;
    say(
      `  ${route.group} ${route.name}: ${stats.requests} requests in ${seconds.toFixed(1)} s, ${stats.failures.length} failures; ${histogram(stats.statuses)}`,
    );
    const shown = new Set<string>();
    for (const failure of stats.failures) {
      const kind = failure.problems.join('; ').replace(/\d+/g, 'N').slice(0, 120);
      if (shown.has(kind) || shown.size >= SHOWN_FAILURES) continue;
      shown.add(kind);
      say(`    ${formatFailure(failure).replaceAll('\n', '\n    ')}`);
    }
    groups.set(route.group, [...(groups.get(route.group) ?? []), stats]);
  }
  const seconds = (performance.now() - started) / 1_000;
  say(`\nper route group (${seconds.toFixed(0)} s):`);
  let requests = 0;
  let failures = 0;
  for (const [group, all] of groups) {
    const sum = total(all);
    requests += sum.requests;
    failures += sum.failures.length;
    say(
      `  ${group.padEnd(12)} ${String(sum.requests).padStart(7)} requests  ${String(sum.failures.length).padStart(5)} failures  ${histogram(sum.statuses)}`,
    );
  }
  const exited = exitedProcesses(stack);
  for (const line of exited) say(`process ${line}`);
  say(
    `\n${requests} requests, ${(requests / seconds).toFixed(0)} a second, ${failures} failures, ${exited.length} processes exited; FUZZ_SEED=${seed}`,
  );
  failed = failures > 0 || exited.length > 0;
} catch (error) {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  failed = true;
} finally {
  if (!stopping) await processes.disposeAsync();
}
process.exit(failed ? 1 : 0);
