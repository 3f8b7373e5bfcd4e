import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const LOGGER = new URL('../src/logger.ts', import.meta.url).pathname;

/** bufferedStdout: every line a process logs reaches standard output, in order, also when it exits right after. */
describe('bufferedStdout', () => {
  it('writes every line in order, the last ones when the process exits at once', () => {
    const script = `
      import { bufferedStdout, createLogger } from ${JSON.stringify(LOGGER)};
      const logger = createLogger('test', 'info', bufferedStdout());
      for (let i = 0; i < 2000; i++) logger.info({ i }, 'line');
      process.exit(0);
    `;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
    expect(child.status, child.stderr).toBe(0);
    const numbers = child.stdout
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { i: number }).i);
    expect(numbers).toEqual(Array.from({ length: 2000 }, (_, i) => i));
  });
});
