/**
 * `pnpm bench:launcher-memory`: the resident memory of the one-process launcher (`pnpm start` on the embedded defaults:
 * PGlite, the in-process bus, both emulators) and of every process it started: its process tree, each process's
 * `VmRSS` from `/proc/<pid>/status` summed (apps/standalone's `processTreeMemory`), with the largest process's own
 * resident size and peak (`VmHWM`), once it is ready, again after 10,000 books were created through the gateway
 * (`POST /books`, `BENCH_CLIENTS` at a time, default 16), then after a read of every one of them (`GET /books/{id}`).
 * Prints the figures in MiB, the creation rate and the tree's CPU time for each phase; then stops it as Ctrl-C in a
 * terminal does (SIGINT to its process group) and says whether every process of the tree ended. Linux only (it reads
 * `/proc`).
 *
 * Environment: BENCH_BOOKS (10000), BENCH_CLIENTS (16), BENCH_DATA_DIR (unset: a fresh temporary DATA_DIR, removed
 * afterwards; set: that folder, created if missing and kept, so that a second run measures a start on an existing one),
 * BENCH_COMMAND (unset: `node apps/standalone/src/main.ts`, the launcher itself; else a command run in the repository's
 * root instead, its words split on spaces, such as `./dev start` or `pnpm start`, to measure what it leaves running).
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, waitFor } from '@switchyard/service-kit/testing';
import { type ProcessTreeMemory, processTreeMemory } from '../apps/standalone/src/process-tree.ts';
import { cpuSeconds } from './process-cpu.ts';

const books = Number(process.env.BENCH_BOOKS ?? 10_000);
const clients = Number(process.env.BENCH_CLIENTS ?? 16);
const repositoryRoot = new URL('..', import.meta.url).pathname;
const [program, ...args] = process.env.BENCH_COMMAND?.trim()
  ? process.env.BENCH_COMMAND.trim().split(/\s+/)
  : [process.execPath, 'apps/standalone/src/main.ts'];
const MiB = 2 ** 20;

/** What one moment of the run measured: the tree, and the largest process of it (the launcher's Node.js) with its peak. */
interface Moment {
  tree: ProcessTreeMemory;
  largest: { pid: number; rss: number; peak: number };
}

/** The process tree under `pid`, and the `VmRSS` and `VmHWM` (MiB) of its largest process. */
function measure(pid: number): Moment {
  const tree = processTreeMemory(pid);
  if (!tree) throw new Error(`no process ${pid} (or no /proc to read it from: Linux only)`);
  const largest = tree.processes.reduce((a, b) => (b.residentBytes > a.residentBytes ? b : a));
  const status = readFileSync(`/proc/${largest.pid}/status`, 'utf8');
  const peakKiB = Number(/^VmHWM:\s+(\d+) kB/m.exec(status)?.[1] ?? Number.NaN);
  return { tree, largest: { pid: largest.pid, rss: largest.residentBytes / MiB, peak: peakKiB / 1024 } };
}

/** CPU seconds the processes `pids` used so far (those that ended count 0). */
function treeCpuSeconds(pids: number[]): number {
  return pids.reduce((sum, pid) => sum + (cpuSeconds(pid) || 0), 0);
}

/** Whether process `pid` is still there (a zombie counts as ended). */
function running(pid: number): boolean {
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

/** Runs `work(i)` for i in [0, count) with `concurrency` at a time. */
async function inParallel(count: number, concurrency: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await work(next++);
    }),
  );
}

