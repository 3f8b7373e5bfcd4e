import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { waitFor } from './http-client.ts';

/** A service started as its own OS process by {@link startProcess}. */
export interface RunningProcess {
  child: ChildProcess;
  /** Everything the process wrote so far (stdout and stderr), for failure messages. */
  output: () => string;
  /** Sends `signal` (default SIGTERM) and waits for the exit (SIGKILL after `graceMs`); resolves with the exit code. */
  stop: (signal?: NodeJS.Signals, graceMs?: number) => Promise<number | null>;
}

/**
 * Runs `node <script>` with `env` added to the current environment and waits until `GET <readyUrl>`
 * answers 200. Throws with the process's output when it exits or is not ready within `timeoutMs`.
 */
export async function startProcess(
  script: string,
  env: Record<string, string>,
  readyUrl: string,
  timeoutMs = 30_000,
): Promise<RunningProcess> {
  const child = spawn(process.execPath, [script], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const exited = once(child, 'exit');
  const stop = async (signal: NodeJS.Signals = 'SIGTERM', graceMs = 5_000) => {
    if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
    child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    const [code] = await exited;
    clearTimeout(timer);
    return code as number | null;
  };
  try {
    await Promise.race([
      waitFor(async () => (await fetch(readyUrl)).status === 200, timeoutMs, 100),
      exited.then(([code]) => {
        throw new Error(`exited with ${code}`);
      }),
    ]);
  } catch (error) {
    await stop('SIGKILL', 1_000);
    throw new Error(`${script} did not become ready (${(error as Error).message}):\n${output}`);
  }
  return { child, output: () => output, stop };
}

/** Ports below the kernel's ephemeral range that {@link freePort} chooses from (the range's start is 32768 on Linux). */
const FREE_PORT_RANGE = { from: 20_000, to: 32_767 };
/** Ports this process has handed out already: never twice. */
const handedOut = new Set<number>();

/**
 * A TCP port on 127.0.0.1 that was free a moment ago, for processes that must be told their port. It is drawn at random
 * from 20000–32767, below the ephemeral range the kernel gives outgoing connections and Docker gives published
 * container ports (32768–60999): a port from that range (what `listen(0)` answers) can be taken by anyone's next
 * connection before the process it was meant for listens on it.
 * @throws Error when 100 draws found no free port
 */
export async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  const free = (port: number) =>
    new Promise<boolean>((resolve) => {
      const server = createServer();
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
    });
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = FREE_PORT_RANGE.from + Math.floor(Math.random() * (FREE_PORT_RANGE.to - FREE_PORT_RANGE.from + 1));
    if (handedOut.has(port)) continue;
    // Reserved before the check, so that calls running together never hand out the same port.
    handedOut.add(port);
    if (await free(port)) return port;
    handedOut.delete(port);
  }
  throw new Error(`no free port found in ${FREE_PORT_RANGE.from}–${FREE_PORT_RANGE.to}`);
}
