import { ProcessStack } from '@switchyard/service-kit/testing';
import { afterAll, beforeAll, describe } from 'vitest';
import { appInstallationSteps } from './support/app-installations.ts';
import { LAUNCHER_READY_MS, type LauncherUrls, startLauncherWithEmulators } from './support/launcher.ts';

/** The emulator's installation tokens live this long here, so that the worker makes them again within the file. */
const TOKEN_TTL_MS = 8_000;

/**
 * The GitHub App's installations drive the repos' `installation-state` and their runs, through the gateway of the
 * one-process launcher, whose worker acts as the emulator's demo App (`appInstallationSteps`); its tokens expire every
 * 8 s here.
 */
describe('App installations drive the repos’ installation-state and their runs (launcher)', { timeout: 240_000 }, () => {
  const processes = new ProcessStack();
  let urls: LauncherUrls;

  beforeAll(async () => {
    urls = await startLauncherWithEmulators(processes, {
      SCHEDULER_INTERVAL_MS: '1000',
      CODE_HOST_INSTALLATION_TOKEN_TTL_MS: String(TOKEN_TTL_MS),
    });
  }, LAUNCHER_READY_MS + 10_000);
  afterAll(() => processes.disposeAsync(), 60_000);

  appInstallationSteps(() => urls, { tokenTtlMs: TOKEN_TTL_MS });
});
