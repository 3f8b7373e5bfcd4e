import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { freePort } from '@switchyard/service-kit/testing';
import type { SimulatedClock } from './clock.ts';
import type { FaultKind, FaultRecord, SoakSystem, SoakUrls } from './system.ts';

/**
 * The compose stack (the root README's "Running it in containers") as the system under soak: PostgreSQL, RabbitMQ, the
 * two emulators and every service, with three release workers (`--scale release-worker=3`), as its own compose project
 * (`switchyard-soak`) on free host ports, from a fresh `.env` (`deploy/new-env`) and the soak's override
 * (`docker-compose.soak.yml`: the emulator's rate limit, the workers' one-second loops). Images are built with the
 * classic builder; base images missing on a machine without Docker Hub are built by `../shared/tools/local-images`, as
 * `.ci/run` does, and a Docker engine is started (and stopped at the end) when none runs. Its faults: RabbitMQ
 * restarted, and one release worker SIGKILLed (`docker kill -s KILL`) and started again. The workers keep real time, so
 * the soak plays their schedules with "bump now".
 */

const run = promisify(execFile);
const ROOT = new URL('../../', import.meta.url).pathname;
const PROJECT = 'switchyard-soak';
const OVERRIDE = new URL('./docker-compose.soak.yml', import.meta.url).pathname;
const LOCAL_IMAGES = join(ROOT, '../shared/tools/local-images');
const BASE_IMAGES = ['node:24-bookworm-slim', 'postgres:17-alpine', 'rabbitmq:4-management-alpine'];
/** How long the stack may take to build and become healthy, and to be healthy again after a fault. */
const UP_WITHIN_MS = 45 * 60_000;
const HEALTHY_WITHIN_MS = 300_000;

/** The compose stack under soak. */
export class ComposeSystem implements SoakSystem {
  readonly kind = 'compose';
  readonly plannedFaults: readonly FaultKind[] = ['broker restart', 'worker kill'];
  readonly schedulesFollowClock = false;
  urls: SoakUrls = { gateway: '', codeHost: '', registry: '' };
  readonly clock: SimulatedClock;
  private readonly logDir: string;
  private readonly log: (line: string) => void;
  private readonly envDir: string;
  private dockerd: ChildProcess | undefined;
  private started = false;
  private kills = 0;
  private readonly trouble: string[] = [];

  /** A stack to build and start; `logDir` gets the build, the engine's and the containers' logs. */
  constructor(clock: SimulatedClock, logDir: string, log: (line: string) => void) {
    this.clock = clock;
    this.logDir = logDir;
    this.log = log;
    this.envDir = mkdtempSync(join(tmpdir(), 'switchyard-soak-compose-'));
  }

  private compose(...args: string[]): string[] {
    return ['-p', PROJECT, '--env-file', join(this.envDir, '.env'), '-f', join(ROOT, 'docker-compose.yml'), '-f', OVERRIDE, ...args];
  }

  /** Runs `command args` in the repository, its output appended to `log` in the report folder. @throws Error on failure */
  private async sh(command: string, args: string[], logName: string, timeoutMs = UP_WITHIN_MS): Promise<void> {
    const out = openSync(join(this.logDir, logName), 'a');
    try {
      const child = spawn(command, args, {
        cwd: ROOT,
        env: { ...process.env, DOCKER_BUILDKIT: '0', COMPOSE_DOCKER_CLI_BUILD: '0' },
        stdio: ['ignore', out, out],
      });
      const timer = setTimeout(() => child.kill('SIGTERM'), timeoutMs);
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      clearTimeout(timer);
      if (code !== 0) throw new Error(`${command} ${args.join(' ')} failed (${code}); see ${join(this.logDir, logName)}`);
    } finally {
      closeSync(out);
    }
  }

  private async docker(...args: string[]): Promise<string> {
    return (await run('docker', args, { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 })).stdout;
  }

  /** A Docker engine: the one running, or one started here (stopped at the end). */
  private async ensureEngine(): Promise<void> {
    if (
      await this.docker('info').then(
        () => true,
        () => false,
      )
    )
      return;
    this.log('no Docker engine runs: starting dockerd (log dockerd.log)');
    const out = openSync(join(this.logDir, 'dockerd.log'), 'a');
    this.dockerd = spawn('dockerd', [], { stdio: ['ignore', out, out] });
    closeSync(out);
    for (let i = 0; i < 60; i++) {
      if (
        await this.docker('info').then(
          () => true,
          () => false,
        )
      )
        return;
      await sleep(1_000);
    }
    throw new Error('dockerd did not come up within 60 s; see dockerd.log');
  }

  /** The base images the Dockerfile and the compose file name: built by local-images when missing (no Docker Hub here). */
  private async ensureBaseImages(): Promise<void> {
    const missing: string[] = [];
    for (const image of BASE_IMAGES)
      if (
        !(await this.docker('image', 'inspect', image).then(
          () => true,
          () => false,
        ))
      )
        missing.push(image);
    if (missing.length === 0) return;
    if (!existsSync(LOCAL_IMAGES)) throw new Error(`base images missing (${missing.join(', ')}) and ${LOCAL_IMAGES} is not there`);
    this.log(`base images missing (${missing.join(', ')}): building stand-ins with ../shared/tools/local-images`);
    await this.sh(LOCAL_IMAGES, [], 'local-images.log');
  }

