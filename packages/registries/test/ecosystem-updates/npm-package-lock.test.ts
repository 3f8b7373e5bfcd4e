import { readdir } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { ManifestParseError, npmAndYarn, RegistryError } from '@switchyard/ecosystems';
import { expect, describe as group, it } from 'vitest';
import { CORPUS_PRESENT, corpusDirectories } from '../../../ecosystems/test/corpus.ts';
import { describe, emulatorForTests, lockEntry, PRIVATE_TOKEN, privateTmpdir, requestFor } from './npm-emulator.ts';

const manifest = (dependencies: Record<string, string>, indent = 2) =>
  `${JSON.stringify({ name: 'app', version: '1.0.0', dependencies }, null, indent)}\n`;

/** A lockfile v3 as npm writes it, with the given `packages` besides the root entry. */
function packageLock(dependencies: Record<string, string>, packages: Record<string, unknown>, indent = 2): string {
  const root = { name: 'app', version: '1.0.0', dependencies };
  const lock = { name: 'app', version: '1.0.0', lockfileVersion: 3, requires: true, packages: { '': root, ...packages } };
  return `${JSON.stringify(lock, null, indent)}\n`;
}

// Leftover temporary directories are counted in a TMPDIR of this file's own (other files update lockfiles meanwhile).
privateTmpdir();
const tempDirectories = async () => (await readdir(tmpdir())).filter((name) => name.startsWith('npm-lockfile-')).sort();