const keptDataDir = process.env.BENCH_DATA_DIR || undefined;
const existing = keptDataDir !== undefined && existsSync(join(keptDataDir, 'pglite', 'PG_VERSION'));
if (keptDataDir) mkdirSync(keptDataDir, { recursive: true });
const dataDir = keptDataDir ?? mkdtempSync(join(tmpdir(), 'bench-launcher-'));
const ports = Object.fromEntries(
  await Promise.all(
    ['GATEWAY_PORT', 'CATALOG_PORT', 'CONFIG_PORT', 'CODE_HOST_PORT', 'RELEASE_PORT', 'PEER_PORT', 'REGISTRY_PORT'].map(
      async (name) => [name, String(await freePort())] as const,
    ),
  ),
);
const gateway = `http://127.0.0.1:${ports.GATEWAY_PORT}`;
const started = Date.now();
// A process group of its own, so that the stop below reaches every process of it, as Ctrl-C in a terminal does.
const launcher: ChildProcess = spawn(program as string, args, {
  cwd: repositoryRoot,
  env: { ...process.env, ...ports, DATA_DIR: dataDir, DATABASE_URL: '', AMQP_URL: '', CODE_HOST_API_URL: '', REGISTRY_URLS: '', HOST: '' },
  stdio: ['ignore', 'pipe', 'pipe'],
  detached: true,
});
let output = '';
launcher.stdout?.on('data', (chunk) => {
  output += chunk;
});
launcher.stderr?.on('data', (chunk) => {
  output += chunk;
});
const exited = once(launcher, 'exit');
const pid = launcher.pid as number;
/** Sends `signal` to the launcher's process group, if any process of it is left. */
function signalGroup(signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The whole group has ended.
  }
}
/** SIGINT to the launcher's process group; SIGKILL to it after 30 s. Resolves with the exit code (or signal). */
async function stopLauncher(): Promise<string> {
  if (launcher.exitCode === null && launcher.signalCode === null) signalGroup('SIGINT');
  const timer = setTimeout(() => signalGroup('SIGKILL'), 30_000);
  const [code, signal] = await exited;
  clearTimeout(timer);
  return code === null ? String(signal) : String(code);
}
try {
  await Promise.race([
    waitFor(async () => (await fetch(`${gateway}/readyz`)).status === 200, 180_000, 100),
    exited.then(([code]) => {
      throw new Error(`exited with ${code}`);
    }),
  ]);
} catch (error) {
  await stopLauncher();
  throw new Error(`${[program, ...args].join(' ')} did not become ready (${(error as Error).message}):\n${output}`);
}
const rows: Array<[string, Moment]> = [];
const out = (line: string) => process.stdout.write(`${line}\n`);
let treePids: number[] = [];
try {
  const readyMs = Date.now() - started;
  const ready = measure(pid);
  rows.push(['ready', ready]);
  treePids = ready.tree.processes.map((member) => member.pid);

  const ids: number[] = [];
  const loadStarted = Date.now();
  const cpuBeforeLoad = treeCpuSeconds(treePids);
  await inParallel(books, clients, async (i) => {
    const res = await fetch(`${gateway}/books`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ Name: `Book ${i}`, Author: `Author ${i % 500}`, Price: (i % 100) + 0.99, Year: 1900 + (i % 120) }),
    });
    if (res.status !== 201) throw new Error(`POST /books answered ${res.status}: ${await res.text()}`);
    ids.push(((await res.json()) as { Id: number }).Id);
  });
  const loadSeconds = (Date.now() - loadStarted) / 1000;
  const loadCpu = treeCpuSeconds(treePids) - cpuBeforeLoad;
  rows.push([`after ${books} books created`, measure(pid)]);

  await inParallel(ids.length, clients, async (i) => {
    const res = await fetch(`${gateway}/books/${ids[i]}`);
    if (res.status !== 200) throw new Error(`GET /books/${ids[i]} answered ${res.status}`);
    await res.arrayBuffer();
  });
  const readCpu = treeCpuSeconds(treePids) - cpuBeforeLoad - loadCpu;
  const last = measure(pid);
  rows.push([`after reading all ${books}`, last]);
  treePids = last.tree.processes.map((member) => member.pid);

  out(`\`${[program, ...args].join(' ')}\` (pid ${pid}, its process tree: ${treePids.join(', ')})`);
  out(
    `ready in ${(readyMs / 1000).toFixed(1)} s (${existing ? 'existing' : 'fresh'} DATA_DIR); ${books} books created in ${loadSeconds.toFixed(1)} s`,
  );
  out(
    `(${Math.round(books / loadSeconds)} books/s through the gateway, ${clients} clients); the tree's CPU time: ${loadCpu.toFixed(1)} s to create them, ${readCpu.toFixed(1)} s to read them\n`,
  );
  out('| moment | process tree (VmRSS summed) | processes | largest process (VmRSS) | its peak (VmHWM) |');
  out('|---|---|---|---|---|');
  for (const [moment, { tree, largest }] of rows) {
    out(
      `| ${moment} | ${(tree.residentBytes / MiB).toFixed(0)} MiB | ${tree.processes.length} | ${largest.rss.toFixed(0)} MiB (pid ${largest.pid}) | ${largest.peak.toFixed(0)} MiB |`,
    );
  }
} finally {
  const exit = await stopLauncher();
  // Ctrl-C reached every process when none of the tree is left once the process started here has exited.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const left = treePids.filter(running);
  const ended = treePids.length === 1 ? 'its one process ended' : `all ${treePids.length} processes of the tree ended`;
  out(`\nstopped by SIGINT to its process group: exit ${exit}; ${left.length === 0 ? ended : `still running: ${left.join(', ')}`}`);
  signalGroup('SIGKILL');
  if (!keptDataDir) rmSync(dataDir, { recursive: true, force: true });
}
