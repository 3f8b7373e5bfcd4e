import { createLogger, runService } from '@switchyard/service-kit';
import { startRegistryEmulator } from './app.ts';
import { loadRegistryEmulatorConfig } from './config.ts';
import { loadDemoSeed, loadSeedFile } from './seed.ts';

await runService('registry-emulator', async () => {
  const config = loadRegistryEmulatorConfig();
  const logger = createLogger('registry-emulator', config.LOG_LEVEL);
  const seedPath = config.REGISTRY_SEED ?? 'the demo seed';
  const seed = config.REGISTRY_SEED ? loadSeedFile(config.REGISTRY_SEED) : loadDemoSeed();
  const dataDir = config.DATA_DIR === 'memory://' ? undefined : config.DATA_DIR;
  const running = await startRegistryEmulator({ seed, logger, port: config.PORT, host: config.HOST, ...(dataDir ? { dataDir } : {}) });
  logger.info(
    {
      url: running.url,
      seed: seedPath,
      packages: seed.packages.length,
      private: seed.packages.filter((p) => p.private).length,
      state: dataDir ?? 'in memory',
    },
    'registry emulator listening',
  );
  return { logger, service: running };
});
