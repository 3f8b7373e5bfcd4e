/**
 * `pnpm chaos:release` (`node bench/chaos-release.ts`): the release pipeline under broker restarts and worker kills
 * (`release-chaos.ts` describes the run), at full size by default: 200 configs in 20 organisations, 1,000
 * notifications sent over 60 s through the gateway, 2 workers, 2 restarts of the run's own RabbitMQ node (down 3 s
 * each) and 2 worker SIGKILLs, each worker replaced at once. It prints what it sent, the expected jobs, the jobs found,
 * lost and duplicated, the restarts and kills done and the time taken, and exits 1 when anything was lost,
 * duplicated, left unfinished or refused (130 when interrupted).
 *
 * Options, as flags or environment variables (flags win): `--configs` CHAOS_CONFIGS, `--orgs` CHAOS_ORGS,
 * `--notifications` CHAOS_NOTIFICATIONS, `--workers` CHAOS_WORKERS, `--restarts` CHAOS_RESTARTS, `--kills`
 * CHAOS_KILLS, `--send-seconds` CHAOS_SEND_SECONDS, `--down-seconds` CHAOS_DOWN_SECONDS, `--timeout` CHAOS_TIMEOUT
 * (seconds to wait for quiet after sending, 600); CHAOS_DATABASE_URL (postgres://postgres@127.0.0.1:5432/postgres, a
 * user that may CREATE DATABASE); the workers' CHAOS_SCAN_BATCH_SIZE, CHAOS_SCAN_CONCURRENCY, CHAOS_WORKER_PREFETCH
 * and CHAOS_DB_POOL_SIZE (release-svc's defaults when unset). The machine's RabbitMQ is never used or touched.
 */

import { parseArgs } from 'node:util';
import { type ChaosOptions, DEFAULT_CHAOS_OPTIONS, formatChaosReport, runReleaseChaos } from './release-chaos.ts';

const SIZES = {
  configs: ['CHAOS_CONFIGS', 'configs'],
  orgs: ['CHAOS_ORGS', 'orgs'],
  notifications: ['CHAOS_NOTIFICATIONS', 'notifications'],
  workers: ['CHAOS_WORKERS', 'workers'],
  brokerRestarts: ['CHAOS_RESTARTS', 'restarts'],
  workerKills: ['CHAOS_KILLS', 'kills'],
  sendSeconds: ['CHAOS_SEND_SECONDS', 'send-seconds'],
  downSeconds: ['CHAOS_DOWN_SECONDS', 'down-seconds'],
  quietTimeoutSeconds: ['CHAOS_TIMEOUT', 'timeout'],
} as const;

const { values: flags } = parseArgs({
  options: Object.fromEntries(Object.values(SIZES).map(([, flag]) => [flag, { type: 'string' as const }])),
  strict: true,
});

const options: ChaosOptions = {
  ...DEFAULT_CHAOS_OPTIONS,
  databaseUrl: process.env.CHAOS_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  workerTuning: Object.fromEntries(
    ['SCAN_BATCH_SIZE', 'SCAN_CONCURRENCY', 'WORKER_PREFETCH', 'DB_POOL_SIZE'].flatMap((name) => {
      const value = process.env[`CHAOS_${name}`];
      return value ? [[name, value]] : [];
    }),
  ),
  log: (line) => process.stdout.write(`${line}\n`),
};
for (const [key, [variable, flag]] of Object.entries(SIZES) as Array<[keyof typeof SIZES, (typeof SIZES)[keyof typeof SIZES]]>) {
  const text = (flags[flag] as string | undefined) ?? process.env[variable];
  if (text === undefined) continue;
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value)) {
    process.stderr.write(`--${flag} / ${variable} must be a number, got ${JSON.stringify(text)}\n`);
    process.exit(2);
  }
  options[key] = value;
}

const controller = new AbortController();
let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    process.stderr.write(`${signal}: stopping the run and tearing everything down\n`);
    controller.abort();
  });
}

let report: Awaited<ReturnType<typeof runReleaseChaos>>;
try {
  report = await runReleaseChaos({ ...options, signal: controller.signal });
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(2);
}
process.stdout.write(`\n${formatChaosReport(report)}`);
// What an aborted run left behind (a request in flight, a timer) must not keep the process alive.
process.exit(interrupted ? 130 : report.problems.length > 0 ? 1 : 0);
