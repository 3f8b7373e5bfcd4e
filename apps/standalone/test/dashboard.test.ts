import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { createLogger } from '@switchyard/service-kit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type DashboardBuild, dashboardBuildIsStale, prepareDashboard } from '../src/dashboard.ts';

/** A build script that records each run in `builds.log` beside the workspace, then writes `dist/`. */
const WORKING_BUILD = `
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
appendFileSync(new URL('../../builds.log', import.meta.url), 'built\\n');
mkdirSync(new URL('./dist/assets/', import.meta.url), { recursive: true });
writeFileSync(new URL('./dist/assets/index-Ab12.js', import.meta.url), 'console.log(1);');
writeFileSync(new URL('./dist/index.html', import.meta.url), '<!doctype html><title>dashboard</title>');
`;

/** A build script that fails as a bundler does on a broken import. */
const FAILING_BUILD = `
process.stderr.write('error: could not resolve "./missing.tsx" from src/main.tsx\\n');
process.exit(1);
`;

/** Sets a file's modification time `seconds` from now (negative: in the past). */
function touch(path: string, seconds: number): void {
  const at = Date.now() / 1_000 + seconds;
  utimesSync(path, at, at);
}

/**
 * A workspace of its own: `apps/dash` (the dashboard, with `build.ts` and a source file) using the workspace package
 * `packages/lib` through its `node_modules` link, as pnpm links it, and a lockfile; every file an hour old.
 */
describe("the launcher's dashboard build", () => {
  let workspace: string;
  let build: DashboardBuild;
  let logLines: string[];
  const logger = () =>
    createLogger(
      'dashboard',
      'info',
      new Writable({
        write(chunk, _encoding, done) {
          logLines.push(String(chunk));
          done();
        },
      }),
    );
  const builds = () =>
    existsSync(join(workspace, 'builds.log')) ? readFileSync(join(workspace, 'builds.log'), 'utf8').split('\n').length - 1 : 0;

  beforeEach(() => {
    logLines = [];
    workspace = mkdtempSync(join(tmpdir(), 'standalone-dashboard-'));
    const root = join(workspace, 'apps', 'dash');
    const lib = join(workspace, 'packages', 'lib');
    mkdirSync(join(root, 'src'), { recursive: true });
    mkdirSync(join(root, 'node_modules', '@x'), { recursive: true });
    mkdirSync(join(lib, 'src'), { recursive: true });
    const files: Record<string, string> = {
      'pnpm-lock.yaml': 'lockfileVersion: 9.0\n',
      'apps/dash/package.json': JSON.stringify({ name: 'dash', devDependencies: { '@x/lib': 'workspace:*', vite: '^8.0.0' } }),
      'apps/dash/build.ts': WORKING_BUILD,
      'apps/dash/src/main.ts': 'export {};\n',
      'packages/lib/package.json': JSON.stringify({ name: '@x/lib' }),
      'packages/lib/src/index.ts': 'export const a = 1;\n',
    };
    for (const [path, text] of Object.entries(files)) {
      writeFileSync(join(workspace, path), text);
      touch(join(workspace, path), -3_600);
    }
    symlinkSync(join('..', '..', '..', '..', 'packages', 'lib'), join(root, 'node_modules', '@x', 'lib'));
    build = { root, distDir: join(root, 'dist'), workspaceRoot: workspace };
  });
  afterEach(() => {
    rmSync(workspace, { recursive: true, force: true });
  });

  it('builds when there is no build yet, and answers the folder to serve', async () => {
    expect(dashboardBuildIsStale(build)).toBe(true);
    expect(await prepareDashboard(logger(), { build })).toBe(build.distDir);
    expect(builds()).toBe(1);
    expect(existsSync(join(build.distDir, 'index.html'))).toBe(true);
    expect(logLines.join('')).toContain('dashboard built');
  });

  it('does not build again while the build is newer than its sources', async () => {
    await prepareDashboard(logger(), { build });
    expect(dashboardBuildIsStale(build)).toBe(false);
    expect(await prepareDashboard(logger(), { build })).toBe(build.distDir);
    expect(builds()).toBe(1);
  });

  it('builds again when a source file, a workspace package it uses or the lockfile changed since', async () => {
    await prepareDashboard(logger(), { build });
    for (const [step, changed] of ['apps/dash/src/main.ts', 'packages/lib/src/index.ts', 'pnpm-lock.yaml'].entries()) {
      // Each change newer than the build before it; each build newer than every change so far.
      touch(join(workspace, changed), 100 * (step + 1));
      expect(dashboardBuildIsStale(build), changed).toBe(true);
      expect(await prepareDashboard(logger(), { build }), changed).toBe(build.distDir);
      expect(builds(), changed).toBe(step + 2);
      touch(join(build.distDir, 'index.html'), 100 * (step + 1) + 50);
      expect(dashboardBuildIsStale(build), changed).toBe(false);
    }
    // Its tests, its own node_modules and its output are not what it is built from.
    mkdirSync(join(build.root, 'test'));
    writeFileSync(join(build.root, 'test', 'x.test.ts'), '');
    touch(join(build.root, 'test', 'x.test.ts'), 1_000);
    writeFileSync(join(build.root, 'node_modules', 'x.js'), '');
    touch(join(build.root, 'node_modules', 'x.js'), 1_000);
    touch(join(build.distDir, 'assets', 'index-Ab12.js'), 1_000);
    expect(dashboardBuildIsStale(build)).toBe(false);
  });

  it('answers undefined, with a warning that carries the build output, when the build fails', async () => {
    writeFileSync(join(build.root, 'build.ts'), FAILING_BUILD);
    expect(await prepareDashboard(logger(), { build })).toBeUndefined();
    const warning = logLines.map((line) => JSON.parse(line)).find((line) => line.level === 40);
    expect(warning?.msg).toMatch(/the dashboard could not be built .*: starting without it, \/ui answers 404/);
    expect(warning?.output).toContain('could not resolve "./missing.tsx"');
  });

  it('answers undefined when the build wrote no index.html', async () => {
    writeFileSync(join(build.root, 'build.ts'), 'export {};\n');
    expect(await prepareDashboard(logger(), { build })).toBeUndefined();
    expect(logLines.join('')).toContain('the build wrote no index.html');
  });

  it('builds once when launchers start together: the others wait for the lock, then find the build fresh', async () => {
    const answers = await Promise.all([
      prepareDashboard(logger(), { build }),
      prepareDashboard(logger(), { build }),
      prepareDashboard(logger(), { build }),
    ]);
    expect(answers).toEqual([build.distDir, build.distDir, build.distDir]);
    expect(builds()).toBe(1);
    expect(existsSync(`${build.distDir}.lock`), 'the lock is given back').toBe(false);
  });

  it("takes over a dead launcher's lock once it is older than the build's timeout", async () => {
    mkdirSync(`${build.distDir}.lock`);
    touch(`${build.distDir}.lock`, -3_600);
    expect(await prepareDashboard(logger(), { build })).toBe(build.distDir);
    expect(builds()).toBe(1);
  });

  it('answers undefined when stopped during the build', async () => {
    writeFileSync(join(build.root, 'build.ts'), 'setTimeout(() => {}, 60_000);\n');
    const stop = new AbortController();
    const prepared = prepareDashboard(logger(), { build, signal: stop.signal });
    setTimeout(() => stop.abort(), 100);
    expect(await prepared).toBeUndefined();
  });
});
