import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const flagsModule = fileURLToPath(new URL('../src/v8-flags.ts', import.meta.url));

/**
 * The young generation's size (MiB) in a fresh Node.js process before and after it allocated and dropped some
 * hundreds of MiB of small objects, having imported the launcher's flags module first when `withFlags`. A process of
 * its own, so that the flags reach no test beside this one.
 */
function youngGenerationMiB(withFlags: boolean): { before: number; after: number } {
  const script = `
    ${withFlags ? `await import(${JSON.stringify(flagsModule)});` : ''}
    const { getHeapSpaceStatistics } = await import('node:v8');
    const young = () => getHeapSpaceStatistics().find((space) => space.space_name === 'new_space').space_size / 2 ** 20;
    const before = young();
    let kept = [];
    for (let i = 0; i < 3_000_000; i++) {
      kept.push({ i, text: 'x' + i });
      if (kept.length > 200_000) kept = [];
    }
    process.stdout.write(JSON.stringify({ before, after: young() }));
  `;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }));
}

describe("the launcher's V8 flags", () => {
  it('take effect when set from inside the running process: the young generation stays small under load', () => {
    // Without them it grows (to 128 MiB on a machine with memory to spare); with them it stays at a few MiB.
    const without = youngGenerationMiB(false);
    const withFlags = youngGenerationMiB(true);
    expect(without.after).toBeGreaterThan(without.before);
    expect(withFlags.after).toBeLessThanOrEqual(16);
    expect(withFlags.after).toBeLessThan(without.after);
  });
});
