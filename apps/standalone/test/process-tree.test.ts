import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processTreeMemory } from '../src/process-tree.ts';

const MiB = 2 ** 20;

/**
 * A real tree of three generations: this process starts `parent`, which starts `grandchild`, which fills a 64 MiB
 * buffer (resident, since it was written) and then waits. `parent` writes the grandchild's pid once it holds that buffer.
 */
const GRANDCHILD = `
  const held = Buffer.alloc(64 * 2 ** 20, 1);
  process.stdout.write('ready');
  setInterval(() => held.length, 60_000);
`;
const PARENT = `
  const { spawn } = require('node:child_process');
  const grandchild = spawn(process.execPath, ['-e', ${JSON.stringify(GRANDCHILD)}], { stdio: ['ignore', 'pipe', 'inherit'] });
  grandchild.stdout.once('data', () => process.stdout.write(String(grandchild.pid)));
  process.on('SIGTERM', () => { grandchild.kill('SIGKILL'); process.exit(0); });
  setInterval(() => {}, 60_000);
`;

describe.runIf(process.platform === 'linux')("processTreeMemory, on this machine's /proc", () => {
  let parent: ChildProcess;
  let parentPid: number;
  let grandchildPid: number;

  beforeAll(async () => {
    parent = spawn(process.execPath, ['-e', PARENT], { stdio: ['ignore', 'pipe', 'inherit'] });
    parentPid = parent.pid as number;
    const [chunk] = (await once(parent.stdout as NodeJS.ReadableStream, 'data')) as [Buffer];
    grandchildPid = Number(chunk.toString());
  });

  afterAll(async () => {
    if (parent.exitCode !== null || parent.signalCode !== null) return;
    const exited = once(parent, 'exit');
    parent.kill('SIGTERM');
    await exited;
  });

  for (const via of ['children', 'scan'] as const) {
    it(`counts a process and every process below it, each with its own VmRSS (children found via ${via})`, () => {
      const tree = processTreeMemory(parentPid, { via });
      expect(tree?.processes.map(({ pid }) => pid)).toEqual([parentPid, grandchildPid]);
      const [parentMemory, grandchildMemory] = tree?.processes ?? [];
      expect(parentMemory?.residentBytes).toBeGreaterThan(0);
      // The 64 MiB buffer the grandchild wrote is resident, and counted.
      expect(grandchildMemory?.residentBytes).toBeGreaterThanOrEqual(64 * MiB);
      expect(tree?.residentBytes).toBe((parentMemory?.residentBytes ?? 0) + (grandchildMemory?.residentBytes ?? 0));
    });
  }

  it("defaults to this process's own tree, which holds the processes it started", () => {
    const tree = processTreeMemory();
    const pids = tree?.processes.map(({ pid }) => pid) ?? [];
    expect(pids[0]).toBe(process.pid);
    expect(pids).toContain(parentPid);
    expect(pids).toContain(grandchildPid);
    expect(pids.indexOf(grandchildPid)).toBeGreaterThan(pids.indexOf(parentPid));
    expect(tree?.residentBytes).toBeGreaterThanOrEqual(64 * MiB);
  });

  it('answers undefined for a process that is not there', async () => {
    const gone = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
    const pid = gone.pid as number;
    await once(gone, 'exit');
    expect(processTreeMemory(pid)).toBeUndefined();
  });
});

describe('processTreeMemory, where it cannot know', () => {
  it('answers undefined for a pid that names no process (above the largest pid Linux gives, 2^22)', () => {
    expect(processTreeMemory(2 ** 22 + 1)).toBeUndefined();
  });

  it('answers undefined on a platform without /proc', () => {
    const platform = Object.getOwnPropertyDescriptor(process, 'platform') as PropertyDescriptor;
    Object.defineProperty(process, 'platform', { ...platform, value: 'darwin' });
    try {
      expect(processTreeMemory()).toBeUndefined();
    } finally {
      Object.defineProperty(process, 'platform', platform);
    }
    expect(processTreeMemory()?.residentBytes).toBeGreaterThan(0);
  });
});
