/**
 * `pnpm bench:launcher-memory`: the resident memory of the one-process launcher (`pnpm start` on the embedded defaults:
 * PGlite, the in-process bus, both emulators), read from `/proc/<pid>/status` (`VmRSS`, and the peak `VmHWM`) once it
 * is ready, and again after 10,000 books were created through the gateway (`POST /books`, `BENCH_CLIENTS` at a time,
 * default 16), then after a read of every one of them (`GET /books/{id}`). Prints the figures in MiB, the creation
 * rate and the launcher's CPU time for each phase. Linux only (it reads `/proc`).
 *
 * Environment: BENCH_BOOKS (10000), BENCH_CLIENTS (16), BENCH_DATA_DIR (unset: a fresh temporary DATA_DIR, removed
 * afterwards; set: that folder, created if missing and kept, so that a second run measures a start on an existing one).
 */

import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startProcess } from '@switchyard/service-kit/testing';
import { cpuSeconds } from './process-cpu.ts';

const books = Number(process.env.BENCH_BOOKS ?? 10_000);
const clients = Number(process.env.BENCH_CLIENTS ?? 16);
const launcherMain = new URL('../apps/standalone/src/main.ts', import.meta.url).pathname;

/** `VmRSS` and `VmHWM` of process `pid`, in MiB. */
function residentMiB(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { rss: kib('VmRSS') / 1024, peak: kib('VmHWM') / 1024 };
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
const launcher = await startProcess(
  launcherMain,
  { ...ports, DATA_DIR: dataDir, DATABASE_URL: '', AMQP_URL: '', CODE_HOST_API_URL: '', REGISTRY_URLS: '', HOST: '' },
  `${gateway}/readyz`,
  180_000,
);
const pid = launcher.child.pid as number;
const rows: Array<[string, { rss: number; peak: number }]> = [];
try {
  const readyMs = Date.now() - started;
  rows.push(['ready', residentMiB(pid)]);

  const ids: number[] = [];
  const loadStarted = Date.now();
  const cpuBeforeLoad = cpuSeconds(pid);
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
  const loadCpu = cpuSeconds(pid) - cpuBeforeLoad;
  rows.push([`after ${books} books created`, residentMiB(pid)]);

  await inParallel(ids.length, clients, async (i) => {
    const res = await fetch(`${gateway}/books/${ids[i]}`);
    if (res.status !== 200) throw new Error(`GET /books/${ids[i]} answered ${res.status}`);
    await res.arrayBuffer();
  });
  const readCpu = cpuSeconds(pid) - cpuBeforeLoad - loadCpu;
  rows.push([`after reading all ${books}`, residentMiB(pid)]);

  const out = (line: string) => process.stdout.write(`${line}\n`);
  out(
    `launcher ready in ${(readyMs / 1000).toFixed(1)} s (${existing ? 'existing' : 'fresh'} DATA_DIR); ${books} books created in ${loadSeconds.toFixed(1)} s`,
  );
  out(
    `(${Math.round(books / loadSeconds)} books/s through the gateway, ${clients} clients); launcher CPU time: ${loadCpu.toFixed(1)} s to create them, ${readCpu.toFixed(1)} s to read them\n`,
  );
  out('| moment | resident (VmRSS) | peak (VmHWM) |');
  out('|---|---|---|');
  for (const [moment, memory] of rows) out(`| ${moment} | ${memory.rss.toFixed(0)} MiB | ${memory.peak.toFixed(0)} MiB |`);
} finally {
  await launcher.stop('SIGINT', 30_000);
  if (!keptDataDir) rmSync(dataDir, { recursive: true, force: true });
}
