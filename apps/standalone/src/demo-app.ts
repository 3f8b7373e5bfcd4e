import { join } from 'node:path';
import { appWithPrivateKey, type ParsedSeed, writeAppPrivateKeyFile } from '@switchyard/github-emulator';

/**
 * The worker's App-mode settings for the GitHub emulator's demo App (`switchyard`, id 4242): `GITHUB_APP_ID`, and
 * `GITHUB_APP_PRIVATE_KEY` naming `<codeHostDir>/app-private-key.pem` (written 0600 on each start), or the PEM itself
 * when the emulator keeps its state in memory (no folder). `CODE_HOST_TOKEN` is emptied: the worker acts as the App.
 * @throws Error when the seed has no App with a key; the file system's errors
 */
export async function demoAppAuth(seed: ParsedSeed, codeHostDir: string | undefined): Promise<Record<string, string>> {
  const app = appWithPrivateKey(seed);
  if (codeHostDir === undefined) return { GITHUB_APP_ID: String(app.id), GITHUB_APP_PRIVATE_KEY: app.privateKey, CODE_HOST_TOKEN: '' };
  const path = join(codeHostDir, 'app-private-key.pem');
  await writeAppPrivateKeyFile(seed, path);
  return { GITHUB_APP_ID: String(app.id), GITHUB_APP_PRIVATE_KEY: path, CODE_HOST_TOKEN: '' };
}
