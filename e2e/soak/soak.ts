import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Agenda } from './agenda.ts';
import { GatewayApi, GitHubApi, RegistryAdmin } from './clients.ts';
import { DAY_MS, SimulatedClock } from './clock.ts';
import { ComposeSystem } from './compose-system.ts';
import { observe } from './invariants.ts';
import { Journal } from './journal.ts';
import { LauncherSystem } from './launcher-system.ts';
import { People } from './people.ts';
import { seededRandom } from './random.ts';
import { Registries } from './registries.ts';
import { Releaser } from './releases.ts';
import type { SoakReport } from './report.ts';
import { settle } from './settle.ts';
import { setUpWorld } from './setup.ts';
import type { SoakSystem, SoakUrls } from './system.ts';
import { BOT_TOKEN } from './world.ts';

/**
 * The soak run (`pnpm soak`): the system runs through `days` simulated days on an accelerated clock, while new versions
 * are released (`releases.ts`), people act on the code host and through the gateway (`people.ts`) and the system is
 * restarted and killed (`system.ts`); then it is left to settle (`settle.ts`) and the twelve invariants are counted
 * (`invariants.ts`). Everything it did is in the journal (`journal.ts`, `soak.log`); the report (`report.ts`) is written
 * to the report folder with the system's logs.
 */

/** A soak run's shape. */
export interface SoakOptions {
  /** Simulated days (at least 1). */
  days: number;
  /** The seed of every random choice (the same seed plans the same world). */
  seed: number;
  /** The compose stack with three release workers instead of the one-process launcher. */
  compose: boolean;
  /** Real seconds a simulated day lasts (the clock's rate is 86,400 / this); default {@link DEFAULT_DAY_SECONDS}. */
  daySeconds?: number;
  /** Releases a simulated day holds (default 8: every package manager within two days). */
  releasesPerDay?: number;
  /** Where the logs and the report go (made; the files of an earlier run there are replaced). */
  reportDir: string;
  /** Each line of the soak's log, as it is written (default: nowhere but soak.log). */
  log?: (line: string) => void;
  /** Aborting it stops the run where it is and tears the system down; the report says so. */
  signal?: AbortSignal;
  /** Leave the system running after the checks, until `signal` aborts (to look into a finding). */
  keep?: boolean;
}

/** Real seconds of a simulated day: 14 days in under three minutes of days, 2 days in 20 s, on two cores. */
export const DEFAULT_DAY_SECONDS = 10;

/**
 * The worker's loops every second, the registry watch every 2 s (a simulated 5 hours at the default rate), and a code
 * host rate limit of a hundred times GitHub's: two weeks of a bot's requests come within minutes here.
 */
const LAUNCHER_TUNING = { schedulerIntervalMs: 1_000, registryWatchIntervalMs: 2_000, codeHostRateLimit: 500_000 };

/** How long each wait for quiet may take while settling, real ms (longer while a job may be waiting for the stall sweep). */
const QUIET_TIMEOUT_MS = 120_000;

/** The next Monday 00:00 UTC after `now`: the runs start on a weekday, so a 2-day run has two days of `daily` slots. */
export function nextMonday(now: Date): Date {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const daysAhead = (8 - new Date(midnight).getUTCDay()) % 7 || 7;
  return new Date(midnight + daysAhead * DAY_MS);
}

/**
 * Runs the soak described in the module comment.
 * @returns the report (a failure to start or to settle is in its `problems`)
 * @throws RangeError for options out of range
 */
