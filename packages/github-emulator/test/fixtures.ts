import type { Listening } from '@switchyard/service-kit';
import { pino } from 'pino';
import { type EmulatorFault, type SeedInput, scaleTestSeed, startGitHubEmulator } from '../src/index.ts';

export { DEMO_TOKEN_ALICE as ALICE, DEMO_TOKEN_BOB as BOB } from '../src/index.ts';

export const auth = (token: string) => ({ authorization: `token ${token}` });

export const silentLogger = pino({ level: 'silent' });

/** Starts the emulator on a loopback port with `seed` (default `scaleTestSeed()`) and a fault queue the test can push to. */
export async function startEmulator(seed: SeedInput = scaleTestSeed()): Promise<{ server: Listening; faults: EmulatorFault[] }> {
  const faults: EmulatorFault[] = [];
  const server = await startGitHubEmulator({ seed, logger: silentLogger, faults });
  return { server, faults };
}
