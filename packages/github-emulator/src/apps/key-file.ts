import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { ParsedSeed } from '../seed.ts';
import type { EmulatedApp } from '../seed-apps.ts';

/**
 * The App whose private key the emulator hands out: the App `slug` of the seed when given, else the first App with a
 * `privateKey`. @throws Error when there is none (or that App has no private key)
 */
export function appWithPrivateKey(seed: ParsedSeed, slug?: string): EmulatedApp & { privateKey: string } {
  const found = seed.apps.find((app) => (slug === undefined ? app.privateKey !== undefined : app.slug === slug));
  if (found?.privateKey === undefined) {
    throw new Error(slug === undefined ? 'no App of the seed has a privateKey' : `the seed has no App ${slug} with a privateKey`);
  }
  return found as EmulatedApp & { privateKey: string };
}

/**
 * Writes the private key (PEM) of the seed's App (see {@link appWithPrivateKey}) to `path`, readable by its owner only
 * (mode 0600), making its folder when missing, so that a client can sign the App's JWTs (a demo key: never a real
 * App's).
 * @returns the App whose key was written
 * @throws Error when the seed has no such App; the file system's errors
 */
export async function writeAppPrivateKeyFile(seed: ParsedSeed, path: string, slug?: string): Promise<EmulatedApp> {
  const app = appWithPrivateKey(seed, slug);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, app.privateKey.endsWith('\n') ? app.privateKey : `${app.privateKey}\n`, { mode: 0o600 });
  await chmod(path, 0o600);
  return app;
}
