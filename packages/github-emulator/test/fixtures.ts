import type { Listening } from '@switchyard/service-kit';
import { pino } from 'pino';
import { type EmulatorFault, generateRepos, loadDemoSeed, type SeedInput, startGitHubEmulator } from '../src/emulator/index.ts';

export const ALICE = 'demo-token-alice';
export const BOB = 'demo-token-bob';

export const auth = (token: string) => ({ authorization: `token ${token}` });

/** A file bigger than GitHub's 1 MB inline limit. */
export const LARGE_FILE = `${'x'.repeat(1_100_000)}\nend\n`;

/**
 * The demo seed plus what the tests need on top: org `bigco` (alice a member with read) with 250 repos, org `hugeco`
 * (alice admin) with 5,000, and alice's repo `big-files` holding a file over 1 MB.
 */
export function testSeed(): SeedInput {
  const demo = loadDemoSeed();
  return {
    ...demo,
    organizations: [
      ...demo.organizations,
      { id: 2101, login: 'bigco', members: [{ login: 'alice', role: 'member' }], defaultRepoPermission: 'read' },
      { id: 2102, login: 'hugeco', members: [{ login: 'alice', role: 'admin' }], defaultRepoPermission: 'none' },
    ],
    repos: [
      ...demo.repos,
      ...generateRepos('bigco', 250, 100_000),
      ...generateRepos('hugeco', 5_000, 200_000),
      {
        id: 3999,
        owner: 'alice',
        name: 'big-files',
        private: true,
        fork: false,
        defaultBranch: 'main',
        language: null,
        files: { main: { 'data/huge.txt': LARGE_FILE, 'with space/a b.txt': 'spaced\n' } },
      },
    ],
  };
}

export const silentLogger = pino({ level: 'silent' });

/** Starts the emulator on a loopback port with `seed` (default {@link testSeed}) and a fault queue the test can push to. */
export async function startEmulator(seed: SeedInput = testSeed()): Promise<{ server: Listening; faults: EmulatorFault[] }> {
  const faults: EmulatorFault[] = [];
  const server = await startGitHubEmulator({ seed, logger: silentLogger, faults });
  return { server, faults };
}