export async function runSoak(options: SoakOptions): Promise<SoakReport> {
  if (!Number.isInteger(options.days) || options.days < 1) throw new RangeError(`days must be a whole number ≥ 1, got ${options.days}`);
  const daySeconds = options.daySeconds ?? DEFAULT_DAY_SECONDS;
  if (!(daySeconds >= 1)) throw new RangeError(`a day must last at least 1 s, got ${daySeconds}`);
  const began = performance.now();
  mkdirSync(options.reportDir, { recursive: true });
  for (const file of ['soak.log', 'report.txt', 'report.json']) rmSync(join(options.reportDir, file), { force: true });
  for (let n = 1; n <= 20; n++) rmSync(join(options.reportDir, `launcher-${n}.log`), { force: true });

  const rate = Math.round(DAY_MS / (daySeconds * 1000));
  const clock = new SimulatedClock(nextMonday(new Date()), rate);
  const journal = new Journal(clock, join(options.reportDir, 'soak.log'), options.log ?? (() => {}));
  const log = (line: string) => journal.log(line);
  const system: SoakSystem = options.compose
    ? new ComposeSystem(clock, options.reportDir, log)
    : new LauncherSystem(clock, LAUNCHER_TUNING, options.reportDir, log);
  const report: SoakReport = {
    system: system.kind,
    seed: options.seed,
    days: options.days,
    clock: { start: clock.start.toISOString(), end: clock.start.toISOString(), rate, daySeconds },
    releases: { total: 0, byKind: {}, byPackageManager: {}, list: [] },
    actions: { byKind: {}, list: [] },
    faults: [],
    observations: null,
    seconds: { total: 0, setup: 0, days: 0, settle: 0, check: 0 },
    problems: [],
    notes: [],
    logDir: options.reportDir,
  };
  const random = seededRandom(options.seed);
  const urls = () => system.urls;
  const phase = (name: keyof SoakReport['seconds'], since: number) => {
    report.seconds[name] = (performance.now() - since) / 1000;
  };
  log(`soak of ${options.days} days on the ${system.kind}, seed ${options.seed}, ${rate}× real time, from ${clock.start.toISOString()}`);

  try {
    let since = performance.now();
    await system.start();
    await setUpWorld(urls, journal);
    phase('setup', since);

    since = performance.now();
    const registries = new Registries(() => system.urls.registry, new GitHubApi(() => system.urls.codeHost, BOT_TOKEN));
    const releaser = new Releaser({
      registries,
      admin: new RegistryAdmin(() => system.urls.registry),
      upstream: new GitHubApi(() => system.urls.codeHost, BOT_TOKEN),
      journal,
      random: random.fork('releases'),
    });
    const agenda = new Agenda();
    const people = new People({ urls, journal, random: random.fork('people'), clock, agenda });
    const end = clock.atDay(options.days);
    const releaseTimes = random.fork('release times');
    for (let day = 0; day < options.days; day++) {
      for (let i = 0; i < (options.releasesPerDay ?? 8); i++) {
        agenda.add(clock.atDay(day + releaseTimes.next()), 'release', async () => {
          await releaser.releaseOne();
        });
      }
      people.planDay(day);
    }
    people.planConfigFiles(options.days);
    // People look at the bot's pull requests every three simulated hours.
    const look = (at: Date) =>
      agenda.add(at, 'people look around', async () => {
        await people.lookAround();
        const next = new Date(at.getTime() + DAY_MS / 8);
        if (next < end) look(next);
      });
    look(clock.atDay(0.05));
    // The faults, spread over the run (a little before and after their even places).
    const faultTimes = random.fork('faults');
    system.plannedFaults.forEach((kind, i) => {
      const day =
        ((i + 1) / (system.plannedFaults.length + 1)) * options.days + (faultTimes.next() - 0.5) * Math.min(0.4, options.days / 10);
      agenda.add(clock.atDay(day), kind, async () => {
        log(`fault: ${kind}`);
        const atDay = clock.day();
        const began = Date.now();
        const done = await system.fault(kind);
        journal.faultWindows.push({ kind, began, back: Date.now() });
        report.faults.push({ ...done, atDay });
        log(`fault: ${done.detail}; back in ${done.downSeconds.toFixed(1)} s`);
      });
    });
    if (!system.schedulesFollowClock) playSchedules(agenda, clock, journal, urls, options.days);

    await agenda.runUntil(clock, end, (event, error) => journal.note(`${event.label} failed: ${(error as Error).message}`), options.signal);
    people.finish();
    phase('days', since);
    report.clock.end = clock.now().toISOString();
    const daysEndedAt = Date.now();

    since = performance.now();
    const settled = await settle({
      urls,
      journal,
      quietTimeoutMs: QUIET_TIMEOUT_MS,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    if (settled.slowJobs.length > 0) {
      report.notes.push(
        `jobs under way for over a minute while settling (their message was lost: the worker's stall sweep takes them up after 10 min): ${settled.slowJobs.join(', ')}`,
      );
    }
    phase('settle', since);

    since = performance.now();
    report.observations = await observe({ urls, journal, registries, daysEndedAt });
    phase('check', since);
    if (options.keep && options.signal) {
      log(
        `kept running until interrupted: gateway ${system.urls.gateway}, code host ${system.urls.codeHost}, registries ${system.urls.registry}`,
      );
      const { signal } = options;
      await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
    }
  } catch (error) {
    report.problems.push(options.signal?.aborted ? 'interrupted' : `the run stopped: ${(error as Error).stack ?? String(error)}`);
  } finally {
    await system.stop().catch((error: unknown) => report.problems.push(`stopping the ${system.kind} failed: ${(error as Error).message}`));
    report.problems.push(...system.problems());
    await system.dispose().catch((error: unknown) => report.notes.push(`cleaning up failed: ${(error as Error).message}`));
  }
  report.releases.list = journal.releases;
  report.releases.total = journal.releases.length;
  for (const r of journal.releases) {
    report.releases.byKind[r.kind] = (report.releases.byKind[r.kind] ?? 0) + 1;
    report.releases.byPackageManager[r.packageManager] = (report.releases.byPackageManager[r.packageManager] ?? 0) + 1;
  }
  report.actions = { byKind: journal.actionCounts(), list: journal.actions };
  report.notes.push(...journal.notes);
  report.seconds.total = (performance.now() - began) / 1000;
  writeFileSync(join(options.reportDir, 'report.json'), `${JSON.stringify(report, null, 2)}\n`);
  return report;
}

/**
 * Plays the release worker's scheduler where it does not follow the soak's clock (the compose stack's workers keep the
 * real time): "bump now" of each `daily` config at each weekday's run time of its account, and of each `weekly` one on
 * its account's day, as the configs stand when the slot comes.
 */
function playSchedules(agenda: Agenda, clock: SimulatedClock, journal: Journal, urls: () => SoakUrls, days: number): void {
  for (let day = 0; day < days; day++) {
    const date = clock.atDay(day);
    const weekday = date.getUTCDay();
    for (const [accountId, settings] of journal.accountSettings) {
      const [h = 5, m = 0] = String(settings['update-run-time'] ?? '05:00')
        .split(':')
        .map(Number);
      const at = new Date(date.getTime() + (h * 60 + m) * 60_000);
      const weeklyDay = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'].indexOf(
        String(settings['weekly-update-run-day'] ?? 'monday'),
      );
      agenda.add(at, `scheduled runs of account ${accountId}`, async () => {
        for (const config of journal.configs.filter((c) => c.plan.repo.accountId === accountId)) {
          const due =
            (config.schedule === 'daily' && weekday >= 1 && weekday <= 5) || (config.schedule === 'weekly' && weekday === weeklyDay);
          if (due) await new GatewayApi(() => urls().gateway, config.person.token).bumpNow(config.id);
        }
      });
    }
  }
}
