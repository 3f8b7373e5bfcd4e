import { baseServiceEnv, envPort, parseConfig } from '@switchyard/service-kit';
import { z } from 'zod';

/** Environment of the standalone registry emulator (`main.ts`); every variable is optional. */
export const RegistryEmulatorEnv = z.object({
  ...baseServiceEnv,
  /** Port of the emulated registries. */
  PORT: envPort(8091),
  /** Path of a JSON seed file; the bundled demo seed when unset. */
  REGISTRY_SEED: z.string().min(1).optional(),
  /**
   * Folder where what the admin API publishes and yanks is saved, and loaded again at the next start; unset or
   * `memory://`: kept in memory only.
   */
  DATA_DIR: z.string().min(1).optional(),
});
/** The registry emulator's parsed configuration. */
export type RegistryEmulatorConfig = Readonly<z.output<typeof RegistryEmulatorEnv>>;

/**
 * Reads the registry emulator's configuration from `env`.
 * @throws ConfigError listing every invalid variable
 */
export function loadRegistryEmulatorConfig(env: Record<string, string | undefined> = process.env): RegistryEmulatorConfig {
  return parseConfig('registry-emulator', RegistryEmulatorEnv, env);
}
