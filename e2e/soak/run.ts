/**
 * `pnpm soak [--days 14] [--seed N] [--compose]` (`node e2e/soak/run.ts`): the dependency-update bot left running for
 * weeks of simulated time (`soak.ts` describes the run). It prints each step as it goes, then the invariant counts and
 * what happened, writes `report.txt` and `report.json` beside the logs in `reports/soak/`, and exits 0 when every
 * invariant is 0, 1 when one is not (or the run had a problem), 2 on bad options, 130 when interrupted.
 *
 * Options (flags win over variables): `--days` SOAK_DAYS (14), `--seed` SOAK_SEED (random, printed), `--compose`
 * SOAK_COMPOSE=1 (the compose stack with three release workers instead of the launcher), `--day-seconds`
 * SOAK_DAY_SECONDS (10: real seconds per simulated day), `--releases-per-day` SOAK_RELEASES_PER_DAY (8), `--quiet`
 * (only the report), `--keep` (leave the system running after the checks, until Ctrl-C, to look into a finding).
 * SOAK_LOG_LEVEL sets the launcher's LOG_LEVEL (warn).
 */

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { formatReport, passed } from './report.ts';
import { DEFAULT_DAY_SECONDS, runSoak } from './soak.ts';

const REPORT_DIR = new URL('../../reports/soak/', import.meta.url).pathname.replace(/\/$/, '');

let flags: ReturnType<typeof parse>;
function parse() {
  return parseArgs({
    options: {
      days: { type: 'string' },
      seed: { type: 'string' },
      compose: { type: 'boolean' },
      'day-seconds': { type: 'string' },
      'releases-per-day': { type: 'string' },
      quiet: { type: 'boolean' },
      keep: { type: 'boolean' },
    },
    strict: true,
  }).values;
}
try {
  flags = parse();
} catch (error) {
  process.stderr.write(`${(error as Error).message}\nusage: pnpm soak [--days 14] [--seed N] [--compose]\n`);
  process.exit(2);
}

/** A whole number from a flag or a variable, or `fallback`; exits 2 on anything else. */
function number(flag: string | undefined, variable: string, fallback: number): number {
  const text = flag ?? process.env[variable];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0) {
    process.stderr.write(`${variable} / its flag must be a number ≥ 0, got ${JSON.stringify(text)}\n`);
    process.exit(2);
  }
  return value;
}

const days = number(flags.days, 'SOAK_DAYS', 14);
const seed = number(flags.seed, 'SOAK_SEED', Math.floor(Math.random() * 2 ** 31));
const compose = flags.compose === true || process.env.SOAK_COMPOSE === '1';
const daySeconds = number(flags['day-seconds'], 'SOAK_DAY_SECONDS', DEFAULT_DAY_SECONDS);
const releasesPerDay = number(flags['releases-per-day'], 'SOAK_RELEASES_PER_DAY', 8);

const controller = new AbortController();
let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    process.stderr.write(`${signal}: stopping the soak and tearing the system down\n`);
    controller.abort();
  });
}

let report: Awaited<ReturnType<typeof runSoak>>;
try {
  report = await runSoak({
    days,
    seed,
    compose,
    daySeconds,
    releasesPerDay,
    reportDir: REPORT_DIR,
    signal: controller.signal,
    keep: flags.keep === true,
    ...(flags.quiet ? {} : { log: (line: string) => process.stdout.write(`${line}\n`) }),
  });
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(2);
}
const text = formatReport(report);
writeFileSync(join(REPORT_DIR, 'report.txt'), text);
process.stdout.write(`\n${text}`);
// What an aborted run left behind (a request in flight, a timer) must not keep the process alive.
process.exit(interrupted && !flags.keep ? 130 : passed(report) ? 0 : 1);
