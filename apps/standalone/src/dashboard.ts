import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { dashboardDistDir } from '@switchyard/dashboard/dist-dir';
import type { Logger } from '@switchyard/service-kit';

/** Where the dashboard is built: its package folder (build script and sources), its output, the workspace root. */
export interface DashboardBuild {
  /** The dashboard's package folder, holding `package.json`, `build.ts` and its sources. */
  root: string;
  /** The folder `build.ts` writes (`index.html`, `assets/`): what the gateway serves. */
  distDir: string;
  /** The workspace root, whose `pnpm-lock.yaml` pins the versions the build uses. */
  workspaceRoot: string;
}

/** `apps/dashboard` of this workspace, built into its `dist/` ({@link dashboardDistDir}). */
export const DASHBOARD_BUILD: DashboardBuild = {
  root: dirname(dashboardDistDir),
  distDir: dashboardDistDir,
  workspaceRoot: join(dirname(dashboardDistDir), '..', '..'),
};

/** Folders whose files never go into the dashboard's build. */
const NOT_SOURCES = new Set(['node_modules', 'dist', 'test', '.turbo', '.vite-temp']);

/** Longest wait for the dashboard's build, in ms; its usual time is well under a second. */
const BUILD_TIMEOUT_MS = 120_000;

/** The newest modification time (ms) of the files under `dir`, folders in {@link NOT_SOURCES} and dot-folders left out. */
function newestFileMs(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!NOT_SOURCES.has(entry.name) && !entry.name.startsWith('.')) newest = Math.max(newest, newestFileMs(join(dir, entry.name)));
    } else if (entry.isFile()) {
      newest = Math.max(newest, statSync(join(dir, entry.name)).mtimeMs);
    }
  }
  return newest;
}

/**
 * The folders whose sources go into the build of the package at `root`: the package's own, and those of the workspace
 * packages it depends on (`workspace:` specifiers), recursively, found through its `node_modules` links.
 */
function sourceFolders(root: string, seen = new Set<string>()): Set<string> {
  seen.add(root);
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
  };
  for (const [name, specifier] of Object.entries({ ...manifest.dependencies, ...manifest.devDependencies })) {
    if (!specifier.startsWith('workspace:')) continue;
    const link = join(root, 'node_modules', name);
    if (!existsSync(link)) continue;
    const folder = realpathSync(link);
    if (!seen.has(folder)) sourceFolders(folder, seen);
  }
  return seen;
}

/**
 * Whether the dashboard's build output (`distDir/index.html`) is missing or older than what it is built from: the
 * files of `root`, those of the workspace packages it uses, and the workspace's lockfile.
 */
export function dashboardBuildIsStale({ root, distDir, workspaceRoot }: DashboardBuild = DASHBOARD_BUILD): boolean {
  const index = join(distDir, 'index.html');
  if (!existsSync(index)) return true;
  const builtAt = statSync(index).mtimeMs;
  const lockfile = join(workspaceRoot, 'pnpm-lock.yaml');
  if (existsSync(lockfile) && statSync(lockfile).mtimeMs > builtAt) return true;
  for (const folder of sourceFolders(root)) if (newestFileMs(folder) > builtAt) return true;
  return false;
}

/** How often a launcher looks whether another one's build is over, in ms. */
const LOCK_POLL_MS = 100;

/**
 * Takes the build's lock, a folder beside `distDir` (`mkdir` either makes it or fails: one owner at a time), waiting
 * while another launcher holds it; a lock older than the build's timeout is a dead launcher's and is taken over.
 * Disposing of the answer gives the lock back.
 * @throws the signal's reason when `signal` aborts while waiting
 */
async function buildLock({ distDir }: DashboardBuild, signal: AbortSignal | undefined): Promise<AsyncDisposable> {
  const lock = `${distDir.replace(/\/+$/, '')}.lock`;
  for (;;) {
    signal?.throwIfAborted();
    try {
      mkdirSync(lock);
      return { [Symbol.asyncDispose]: async () => rmSync(lock, { recursive: true, force: true }) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const since = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (since > BUILD_TIMEOUT_MS) rmSync(lock, { recursive: true, force: true });
      else await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
    }
  }
}

/** Options of {@link prepareDashboard}. */
export interface PrepareDashboardOptions {
  /** What to build; default {@link DASHBOARD_BUILD}. */
  build?: DashboardBuild;
  /** Stops a build in progress (the launcher is stopping). */
  signal?: AbortSignal;
}

/**
 * Makes the dashboard ready for the gateway and answers the folder to serve at `/ui/` (`DASHBOARD_DIR`): `distDir`
 * (`apps/dashboard/dist/`), built first by `node build.ts` in `root` (a child process, so that Vite's memory is not the
 * launcher's) when {@link dashboardBuildIsStale} says so, one launcher at a time (see {@link buildLock}). A build that fails, times out, is stopped or writes no
 * `index.html` is logged on `logger` as a warning with the end of its output, and answers `undefined`: the launcher
 * then starts without the dashboard. Never rejects.
 */
export async function prepareDashboard(
  logger: Logger,
  { build = DASHBOARD_BUILD, signal }: PrepareDashboardOptions = {},
): Promise<string | undefined> {
  try {
    if (!dashboardBuildIsStale(build)) return build.distDir;
    // Launchers started together (a test run's) build one at a time: the others then find the build fresh.
    await using _lock = await buildLock(build, signal);
    if (!dashboardBuildIsStale(build)) return build.distDir;
    const started = performance.now();
    await promisify(execFile)(process.execPath, [join(build.root, 'build.ts')], {
      cwd: build.root,
      // Vite's warnings and errors only: the output is read when the build fails.
      env: { ...process.env, DASHBOARD_BUILD_QUIET: '1' },
      timeout: BUILD_TIMEOUT_MS,
      maxBuffer: 16 * 2 ** 20,
      ...(signal ? { signal } : {}),
    });
    if (!existsSync(join(build.distDir, 'index.html'))) throw new Error(`the build wrote no index.html into ${build.distDir}`);
    logger.info({ dashboardDir: build.distDir, ms: Math.round(performance.now() - started) }, 'dashboard built');
    return build.distDir;
  } catch (error) {
    const { message, stderr, stdout } = error as Error & { stderr?: string; stdout?: string };
    const output = `${stderr ?? ''}${stdout ?? ''}`.trim().split('\n').slice(-20).join('\n');
    logger.warn(
      { err: { message }, ...(output ? { output } : {}) },
      `the dashboard could not be built (node ${join(build.root, 'build.ts')}): starting without it, /ui answers 404`,
    );
    return undefined;
  }
}
