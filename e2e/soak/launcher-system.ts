import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, mkdirSync, mkdtempSync, rmSync, type WriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { LAUNCHER_READY_MS, launcherPorts, STANDALONE_MAIN } from '../support/launcher.ts';
import type { SimulatedClock } from './clock.ts';
import type { FaultKind, FaultRecord, SoakSystem, SoakUrls } from './system.ts';

/**
 * The one-process launcher (apps/standalone) as the system under soak: started as `e2e/support/launcher.ts` does
 * (free ports, a fresh `DATA_DIR`, the embedded database, the in-process bus, both emulators keeping their state under
 * the data folder), with the release worker's scheduler on the soak's clock (`CLOCK_START`, `CLOCK_RATE`) and short
 * intervals. Each start's output goes to `launcher-<n>.log` in the report folder. A restart (SIGINT) or a kill (SIGKILL)
 * starts it again on the same folder and ports, from the simulated time reached.
 */

/** The worker's variables that make a simulated day a few real seconds (see `soak.ts` for the rate). */
export interface LauncherTuning {
  /** `SCHEDULER_INTERVAL_MS`: the scheduler's, the queued jobs' and the open pull requests' loops, real ms. */
  schedulerIntervalMs: number;
  /** `REGISTRY_WATCH_INTERVAL_MS`: the registry watch of `live` configs, real ms. */
  registryWatchIntervalMs: number;
  /** `CODE_HOST_RATE_LIMIT`: the GitHub emulator's requests an hour per user (weeks of a bot's requests in minutes). */
  codeHostRateLimit: number;
}

/** How long a stop by SIGINT may take before the launcher is killed (its own deadline is 30 s). */
const STOP_WITHIN_MS = 45_000;

/**
 * How long the launcher runs on after the people's last action before a SIGKILL, real ms: their webhooks reach the
 * service. The GitHub emulator runs in the launcher and answers a write only once it is saved, so what it answered (a
 * person's merge, close or comment, the worker's pull requests and merges) is never lost with the process, as the
 * real code host never loses what it answered; what was in flight is not answered and is tried again.
 */
const WEBHOOKS_SETTLE_MS = 1_000;

/** The clock line of the launcher's banner: `  clock      <ISO time> at <rate>× real time …`. */
const CLOCK_LINE = /^\s*clock\s+(\d{4}-\d\d-\d\dT[\d:.]+Z) at /m;

/** The launcher under soak. */
export class LauncherSystem implements SoakSystem {
  readonly kind = 'launcher';
  readonly plannedFaults: readonly FaultKind[] = ['launcher restart', 'launcher kill', 'launcher restart'];
  readonly schedulesFollowClock = true;
  urls: SoakUrls = { gateway: '', codeHost: '', registry: '' };
  private readonly dataDir: string;
  private ports: Record<string, string> = {};
  private child: ChildProcess | undefined;
  private starts = 0;
  /** Set while the soak itself stops the launcher: any other exit is a crash. */
  private halting = false;
  private readonly crashes: string[] = [];
  readonly clock: SimulatedClock;
  private readonly tuning: LauncherTuning;
  private readonly logDir: string;
  private readonly log: (line: string) => void;

  /** A launcher to start on a fresh data folder; `logDir` gets its output, `log` the soak's lines about it. */
  constructor(clock: SimulatedClock, tuning: LauncherTuning, logDir: string, log: (line: string) => void) {
    this.clock = clock;
    this.tuning = tuning;
    this.logDir = logDir;
    this.log = log;
    this.dataDir = mkdtempSync(join(tmpdir(), 'switchyard-soak-'));
  }

  async start(): Promise<void> {
    ({ ports: this.ports, urls: this.urls } = await launcherPorts());
    await this.launch(this.clock.now());
  }

  async fault(kind: FaultKind): Promise<Omit<FaultRecord, 'atDay'>> {
    if (kind !== 'launcher restart' && kind !== 'launcher kill') throw new Error(`the launcher does not play ${kind}`);
    if (kind === 'launcher kill') {
      await sleep(WEBHOOKS_SETTLE_MS);
    }
    const began = performance.now();
    const reached = this.clock.stop();
    const how = await this.halt(kind === 'launcher restart' ? 'SIGINT' : 'SIGKILL');
    await this.launch(reached);
    return {
      kind,
      downSeconds: (performance.now() - began) / 1000,
      detail: `${kind === 'launcher restart' ? 'SIGINT' : 'SIGKILL'}: ${how}; started again from ${reached.toISOString()}`,
    };
  }

