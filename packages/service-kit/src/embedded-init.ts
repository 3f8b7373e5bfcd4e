import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { embeddedPGliteOptions } from './database.ts';

/** How long {@link initEmbeddedDataDir} waits for its child process by default. */
export const EMBEDDED_INIT_TIMEOUT_MS = 180_000;

/** The most bytes of the child's output kept for an error message. */
const OUTPUT_LIMIT = 16_384;

const script = fileURLToPath(import.meta.url);

/** Whether `dataDir` holds an initialised PostgreSQL cluster (its `PG_VERSION` file). */
function initialised(dataDir: string): boolean {
  return existsSync(join(dataDir, 'PG_VERSION'));
}

/**
 * Creates the PostgreSQL cluster of an embedded database's folder (PGlite's initdb) in a short-lived child Node.js
 * process, so that the memory initdb takes (WebAssembly memory never shrinks: a PGlite that ran initdb stays 200 to
 * 400 MiB larger than one that opened an existing folder, and peaks over 1 GiB) goes away with that process; then
 * `openEmbeddedDatabase` in this process opens the folder as an existing one. The child builds the cluster in a
 * sibling folder (`<dataDir>.init`, removed first if an interrupted start left one) that is renamed to `dataDir` once
 * complete, so an interrupted start never leaves a half-made cluster behind.
 *
 * Does nothing, and resolves `false`, for `memory://`, for a folder that already holds a cluster (`PG_VERSION`), and
 * for a folder that is not empty yet holds no cluster (left to PGlite, as before); resolves `true` once it created
 * one. Creates `dataDir`'s parent folders. Throws an `Error` carrying the child's output if the child fails, or if
 * it has not finished after `timeoutMs` milliseconds (default {@link EMBEDDED_INIT_TIMEOUT_MS}; the child is then
 * killed).
 */
export async function initEmbeddedDataDir(dataDir: string, timeoutMs = EMBEDDED_INIT_TIMEOUT_MS): Promise<boolean> {
  if (dataDir === 'memory://' || initialised(dataDir)) return false;
  if (existsSync(dataDir) && readdirSync(dataDir).length > 0) return false;
  const target = resolve(dataDir);
  mkdirSync(dirname(target), { recursive: true });
  const building = join(dirname(target), `${basename(target)}.init`);
  rmSync(building, { recursive: true, force: true });
  try {
    await runChild(building, timeoutMs);
    if (!initialised(building)) throw new Error(`initialising the embedded database in ${dataDir} made no cluster`);
    // An empty folder (made by a previous start, or by hand) gives way to the complete one.
    if (existsSync(target)) rmSync(target, { recursive: true });
    renameSync(building, target);
    return true;
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
}

/**
 * Runs this module as a script on `dataDir`; rejects with its output unless it exits with status 0 within `timeoutMs`
 * (else it is killed, and the promise settles once it has exited).
 */
function runChild(dataDir: string, timeoutMs: number): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [script, dataDir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk: Buffer) => {
      if (output.length < OUTPUT_LIMIT) output += chunk.toString('utf8').slice(0, OUTPUT_LIMIT - output.length);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (timedOut) reject(new Error(`initialising the embedded database in ${dataDir} took over ${timeoutMs} ms:\n${output}`));
      else if (code === 0) resolvePromise();
      else reject(new Error(`initialising the embedded database in ${dataDir} failed (${signal ?? `status ${code}`}):\n${output}`));
    });
  });
}

// Run as a script (by initEmbeddedDataDir): create the cluster in the folder named by the first argument, and exit.
if (process.argv[1] === script) {
  const dataDir = process.argv[2];
  if (!dataDir) throw new Error('usage: embedded-init.ts <data folder>');
  mkdirSync(dataDir, { recursive: true });
  const pglite = await PGlite.create(dataDir, embeddedPGliteOptions());
  await pglite.close();
}
