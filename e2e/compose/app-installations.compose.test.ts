import { describe } from 'vitest';
import { appInstallationSteps } from '../support/app-installations.ts';
import { gatewayUrl, stackSetting } from './stack.ts';

/** The GitHub emulator of the stack (`code-host`, published on loopback). */
const codeHostUrl = `http://127.0.0.1:${stackSetting('CODE_HOST_PORT', '8090')}`;
/**
 * The emulator's installation-token life in this stack (`CODE_HOST_INSTALLATION_TOKEN_TTL_MS`, GitHub's hour by
 * default): when the stack shortens it to at most a minute, the tokens are shown made again across an expiry too.
 */
const ttlMs = Number(stackSetting('CODE_HOST_INSTALLATION_TOKEN_TTL_MS', '3600000'));

/**
 * The GitHub App's installations drive the repos' `installation-state` and their runs in the compose stack, whose
 * release workers act as the emulator's demo App (GITHUB_APP_ID=4242): through the gateway, with the `code-host`
 * container's App test hooks (`appInstallationSteps`).
 */
describe('App installations drive the repos’ installation-state and their runs (compose)', { timeout: 300_000 }, () => {
  appInstallationSteps(() => ({ gateway: gatewayUrl, codeHost: codeHostUrl }), ttlMs <= 60_000 ? { tokenTtlMs: ttlMs } : {});
});
