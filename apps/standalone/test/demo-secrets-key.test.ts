import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { demoSecretsKey } from '../src/demo-secrets-key.ts';

describe('demoSecretsKey', () => {
  const folders: string[] = [];
  afterEach(() => {
    for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  });

  it('makes a 32-byte key in <dataDir>/secrets.key (mode 0600) once, and reads the same key back', () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'secrets-key-')), 'data');
    folders.push(dataDir);
    const key = demoSecretsKey(dataDir);
    expect(Buffer.from(key, 'base64')).toHaveLength(32);
    expect(statSync(join(dataDir, 'secrets.key')).mode & 0o777).toBe(0o600);
    expect(demoSecretsKey(dataDir)).toBe(key);
  });

  it('keeps the key in memory with memory:// and writes nothing in the working directory', () => {
    const before = readdirSync('.');
    const key = demoSecretsKey('memory://');
    expect(Buffer.from(key, 'base64')).toHaveLength(32);
    expect(demoSecretsKey('memory://')).not.toBe(key);
    expect(readdirSync('.')).toEqual(before);
  });
});
