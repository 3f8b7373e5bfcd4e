import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The launcher's `SECRETS_KEY` when none is set: 32 random bytes (base64) kept in `<dataDir>/secrets.key`, made on the
 * first start with mode 0600, so registry credentials sealed in the embedded database still open after a restart. With
 * `memory://` as `dataDir` (the database kept in memory) the key is kept in memory too: a fresh one each start, nothing
 * written. A deployment sets its own `SECRETS_KEY` (see config-svc's README).
 * @returns the key, as `SECRETS_KEY` takes it
 * @throws the file system's errors (an unwritable `dataDir`)
 */
export function demoSecretsKey(dataDir: string): string {
  if (dataDir === 'memory://') return randomBytes(32).toString('base64');
  const path = join(dataDir, 'secrets.key');
  if (existsSync(path)) return readFileSync(path, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32).toString('base64');
  writeFileSync(path, `${key}\n`, { mode: 0o600, flag: 'wx' });
  return key;
}