  async start(): Promise<void> {
    await this.ensureEngine();
    await this.ensureBaseImages();
    const ports = {
      GATEWAY_PORT: await freePort(),
      CODE_HOST_PORT: await freePort(),
      REGISTRY_PORT: await freePort(),
      RABBITMQ_MANAGEMENT_PORT: await freePort(),
    };
    const envFile = join(this.envDir, '.env');
    await run(join(ROOT, 'deploy/new-env'), [envFile]);
    const lines = readFileSync(envFile, 'utf8')
      .split('\n')
      .filter((line) => !Object.keys(ports).some((name) => line.startsWith(`${name}=`)));
    writeFileSync(envFile, `${[...lines, ...Object.entries(ports).map(([name, port]) => `${name}=${port}`)].join('\n')}\n`);
    this.urls = {
      gateway: `http://127.0.0.1:${ports.GATEWAY_PORT}`,
      codeHost: `http://127.0.0.1:${ports.CODE_HOST_PORT}`,
      registry: `http://127.0.0.1:${ports.REGISTRY_PORT}`,
    };
    const began = performance.now();
    this.log('compose: building the images and starting the stack with three release workers (log compose-up.log)');
    this.started = true;
    await this.sh('docker-compose', this.compose('up', '--build', '-d', '--scale', 'release-worker=3'), 'compose-up.log');
    await this.healthy();
    this.clock.sync(this.clock.now());
    this.log(`compose stack healthy in ${((performance.now() - began) / 1000).toFixed(0)} s: gateway ${this.urls.gateway}`);
  }

  /** The project's containers: name, state, health (`none` without a check) and restarts. */
  private async containers(): Promise<{ name: string; state: string; health: string; restarts: number }[]> {
    const ids = (await this.docker('ps', '-aq', '--filter', `label=com.docker.compose.project=${PROJECT}`)).split('\n').filter(Boolean);
    if (ids.length === 0) return [];
    const out = await this.docker(
      'inspect',
      '-f',
      '{{.Name}} {{.State.Status}} {{if .State.Health}}{{.State.Health.Status}}{{else}}none{{end}} {{.RestartCount}}',
      ...ids,
    );
    return out
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [name = '', state = '', health = '', restarts = '0'] = line.replace(/^\//, '').split(' ');
        return { name, state, health, restarts: Number(restarts) };
      });
  }

  /** Waits until every container runs and is healthy (where it has a check) and the gateway answers `/readyz`. */
  private async healthy(): Promise<void> {
    const began = performance.now();
    for (;;) {
      const all = await this.containers();
      const waiting = all.filter((c) => c.state !== 'running' || (c.health !== 'healthy' && c.health !== 'none'));
      if (all.length > 0 && waiting.length === 0) {
        const ready = await fetch(`${this.urls.gateway}/readyz`, { signal: AbortSignal.timeout(2_000) }).then(
          (res) => res.status === 200,
          () => false,
        );
        if (ready) return;
      }
      if (performance.now() - began > HEALTHY_WITHIN_MS) {
        throw new Error(`the compose stack is not healthy: ${waiting.map((c) => `${c.name} ${c.state}/${c.health}`).join(', ')}`);
      }
      await sleep(1_000);
    }
  }

  async fault(kind: FaultKind): Promise<Omit<FaultRecord, 'atDay'>> {
    const began = performance.now();
    const reached = this.clock.stop();
    let detail: string;
    if (kind === 'broker restart') {
      await this.sh('docker-compose', this.compose('restart', 'rabbitmq'), 'compose-faults.log', 120_000);
      detail = 'RabbitMQ stopped and started (docker-compose restart rabbitmq)';
    } else if (kind === 'worker kill') {
      const workers = (await this.containers()).filter((c) => c.name.includes('release-worker')).map((c) => c.name);
      const victim = workers[this.kills % workers.length] as string;
      this.kills += 1;
      await this.docker('kill', '-s', 'KILL', victim);
      await this.docker('start', victim);
      detail = `${victim} SIGKILLed (docker kill -s KILL) and started again`;
    } else {
      throw new Error(`the compose stack does not play ${kind}`);
    }
    await this.healthy();
    this.clock.sync(reached);
    return { kind, downSeconds: (performance.now() - began) / 1000, detail };
  }

  async stop(): Promise<void> {
    this.clock.stop();
    if (!this.started) return;
    for (const c of await this.containers().catch(() => [])) {
      const killed = c.name.includes('release-worker') ? this.kills : 0;
      if (c.restarts > killed) this.trouble.push(`${c.name} restarted on its own ${c.restarts} times`);
    }
    await this.sh('docker-compose', this.compose('logs', '--no-color', '--timestamps'), 'compose.log', 120_000).catch(() => undefined);
    await this.sh('docker-compose', this.compose('stop'), 'compose-faults.log', 120_000).catch(() => undefined);
  }

  problems(): string[] {
    return [...this.trouble];
  }

  async dispose(): Promise<void> {
    if (this.started) await this.sh('docker-compose', this.compose('down', '-v', '--remove-orphans'), 'compose-faults.log', 180_000);
    rmSync(this.envDir, { recursive: true, force: true });
    if (this.dockerd) {
      this.log('stopping the dockerd the soak started');
      this.dockerd.kill('SIGTERM');
      await new Promise((resolve) => this.dockerd?.once('exit', resolve));
    }
  }
}
