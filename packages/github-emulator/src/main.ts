import { createLogger, runService } from '@switchyard/service-kit';
import { startGitHubEmulator } from './app.ts';
import { loadEmulatorConfig } from './config.ts';
import { DEMO_SEED_PATH, loadSeedFile } from './seed.ts';

await runService('github-emulator', async () => {
  const config = loadEmulatorConfig();
  const logger = createLogger('github-emulator', config.LOG_LEVEL);
  const seedPath = config.CODE_HOST_SEED ?? DEMO_SEED_PATH;
  const seed = loadSeedFile(seedPath);
  const running = await startGitHubEmulator({ seed, logger, htmlBaseUrl: config.CODE_HOST_HTML_URL, port: config.PORT, host: config.HOST });
  logger.info(
    { url: running.url, seed: seedPath, users: seed.users.map((u) => u.login), repos: seed.repos.length },
    'GitHub emulator listening',
  );
  return { logger, service: running };
});
