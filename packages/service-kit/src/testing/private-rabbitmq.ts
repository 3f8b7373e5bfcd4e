import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import amqplib from 'amqplib';
import { freePort } from './process.ts';

/**
 * The script Debian's and RabbitMQ's own packages run a node with. The `/usr/sbin/rabbitmq-server` wrapper would
 * `su` to the `rabbitmq` user and use the machine's configuration; this one runs as the caller with the environment
 * it is given.
 */
export const RABBITMQ_SERVER = '/usr/lib/rabbitmq/bin/rabbitmq-server';

/** Options of {@link startPrivateRabbitMQ}. */
export interface PrivateRabbitMQOptions {
  /** The node name's prefix: the node is `<prefix>-<random hex>@localhost` (default `private`). */
  namePrefix?: string;
  /** The `rabbitmq-server` script to run (default {@link RABBITMQ_SERVER}). */
  serverPath?: string;
  /** How long a start may take before it counts as failed, ms (default 60,000). */
  startTimeoutMs?: number;
  /** How long a graceful stop may take before the node's processes are killed, ms (default 30,000). */
  stopTimeoutMs?: number;
}

/** How long each step of {@link PrivateRabbitMQ.restart} took, ms. */
export interface RestartTimings {
  /** From SIGTERM until the node's processes exited. */
  stopMs: number;
  /** Down on purpose between the two. */
  downMs: number;
  /** From spawning the node until it accepted an AMQP connection. */
  startMs: number;
}

/**
 * A RabbitMQ node of the caller's own, next to whatever broker the machine runs and without touching it: its own
 * node name, AMQP and distribution ports (127.0.0.1 only), data, log and configuration files and Erlang cookie, all
 * in one temporary folder. Its durable queues and persistent messages live through {@link PrivateRabbitMQ.stop} and
 * {@link PrivateRabbitMQ.start}, as on a real broker restart.
 */
export interface PrivateRabbitMQ {
  /** `amqp://guest:guest@127.0.0.1:<port>` (RabbitMQ lets `guest` in from loopback). */
  url: string;
  /** The Erlang node name, `<prefix>-<hex>@localhost`. */
  nodeName: string;
  /** The AMQP port. */
  port: number;
  /** Whether the node's process is running (it may still be starting). */
  isRunning: () => boolean;
  /** Starts the node again (no-op when running) and resolves once it accepts AMQP connections. @throws when it does not within the start timeout, with its output */
  start: () => Promise<void>;
  /** Stops the node gracefully (SIGTERM to the Erlang VM, RabbitMQ's orderly shutdown; killed after the stop timeout); no-op when stopped. */
  stop: () => Promise<void>;
  /** {@link PrivateRabbitMQ.stop}, `downMs` of nothing, {@link PrivateRabbitMQ.start}; resolves with how long each took. */
  restart: (downMs: number) => Promise<RestartTimings>;
  /** Stops the node (gracefully, then by force) and removes its folder; idempotent. The instance is unusable afterwards. */
  close: () => Promise<void>;
  /** The node's console output so far (the last 20,000 characters), for failure messages. */
  output: () => string;
}

/**
 * Why no private node can be started here (the `rabbitmq-server` script is missing), or undefined when one can be tried.
 * @param serverPath the script to look for (default {@link RABBITMQ_SERVER})
 */
export function privateRabbitMQUnavailable(serverPath = RABBITMQ_SERVER): string | undefined {
  return existsSync(serverPath) ? undefined : `${serverPath} is not installed`;
}

/** Resolves once `url` accepts an AMQP connection; rejects after `timeoutMs`, or as soon as `gone()` is true. */
async function waitForAmqp(url: string, timeoutMs: number, gone: () => boolean): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (gone()) throw new Error('the node exited');
    try {
      const model = await amqplib.connect(url, { timeout: 1_000 });
      model.on('error', () => {});
      await model.close();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`no AMQP connection within ${timeoutMs} ms: ${(error as Error).message}`);
    }
    await sleep(100);
  }
}

/**
 * Starts a {@link PrivateRabbitMQ}: `rabbitmq-server` run directly as a child process in its own process group,
 * with HOME (and so the Erlang cookie) in a temporary folder, RABBITMQ_NODENAME, RABBITMQ_NODE_PORT,
 * RABBITMQ_DIST_PORT, RABBITMQ_MNESIA_BASE, RABBITMQ_LOG_BASE, RABBITMQ_CONFIG_FILE, RABBITMQ_CONF_ENV_FILE and
 * RABBITMQ_ENABLED_PLUGINS_FILE pointing into it (none of /etc/rabbitmq is read; no plugins). It registers with the
 * machine's epmd under its own name, which is how Erlang nodes share a host. If this process exits without
 * `close()`, the node is killed with it. Variables are those of RabbitMQ's "Configuration: Environment Variables"
 * (https://www.rabbitmq.com/docs/configure#supported-environment-variables).
 * @throws when the script is missing or the node does not accept connections within the start timeout (its folder
 * is removed then)
 */
