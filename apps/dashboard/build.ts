import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';
import { dashboardDistDir } from './dist-dir.ts';

/**
 * `pnpm --filter @switchyard/dashboard build` (and the launcher, when `dist/` is older than the sources): builds the dashboard into `dist/`
 * with Vite, then prints its size as a browser downloads it (every file gzipped) and fails when that passes
 * {@link BUDGET_BYTES}.
 */
const BUDGET_BYTES = 250 * 1024;

await build({ root: import.meta.dirname, logLevel: process.env.DASHBOARD_BUILD_QUIET ? 'warn' : 'info' });

const files = [
  join(dashboardDistDir, 'index.html'),
  ...readdirSync(join(dashboardDistDir, 'assets')).map((name) => join(dashboardDistDir, 'assets', name)),
];
let raw = 0;
let gzipped = 0;
for (const file of files) {
  const bytes = readFileSync(file);
  raw += bytes.length;
  gzipped += gzipSync(bytes, { level: 9 }).length;
}
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
process.stdout.write(`dashboard bundle: ${files.length} files, ${kb(raw)}, ${kb(gzipped)} gzipped (budget ${kb(BUDGET_BYTES)} gzipped)\n`);
if (gzipped > BUDGET_BYTES) {
  process.stderr.write(`the dashboard bundle is over its budget: ${kb(gzipped)} gzipped > ${kb(BUDGET_BYTES)}\n`);
  process.exitCode = 1;
}
