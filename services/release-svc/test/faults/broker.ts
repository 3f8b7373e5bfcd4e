import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startTcpSwitch } from '@switchyard/service-kit/testing';
import amqplib from 'amqplib';

/** A broker the test may take down and bring back, without touching the machine's shared RabbitMQ. */
export interface RestartableBroker {
  /** `amqp://…` of this broker. */
  url: string;
  /** `private node`: a RabbitMQ node of its own; `tcp proxy`: a proxy in front of the shared broker that cuts connections. */
  kind: 'private node' | 'tcp proxy';
  /** Why a private node could not be used, when `kind` is `tcp proxy`. */
  fallbackReason?: string;
  /** Stops the node (SIGTERM, as an orchestrator does), or cuts every connection and refuses new ones. */
  stop: () => Promise<void>;
  /** Starts it again and waits until it accepts AMQP connections. */
  start: () => Promise<void>;
  /** Stops whatever runs and removes what was created (the node's folder); idempotent. */
  close: () => Promise<void>;
  /** The node's console output so far (for failure messages). */
  output: () => string;
}

/** The script Debian's rabbitmq-server package runs the node with (the /usr/sbin wrapper would `su` to the rabbitmq user). */
export const RABBITMQ_SERVER = '/usr/lib/rabbitmq/bin/rabbitmq-server';

/**
 * A RabbitMQ node of the test's own (Debian's rabbitmq-server, run directly as a child process), else a
 * cuttable TCP proxy in front of `sharedUrl` when no node can be started here (`FAULTS_BROKER=proxy` forces it).
 */
export async function startRestartableBroker(sharedUrl: string): Promise<RestartableBroker> {
  let reason = 'FAULTS_BROKER=proxy';
  if (process.env.FAULTS_BROKER !== 'proxy') {
    if (!existsSync(RABBITMQ_SERVER)) reason = `${RABBITMQ_SERVER} is not installed`;
    else {
      try {
        return await startPrivateRabbitNode();
      } catch (error) {
        reason = `the private node did not start: ${(error as Error).message.slice(0, 2_000)}`;
      }
    }
  }
  return { ...(await startCuttableProxy(sharedUrl)), fallbackReason: reason };
}

/** Resolves once `url` accepts an AMQP connection; rejects after `timeoutMs` or when `exited` settles first. */
async function waitForAmqp(url: string, timeoutMs: number, exited: () => boolean): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exited()) throw new Error('the node exited');
    try {
      const model = await amqplib.connect(url, { timeout: 1_000 });
      model.on('error', () => {});
      await model.close();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`no AMQP connection within ${timeoutMs} ms: ${(error as Error).message}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * A single RabbitMQ node with its own name, ports, data and log folders and Erlang cookie (HOME is its
 * folder), reachable on 127.0.0.1 only. It reads none of /etc/rabbitmq (its own config and env files) and
 * registers with the machine's epmd under its own name, which is how Erlang nodes share a host.
 */
export async function startPrivateRabbitNode(): Promise<RestartableBroker> {
  const dir = mkdtempSync(join(tmpdir(), 'sy-rabbit-'));
  const nodeName = `sy-test-${randomBytes(4).toString('hex')}@localhost`;
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
  // If the test process ends without close() (a crash), the node must not outlive it.
  const killOnExit = () => {
    if (running() && child?.pid) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {}
    }
  };
  process.once('exit', killOnExit);

  async function killGroup(signal: NodeJS.Signals, graceMs: number): Promise<void> {
    const current = child;
    if (!current?.pid || !running()) return;
    const exited = once(current, 'exit');
    try {
      process.kill(-current.pid, signal);
    } catch {}
    const timer = setTimeout(() => {
      try {
        process.kill(-(current.pid as number), 'SIGKILL');
      } catch {}
    }, graceMs);
    await exited;
    clearTimeout(timer);
  }

  async function start(): Promise<void> {
    if (closed) throw new Error(`RabbitMQ node ${nodeName} was closed`);
    if (running()) return;
    // Its own process group, so every process of the node (the shell, beam, erl_child_setup) can be signalled at once.
    const started = spawn(RABBITMQ_SERVER, [], { env, cwd: dir, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
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
      await waitForAmqp(url, 60_000, () => spawnError !== undefined || started.exitCode !== null || started.signalCode !== null);
    } catch (error) {
      await killGroup('SIGKILL', 0);
      throw new Error(`RabbitMQ node ${nodeName} did not start (${(spawnError ?? (error as Error)).message}):\n${output}`);
    }
  }

  async function stop(): Promise<void> {
    if (!running()) return;
    // SIGTERM to beam itself is RabbitMQ's graceful shutdown; the script that started it exits with it.
    let beamPid: number | undefined;
    try {
      beamPid = Number(readFileSync(join(dir, 'pid'), 'utf8').trim()) || undefined;
    } catch {}
    const current = child as ChildProcess;
    const exited = once(current, 'exit');
    if (beamPid) {
      try {
        process.kill(beamPid, 'SIGTERM');
      } catch {}
    } else await killGroup('SIGTERM', 0);
    const timer = setTimeout(() => killOnExit(), 20_000);
    await exited;
    clearTimeout(timer);
  }

  await start().catch((error: unknown) => {
    process.removeListener('exit', killOnExit);
    rmSync(dir, { recursive: true, force: true });
    throw error;
  });
  return {
    url,
    kind: 'private node',
    stop,
    start,
    output: () => output,
    close: async () => {
      if (closed) return;
      closed = true;
      await killGroup('SIGKILL', 0);
      process.removeListener('exit', killOnExit);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A TCP proxy on 127.0.0.1 in front of the broker at `targetUrl`: `stop()` destroys every proxied connection
 * and refuses new ones (clients see the broker vanish), `start()` lets them through again.
 */
export async function startCuttableProxy(targetUrl: string): Promise<RestartableBroker> {
  const proxy = await startTcpSwitch(targetUrl, { on: true });
  let closed = false;
  return {
    url: proxy.url,
    kind: 'tcp proxy',
    stop: async () => proxy.switchOff(),
    start: async () => {
      if (closed) throw new Error('the proxy was closed');
      proxy.switchOn();
    },
    output: () => '',
    close: async () => {
      closed = true;
      await proxy.close();
    },
  };
}