export async function startPrivateRabbitMQ(options: PrivateRabbitMQOptions = {}): Promise<PrivateRabbitMQ> {
  const serverPath = options.serverPath ?? RABBITMQ_SERVER;
  const unavailable = privateRabbitMQUnavailable(serverPath);
  if (unavailable) throw new Error(unavailable);
  const startTimeoutMs = options.startTimeoutMs ?? 60_000;
  const stopTimeoutMs = options.stopTimeoutMs ?? 30_000;
  const dir = mkdtempSync(join(tmpdir(), 'private-rabbitmq-'));
  const nodeName = `${options.namePrefix ?? 'private'}-${randomBytes(4).toString('hex')}@localhost`;
  const port = await freePort();
  let distPort = await freePort();
  while (distPort === port) distPort = await freePort();
  writeFileSync(join(dir, 'rabbitmq.conf'), `listeners.tcp.1 = 127.0.0.1:${port}\nlog.file.level = warning\nlog.console = false\n`);
  writeFileSync(join(dir, 'enabled_plugins'), '[].\n');
  writeFileSync(join(dir, 'rabbitmq-env.conf'), '');
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(RABBITMQ_|ERL_)/.test(key)));
  const env: NodeJS.ProcessEnv = {
    ...inherited,
    HOME: dir,
    RABBITMQ_CONF_ENV_FILE: join(dir, 'rabbitmq-env.conf'),
    RABBITMQ_CONFIG_FILE: join(dir, 'rabbitmq'),
    RABBITMQ_ENABLED_PLUGINS_FILE: join(dir, 'enabled_plugins'),
    RABBITMQ_NODENAME: nodeName,
    RABBITMQ_NODE_IP_ADDRESS: '127.0.0.1',
    RABBITMQ_NODE_PORT: String(port),
    RABBITMQ_DIST_PORT: String(distPort),
    RABBITMQ_MNESIA_BASE: join(dir, 'mnesia'),
    RABBITMQ_LOG_BASE: join(dir, 'log'),
    RABBITMQ_PID_FILE: join(dir, 'pid'),
    ERL_EPMD_ADDRESS: '127.0.0.1',
    RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS: '-kernel inet_dist_use_interface {127,0,0,1}',
  };
  const url = `amqp://guest:guest@127.0.0.1:${port}`;
  let output = '';
  let child: ChildProcess | undefined;
  let closed = false;

  const running = () => child !== undefined && child.exitCode === null && child.signalCode === null;
  const killGroupNow = () => {
    if (running() && child?.pid) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {}
    }
  };
  // A caller that ends without close() (a crash, process.exit) must not leave the node behind.
  process.once('exit', killGroupNow);

  async function start(): Promise<void> {
    if (closed) throw new Error(`RabbitMQ node ${nodeName} was closed`);
    if (running()) return;
    // Its own process group, so that every process of the node (the shell, beam, erl_child_setup) can be signalled at once.
    const started = spawn(serverPath, [], { env, cwd: dir, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    child = started;
    const collect = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-20_000);
    };
    started.stdout?.on('data', collect);
    started.stderr?.on('data', collect);
    let spawnError: Error | undefined;
    started.on('error', (error) => {
      spawnError = error;
    });
    try {
      await waitForAmqp(url, startTimeoutMs, () => spawnError !== undefined || started.exitCode !== null || started.signalCode !== null);
    } catch (error) {
      await stopWith(0);
      throw new Error(`RabbitMQ node ${nodeName} did not start (${(spawnError ?? (error as Error)).message}):\n${output}`);
    }
  }

  /** SIGTERM to the Erlang VM (its pid file) or to the group when there is none yet; SIGKILL to the group after `graceMs`. */
  async function stopWith(graceMs: number): Promise<void> {
    const current = child;
    if (!current?.pid || !running()) return;
    const exited = once(current, 'exit');
    let beamPid: number | undefined;
    try {
      beamPid = Number(readFileSync(join(dir, 'pid'), 'utf8').trim()) || undefined;
    } catch {}
    try {
      if (graceMs === 0) process.kill(-current.pid, 'SIGKILL');
      else if (beamPid) process.kill(beamPid, 'SIGTERM');
      else process.kill(-current.pid, 'SIGTERM');
    } catch {}
    const timer = setTimeout(() => {
      try {
        process.kill(-(current.pid as number), 'SIGKILL');
      } catch {}
    }, graceMs);
    await exited;
    clearTimeout(timer);
    // erl_child_setup and the like may outlive the script for a moment: the group goes with it.
    try {
      process.kill(-current.pid, 'SIGKILL');
    } catch {}
  }

  const stop = () => stopWith(stopTimeoutMs);

  await start().catch((error: unknown) => {
    process.removeListener('exit', killGroupNow);
    rmSync(dir, { recursive: true, force: true });
    throw error;
  });
  return {
    url,
    nodeName,
    port,
    isRunning: running,
    start,
    stop,
    restart: async (downMs) => {
      const began = performance.now();
      await stop();
      const stopped = performance.now();
      await sleep(downMs);
      const starting = performance.now();
      await start();
      return { stopMs: stopped - began, downMs: starting - stopped, startMs: performance.now() - starting };
    },
    output: () => output,
    close: async () => {
      if (closed) return;
      closed = true;
      await stopWith(10_000).catch(() => {});
      process.removeListener('exit', killGroupNow);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
