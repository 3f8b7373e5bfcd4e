import { join } from 'node:path';

/** The folders the launcher's emulators keep their state in; absent: that emulator keeps it in memory. */
export interface EmulatorStateDirs {
  /** The GitHub emulator's `dataDir`: `<DATA_DIR>/code-host`. */
  codeHost?: string;
  /** The package-registry emulator's `dataDir`: `<DATA_DIR>/registry`. */
  registry?: string;
}

/**
 * Where the two emulators keep what changes while they run (the GitHub emulator's pull requests, branches, commits…;
 * the registry emulator's published and yanked versions), beside the embedded database under the launcher's
 * `DATA_DIR`, so that a restart on the same folder finds the world the services' rows speak of, and a new folder starts
 * a new world. `memory://` (the database kept in memory) gives neither: both emulators start from their seeds each time
 * and write nothing.
 */
export function emulatorStateDirs(dataDir: string): EmulatorStateDirs {
  if (dataDir === 'memory://') return {};
  return { codeHost: join(dataDir, 'code-host'), registry: join(dataDir, 'registry') };
}