  async stop(): Promise<void> {
    this.clock.stop();
    await this.halt('SIGINT');
  }

  problems(): string[] {
    return [...this.crashes];
  }

  async dispose(): Promise<void> {
    await this.halt('SIGKILL');
    rmSync(this.dataDir, { recursive: true, force: true });
  }

  /** Starts the launcher on the data folder with the clock at `from`, and waits for `/readyz` and its clock line. */
  private async launch(from: Date): Promise<void> {
    this.starts += 1;
    const dashboardDir = join(this.dataDir, 'no-dashboard');
    mkdirSync(dashboardDir, { recursive: true });
    const logFile = join(this.logDir, `launcher-${this.starts}.log`);
    const out: WriteStream = createWriteStream(logFile, { flags: 'a' });
    const child = spawn(process.execPath, [STANDALONE_MAIN], {
      env: {
        ...process.env,
        ...this.ports,
        DATA_DIR: this.dataDir,
        DATABASE_URL: '',
        AMQP_URL: '',
        CODE_HOST_API_URL: '',
        REGISTRY_URLS: '',
        HOST: '',
        LOG_LEVEL: process.env.SOAK_LOG_LEVEL ?? 'warn',
        PULL_REQUESTS: 'on',
        // No dashboard build: an empty folder serves none (a warning says so), and the run does not wait for Vite.
        DASHBOARD_DIR: dashboardDir,
        CLOCK_START: from.toISOString(),
        CLOCK_RATE: String(this.clock.rate),
        SCHEDULER_INTERVAL_MS: String(this.tuning.schedulerIntervalMs),
        REGISTRY_WATCH_INTERVAL_MS: String(this.tuning.registryWatchIntervalMs),
        CODE_HOST_RATE_LIMIT: String(this.tuning.codeHostRateLimit),
        // The worker acts as the demo App: its installation tokens expire every 30 s, so the run goes through dozens.
        CODE_HOST_INSTALLATION_TOKEN_TTL_MS: '30000',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    let banner = '';
    let clockLine: { simulated: Date; realAt: number } | undefined;
    child.stdout?.on('data', (chunk: Buffer) => {
      out.write(chunk);
      if (clockLine) return;
      banner += chunk.toString('utf8');
      const match = CLOCK_LINE.exec(banner);
      if (match?.[1]) clockLine = { simulated: new Date(match[1]), realAt: performance.now() };
    });
    child.stderr?.on('data', (chunk: Buffer) => out.write(chunk));
    child.once('exit', (code, signal) => {
      out.end(`\n[soak] launcher exited: ${signal ?? `code ${code}`}\n`);
      if (!this.halting) {
        const crash = `launcher #${this.starts} exited on its own (${signal ?? `code ${code}`}) at day ${this.clock.day().toFixed(2)}; see ${logFile}`;
        this.crashes.push(crash);
        this.log(crash);
      }
    });
    const began = performance.now();
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(`the launcher exited while starting (${child.signalCode ?? child.exitCode}); see ${logFile}`);
      }
      if (clockLine && (await this.ready())) break;
      if (performance.now() - began > LAUNCHER_READY_MS) {
        child.kill('SIGKILL');
        throw new Error(`the launcher was not ready within ${LAUNCHER_READY_MS / 1000} s; see ${logFile}`);
      }
      await sleep(100);
    }
    // The clock ran from the banner's reading; the soak's clock goes on from the same reading.
    const { simulated, realAt } = clockLine;
    this.clock.sync(new Date(simulated.getTime() + (performance.now() - realAt) * this.clock.rate));
    this.log(`launcher #${this.starts} ready in ${((performance.now() - began) / 1000).toFixed(1)} s (pid ${child.pid}, log ${logFile})`);
  }

  private async ready(): Promise<boolean> {
    try {
      const res = await fetch(`${this.urls.gateway}/readyz`, { signal: AbortSignal.timeout(2_000) });
      await res.arrayBuffer();
      return res.status === 200;
    } catch {
      return false;
    }
  }

  /** Sends `signal` to the launcher and waits for its exit (SIGKILL after {@link STOP_WITHIN_MS}); says how it ended. */
  private async halt(signal: NodeJS.Signals): Promise<string> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return 'not running';
    const exited = once(child, 'exit');
    this.halting = true;
    try {
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_WITHIN_MS);
      const [code, by] = (await exited) as [number | null, NodeJS.Signals | null];
      clearTimeout(timer);
      return by ? `ended by ${by}` : `exited with ${code}`;
    } finally {
      this.halting = false;
    }
  }
}