group('npm lockfile update with arborist against the registry emulator', () => {
  const emulator = emulatorForTests();

  it('package-lock v3: a direct dependency without dependencies moves to the target; the other entries keep their text', async () => {
    const base = emulator.publicUrl();
    const files = {
      'package.json': manifest({ alpha: '^1.0.0', gamma: '~1.0.0' }),
      'package-lock.json': packageLock(
        { alpha: '^1.0.0', gamma: '~1.0.0' },
        { 'node_modules/alpha': lockEntry(base, 'alpha', '1.0.0'), 'node_modules/gamma': lockEntry(base, 'gamma', '1.0.0') },
      ),
    };
    const registries = [{ url: base }];
    const target = await describe(registries[0] as { url: string }, 'alpha', '1.1.0');
    const before = await tempDirectories();
    const result = await npmAndYarn.updateLockfiles?.(requestFor(files, 'alpha', target, registries));
    expect(await tempDirectories()).toEqual(before);
    if (!result || !('files' in result)) throw new Error(`expected files, got ${JSON.stringify(result)}`);
    const text = result.files['package-lock.json'] ?? '';
    expect(Object.keys(result.files)).toEqual(['package-lock.json']);
    // `^1.0.0` allows 1.1.0: the manifest stays, and so does the root entry's range
    expect(text).toBe(
      packageLock(
        { alpha: '^1.0.0', gamma: '~1.0.0' },
        { 'node_modules/alpha': lockEntry(base, 'alpha', '1.1.0'), 'node_modules/gamma': lockEntry(base, 'gamma', '1.0.0') },
      ),
    );
  });

  it('a target that adds a dependency: arborist resolves it (the highest match) and adds its entry', async () => {
    const base = emulator.publicUrl();
    const files = {
      'package.json': manifest({ beta: '^1.0.0' }),
      'package-lock.json': packageLock({ beta: '^1.0.0' }, { 'node_modules/beta': lockEntry(base, 'beta', '1.0.0') }),
    };
    const registries = [{ url: base }];
    const target = await describe(registries[0] as { url: string }, 'beta', '2.0.0');
    expect(target.dependencies).toEqual([{ name: 'gamma', requirement: '^1.1.0', kind: 'runtime' }]);
    const result = await npmAndYarn.updateLockfiles?.(requestFor(files, 'beta', target, registries));
    if (!result || !('files' in result)) throw new Error(`expected files, got ${JSON.stringify(result)}`);
    expect(JSON.parse(result.files['package-lock.json'] ?? '')).toEqual(
      JSON.parse(
        packageLock(
          { beta: '^2.0.0' },
          {
            'node_modules/beta': lockEntry(base, 'beta', '2.0.0', { dependencies: { gamma: '^1.1.0' } }),
            'node_modules/gamma': lockEntry(base, 'gamma', '1.2.0'),
          },
        ),
      ),
    );
  });

  it('keeps an existing locked dependency that satisfies the target, and the indentation (package.json’s, as npm writes it)', async () => {
    const base = emulator.publicUrl();
    const packages = {
      'node_modules/alpha': lockEntry(base, 'alpha', '1.0.0'),
      'node_modules/delta': lockEntry(base, 'delta', '1.0.0'),
      'node_modules/gamma': lockEntry(base, 'gamma', '1.0.0'),
    };
    const files = {
      'package.json': manifest({ alpha: '1.0.0', delta: '^1.0.0', gamma: '1.0.0' }, 4),
      'package-lock.json': packageLock({ alpha: '1.0.0', delta: '^1.0.0', gamma: '1.0.0' }, packages, 4),
    };
    const registries = [{ url: base }];
    const target = await describe(registries[0] as { url: string }, 'delta', '2.0.0');
    const result = await npmAndYarn.updateLockfiles?.(requestFor(files, 'delta', target, registries));
    if (!result || !('files' in result)) throw new Error(`expected files, got ${JSON.stringify(result)}`);
    expect(result.files['package-lock.json']).toBe(
      packageLock(
        { alpha: '1.0.0', delta: '^2.0.0', gamma: '1.0.0' },
        { ...packages, 'node_modules/delta': lockEntry(base, 'delta', '2.0.0', { dependencies: { alpha: '^1.0.0', gamma: '^1.0.0' } }) },
        4,
      ),
    );
  });

  it('npm-shrinkwrap.json v2 stays v2 (both `packages` and the v1 `dependencies` updated); a v1 lockfile becomes v3', async () => {
    const base = emulator.publicUrl();
    const registries = [{ url: base }];
    const target = await describe({ url: base }, 'alpha', '1.2.0');
    const legacy = (version: string) => {
      const { resolved, integrity } = lockEntry(base, 'alpha', version);
      return { version, resolved, integrity };
    };
    const v2 = {
      name: 'app',
      version: '1.0.0',
      lockfileVersion: 2,
      requires: true,
      packages: {
        '': { name: 'app', version: '1.0.0', dependencies: { alpha: '~1.0.0' } },
        'node_modules/alpha': lockEntry(base, 'alpha', '1.0.0'),
      },
      dependencies: { alpha: legacy('1.0.0') },
    };
    const shrinkwrap = { 'package.json': manifest({ alpha: '~1.0.0' }), 'npm-shrinkwrap.json': `${JSON.stringify(v2, null, 2)}\n` };
    const updated = await npmAndYarn.updateLockfiles?.(requestFor(shrinkwrap, 'alpha', target, registries));
    if (!updated || !('files' in updated)) throw new Error(`expected files, got ${JSON.stringify(updated)}`);
    expect(Object.keys(updated.files)).toEqual(['npm-shrinkwrap.json']);
    expect(JSON.parse(updated.files['npm-shrinkwrap.json'] ?? '')).toEqual({
      ...v2,
      packages: {
        '': { name: 'app', version: '1.0.0', dependencies: { alpha: '~1.2.0' } },
        'node_modules/alpha': lockEntry(base, 'alpha', '1.2.0'),
      },
      dependencies: { alpha: legacy('1.2.0') },
    });

    const v1 = { name: 'app', version: '1.0.0', lockfileVersion: 1, requires: true, dependencies: { alpha: legacy('1.0.0') } };
    const old = { 'package.json': manifest({ alpha: '~1.0.0' }), 'package-lock.json': `${JSON.stringify(v1, null, 2)}\n` };
    const converted = await npmAndYarn.updateLockfiles?.(requestFor(old, 'alpha', target, registries));
    if (!converted || !('files' in converted)) throw new Error(`expected files, got ${JSON.stringify(converted)}`);
    expect(JSON.parse(converted.files['package-lock.json'] ?? '')).toEqual({
      name: 'app',
      version: '1.0.0',
      lockfileVersion: 3,
      requires: true,
      packages: {
        '': { name: 'app', version: '1.0.0', dependencies: { alpha: '~1.2.0' } },
        'node_modules/alpha': lockEntry(base, 'alpha', '1.2.0'),
      },
    });
  });

  it('already at the target: no file', async () => {
    const base = emulator.publicUrl();
    const files = {
      'package.json': manifest({ alpha: '^1.1.0' }),
      'package-lock.json': packageLock({ alpha: '^1.1.0' }, { 'node_modules/alpha': lockEntry(base, 'alpha', '1.1.0') }),
    };
    const registries = [{ url: base }];
    const target = await describe(registries[0] as { url: string }, 'alpha', '1.1.0');
    expect(await npmAndYarn.updateLockfiles?.(requestFor(files, 'alpha', target, registries))).toEqual({ files: {} });
  });

  it('private registry with a token: the scoped target and its lockfile entry from it, the token sent to it only', async () => {
    const seen: { path: string; authorization: string | undefined }[] = [];
    // A recording proxy in front of the emulator: what the resolver sent where.
    const proxy = createServer(async (req, res) => {
      seen.push({ path: req.url ?? '', authorization: req.headers.authorization });
      const answer = await fetch(`${emulator.url()}${req.url}`, {
        headers: Object.fromEntries(
          Object.entries(req.headers).filter(([k, value]) => typeof value === 'string' && !['host', 'connection'].includes(k)),
        ) as Record<string, string>,
      });
      const body = Buffer.from(await answer.arrayBuffer());
      res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
      res.end(body.toString('utf8').replaceAll(emulator.url(), `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`));
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const root = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
      const registries = [{ url: `${root}/private/npm/`, credentials: { token: PRIVATE_TOKEN } }, { url: `${root}/npm/` }];
      const files = {
        'package.json': manifest({ '@acme/widget': '^1.0.0', alpha: '^1.0.0' }),
        'package-lock.json': packageLock(
          { '@acme/widget': '^1.0.0', alpha: '^1.0.0' },
          {
            'node_modules/@acme/widget': lockEntry(`${root}/private/npm/`, '@acme/widget', '1.0.0'),
            'node_modules/alpha': lockEntry(`${root}/npm/`, 'alpha', '1.0.0'),
          },
        ),
      };
      const target = await describe(registries[0] as { url: string }, '@acme/widget', '1.1.0');
      seen.length = 0;
      const result = await npmAndYarn.updateLockfiles?.(requestFor(files, '@acme/widget', target, registries));
      if (!result || !('files' in result)) throw new Error(`expected files, got ${JSON.stringify(result)}`);
      const lock = JSON.parse(result.files['package-lock.json'] ?? '');
      expect(lock.packages['node_modules/@acme/widget']).toEqual(
        lockEntry(`${root}/private/npm/`, '@acme/widget', '1.1.0', { dependencies: { alpha: '^1.0.0' } }),
      );
      expect(lock.packages['node_modules/alpha']).toEqual(lockEntry(`${root}/npm/`, 'alpha', '1.0.0'));
      expect(seen.length).toBeGreaterThan(0);
      for (const request of seen) {
        if (request.path.startsWith('/private/npm/')) expect(request.authorization, request.path).toBe(`Bearer ${PRIVATE_TOKEN}`);
        else expect(request.authorization, request.path).toBeUndefined();
      }
      expect(seen.some((r) => r.path.startsWith('/private/npm/@acme'))).toBe(true);
    } finally {
      await new Promise((resolve) => proxy.close(resolve));
    }
  });

  it('refused credentials are RegistryError auth_failed', async () => {
    const registries = [{ url: emulator.privateUrl(), credentials: { token: 'wrong' } }, { url: emulator.publicUrl() }];
    const target = await describe({ url: emulator.privateUrl(), credentials: { token: PRIVATE_TOKEN } }, '@acme/widget', '1.1.0');
    const files = {
      'package.json': manifest({ '@acme/widget': '^1.0.0' }),
      'package-lock.json': packageLock(
        { '@acme/widget': '^1.0.0' },
        { 'node_modules/@acme/widget': lockEntry(emulator.privateUrl(), '@acme/widget', '1.0.0') },
      ),
    };
    const error = await npmAndYarn.updateLockfiles?.(requestFor(files, '@acme/widget', target, registries)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RegistryError);
    expect((error as RegistryError).kind).toBe('auth_failed');
  });

  it('a user and password go as npm’s username/_password; an Authorization npm cannot send needs resolution', async () => {
    const target = await describe({ url: emulator.privateUrl(), credentials: { token: PRIVATE_TOKEN } }, '@acme/widget', '1.1.0');
    const files = {
      'package.json': manifest({ '@acme/widget': '^1.0.0', alpha: '^1.0.0' }),
      'package-lock.json': packageLock(
        { '@acme/widget': '^1.0.0', alpha: '^1.0.0' },
        {
          'node_modules/@acme/widget': lockEntry(emulator.privateUrl(), '@acme/widget', '1.0.0'),
          'node_modules/alpha': lockEntry(emulator.publicUrl(), 'alpha', '1.0.0'),
        },
      ),
    };
    const withUser = [
      { url: emulator.privateUrl(), credentials: { username: 'ci', password: PRIVATE_TOKEN } },
      { url: emulator.publicUrl() },
    ];
    const result = await npmAndYarn.updateLockfiles?.(requestFor(files, '@acme/widget', target, withUser));
    if (!result || !('files' in result)) throw new Error(`expected files, got ${JSON.stringify(result)}`);
    expect(JSON.parse(result.files['package-lock.json'] ?? '').packages['node_modules/@acme/widget'].version).toBe('1.1.0');
    const custom = [
      { url: emulator.privateUrl(), credentials: { authorization: `Token ${PRIVATE_TOKEN}` } },
      { url: emulator.publicUrl() },
    ];
    const refused = await npmAndYarn.updateLockfiles?.(requestFor(files, '@acme/widget', target, custom));
    expect(refused && 'needsResolution' in refused && refused.needsResolution).toMatch(/Authorization scheme npm cannot send/);
  });

  it('an unreachable registry is RegistryError unreachable, and the temporary directory is gone', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const base = emulator.publicUrl();
    const target = await describe({ url: base }, 'alpha', '1.1.0');
    const files = {
      'package.json': manifest({ alpha: '^1.0.0' }),
      'package-lock.json': packageLock({ alpha: '^1.0.0' }, { 'node_modules/alpha': lockEntry(base, 'alpha', '1.0.0') }),
    };
    const before = await tempDirectories();
    const error = await npmAndYarn
      .updateLockfiles?.(requestFor(files, 'alpha', target, [{ url: `http://127.0.0.1:${port}/npm/` }]))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RegistryError);
    expect((error as RegistryError).kind).toBe('unreachable');
    expect(await tempDirectories()).toEqual(before);
  }, 60_000);

  it('a lockfile that does not parse is ManifestParseError; a target the registry lacks needs resolution', async () => {
    const base = emulator.publicUrl();
    const target = await describe({ url: base }, 'alpha', '1.1.0');
    const files = {
      'package.json': manifest({ alpha: '^1.0.0' }),
      'package-lock.json': packageLock({ alpha: '^1.0.0' }, { 'node_modules/alpha': lockEntry(base, 'alpha', '1.0.0') }),
    };
    const request = requestFor(files, 'alpha', target, [{ url: base }]);
    const broken = { ...request, files: { ...files, 'package-lock.json': '{ "lockfileVersion": 3, ' } };
    await expect(npmAndYarn.updateLockfiles?.(broken)).rejects.toBeInstanceOf(ManifestParseError);
    const missing = requestFor(files, 'alpha', { ...target, version: '1.9.0' }, [{ url: base }]);
    const result = await npmAndYarn.updateLockfiles?.(missing);
    expect(result && 'needsResolution' in result && result.needsResolution).toMatch(/^package-lock\.json: .*alpha/);
  });

  it.runIf(CORPUS_PRESENT)(
    'a corpus-sized package-lock.json (mocha, v3): only the diff entry changes',
    async () => {
      const mocha = corpusDirectories(npmAndYarn).find((d) => d.label === 'mochajs/mocha/.');
      if (!mocha) throw new Error('mocha is not in the corpus');
      const files = { 'package.json': mocha.files['package.json'] ?? '', 'package-lock.json': mocha.files['package-lock.json'] ?? '' };
      const base = emulator.publicUrl();
      const target = await describe({ url: base }, 'diff', '9.0.1');
      const started = performance.now();
      const result = await npmAndYarn.updateLockfiles?.(requestFor(files, 'diff', target, [{ url: base }]));
      const elapsed = performance.now() - started;
      process.stdout.write(`package-lock update of mocha (${files['package-lock.json'].length} bytes): ${elapsed.toFixed(0)} ms\n`);
      if (!result || !('files' in result)) throw new Error(`expected files, got ${JSON.stringify(result)}`);
      const before = JSON.parse(files['package-lock.json']);
      const after = JSON.parse(result.files['package-lock.json'] ?? '');
      // the emulator's version documents carry no `engines`: the new entry has none
      expect(after.packages['node_modules/diff']).toEqual(lockEntry(base, 'diff', '9.0.1'));
      expect(after.packages[''].dependencies.diff).toBe('^9.0.0');
      const changed = Object.keys(after.packages).filter(
        (key) => JSON.stringify(after.packages[key]) !== JSON.stringify(before.packages[key]),
      );
      expect(changed).toEqual(['node_modules/diff']);
      // byte for byte, the rest of the file is as it was
      const withoutDiff = (text: string) => text.replace(/\n {4}"node_modules\/diff": \{\n[\s\S]*?\n {4}\}/, '');
      expect(withoutDiff(result.files['package-lock.json'] ?? '')).toBe(withoutDiff(files['package-lock.json']));
      expect(Object.keys(after.packages).length).toBe(Object.keys(before.packages).length);
    },
    60_000,
  );
});
