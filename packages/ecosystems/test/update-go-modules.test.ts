import { describe, expect, it } from 'vitest';
import {
  type DependencyUse,
  goModules,
  InvalidVersionError,
  type LockfileRequest,
  type RegistryDependency,
  type RegistryVersionDetails,
} from '../src/index.ts';
import { fixture } from './fixtures.ts';

const files = fixture('go-modules');
const mod = files['go.mod'] ?? '';
const sum = files['go.sum'] ?? '';
const use = (f: Record<string, string>, name: string) => goModules.findDependency(f, name) as DependencyUse;

/** Updates go.mod for `name` and checks the result reads back at the target. */
function updated(f: Record<string, string>, name: string, target: string): string {
  const result = goModules.updateManifest(f, use(f, name), target);
  if (!('files' in result)) throw new Error(JSON.stringify(result));
  expect(result.requirement).toBeNull();
  const text = result.files['go.mod'] ?? '';
  expect(goModules.findDependency({ ...f, 'go.mod': text }, name)?.version).toBe(target);
  return text;
}

describe('go_modules updateManifest', () => {
  it.each([
    ['github.com/pkg/errors', 'v0.9.2', 'require github.com/pkg/errors v0.9.1', 'require github.com/pkg/errors v0.9.2'],
    ['github.com/google/uuid', 'v1.4.0', 'v1.3.0  // ids', 'v1.4.0  // ids'],
    ['github.com/google/uuid', 'v1.10.0', 'v1.3.0  // ids', 'v1.10.0 // ids'],
    ['github.com/google/uuid', 'v1.100.0', 'v1.3.0  // ids', 'v1.100.0 // ids'],
    ['example.com/mod/v2', 'v2.2.0', 'example.com/mod/v2           v2.1.0', 'example.com/mod/v2           v2.2.0'],
    ['github.com/Azure/go-autorest', 'v14.2.1+incompatible', 'v14.2.0+incompatible', 'v14.2.1+incompatible'],
    ['github.com/quoted/mod', 'v1.1.0', '"v1.0.0"', '"v1.1.0"'],
    ['github.com/acme/pseudo', 'v0.1.0', 'v0.0.0-20191109021931-daa7c04131f5', 'v0.1.0'],
    [
      'github.com/acme/pseudo',
      'v0.0.0-20240101000000-abcdefabcdef',
      'v0.0.0-20191109021931-daa7c04131f5',
      'v0.0.0-20240101000000-abcdefabcdef',
    ],
  ])('%s to %s replaces only the version', (name, target, before, after) => {
    expect(updated(files, name, target)).toBe(mod.replace(before, after));
  });
  it('keeps a comment column when the version grows or shrinks, and CRLF line endings', () => {
    const text = 'module x\r\n\r\nrequire (\r\n\ta.com/x    v1.2.3    // pinned\r\n\tb.com/y v1.10.0  // other\r\n)\r\n';
    const f = { 'go.mod': text };
    expect(updated(f, 'a.com/x', 'v1.10.0')).toBe(text.replace('v1.2.3    // pinned', 'v1.10.0   // pinned'));
    expect(updated(f, 'b.com/y', 'v1.11.0')).toBe(text.replace('v1.10.0  // other', 'v1.11.0  // other'));
    const single = { 'go.mod': 'module x\nrequire a.com/x v1.2.3 // keep me\n' };
    expect(updated(single, 'a.com/x', 'v1.22.3')).toBe('module x\nrequire a.com/x v1.22.3 // keep me\n');
  });
  it('edits every require of the module', () => {
    const f = { 'go.mod': 'module x\nrequire a.com/x v1.2.3\nrequire (\n\ta.com/x v1.2.3\n)\n' };
    expect(updated(f, 'a.com/x', 'v1.3.0')).toBe('module x\nrequire a.com/x v1.3.0\nrequire (\n\ta.com/x v1.3.0\n)\n');
  });
  it('is unchanged at the target and refuses what Go would not do', () => {
    expect(goModules.updateManifest(files, use(files, 'github.com/pkg/errors'), 'v0.9.1')).toEqual({
      unchanged: 'go.mod requires github.com/pkg/errors v0.9.1 already',
    });
    const cannot = (name: string, target: string, reason: string) =>
      expect(goModules.updateManifest(files, use(files, name), target)).toEqual({ cannot: expect.stringContaining(reason) });
    cannot('github.com/pkg/errors', 'v0.8.0', 'never lowered');
    cannot('github.com/pkg/errors', 'v2.0.0', 'another major version');
    cannot('github.com/pkg/errors', 'v2.0.0+incompatible', '+incompatible');
    cannot('example.com/mod/v2', 'v3.0.0', 'another major version');
    cannot('github.com/local/fork', 'v1.1.0', 'replaces github.com/local/fork v1.0.0 by the directory ../fork');
    cannot('github.com/old/lib', 'v1.2.0', 'by github.com/new/lib v1.2.0');
    const excluded = { 'go.mod': 'module x\nrequire a.com/x v1.2.3\nexclude a.com/x v1.3.0\n' };
    expect(goModules.updateManifest(excluded, use(excluded, 'a.com/x'), 'v1.3.0')).toEqual({ cannot: 'go.mod excludes a.com/x v1.3.0' });
    const indirect = { name: 'golang.org/x/sys', type: 'runtime', requirement: null, version: 'v0.15.0', manifest: 'go.mod' } as const;
    expect(goModules.updateManifest(files, indirect, 'v0.16.0')).toEqual({ cannot: expect.stringContaining('not a direct requirement') });
    expect(() => goModules.updateManifest(files, use(files, 'github.com/pkg/errors'), '0.9.2')).toThrow(InvalidVersionError);
  });
});

const H = (c: string) => `h1:${c.repeat(43)}=`;

/** The registry's description of `name` at `version`: h1 digests of its zip and go.mod, its go.mod's requires. */
function details(
  name: string,
  version: string,
  dependencies: [string, string][] | null = [],
  options: { zip?: string | null; mod?: string | null; go?: string } = {},
): RegistryVersionDetails {
  const artifact = (ext: string, value: string | null | undefined) => ({
    filename: `${version}.${ext}`,
    url: `https://proxy.golang.org/${name}/@v/${version}.${ext}`,
    digests: value ? [{ algorithm: 'h1' as const, value, encoding: 'prefixed' as const }] : [],
    ...(ext === 'mod' && options.go ? { attributes: { go: options.go } } : {}),
  });
  return {
    name,
    version,
    dependencies: dependencies?.map(([dep, requirement]): RegistryDependency => ({ name: dep, requirement, kind: 'runtime' })) ?? null,
    artifacts: [
      artifact('zip', options.zip === undefined ? H('Z') : options.zip),
      artifact('mod', options.mod === undefined ? H('M') : options.mod),
    ],
  };
}

/** The lockfile request of updating `name` to `target` in `f` (go.mod updated first). */
function lockRequest(f: Record<string, string>, name: string, target: RegistryVersionDetails): LockfileRequest {
  const manifest = goModules.updateManifest(f, use(f, name), target.version);
  const updatedFiles = 'files' in manifest ? { ...f, ...manifest.files } : f;
  return { files: f, updated: updatedFiles, use: use(f, name), target, registries: [{ url: 'https://proxy.golang.org/' }] };
}

describe('go_modules updateLockfiles (go.sum)', () => {
  const line = (name: string, version: string) => sum.split('\n').find((l) => l.startsWith(`${name} ${version} `)) ?? '';
  const modLine = (name: string, version: string) => sum.split('\n').find((l) => l.startsWith(`${name} ${version}/go.mod `)) ?? '';

  it("swaps both lines of the old version for the target's two, in place, as go mod tidy leaves go.sum", async () => {
    const result = await goModules.updateLockfiles?.(
      lockRequest(files, 'github.com/google/uuid', details('github.com/google/uuid', 'v1.4.0')),
    );
    const old = `${line('github.com/google/uuid', 'v1.3.0')}\n${modLine('github.com/google/uuid', 'v1.3.0')}`;
    expect(result).toEqual({
      files: { 'go.sum': sum.replace(old, `github.com/google/uuid v1.4.0 ${H('Z')}\ngithub.com/google/uuid v1.4.0/go.mod ${H('M')}`) },
    });
    const out = (result as { files: Record<string, string> }).files['go.sum'] ?? '';
    expect(out).not.toContain('github.com/google/uuid v1.3.0');
  });
  it("inserts the target lines where go mod tidy sorts them and keeps other versions' lines", async () => {
    const target = details('github.com/pkg/errors', 'v0.10.0', [['golang.org/x/text', 'v0.14.0']]);
    const result = await goModules.updateLockfiles?.(lockRequest(files, 'github.com/pkg/errors', target));
    const out = 'files' in (result ?? {}) ? ((result as { files: Record<string, string> }).files['go.sum'] ?? '') : '';
    const errors = out.split('\n').filter((l) => l.startsWith('github.com/pkg/errors '));
    expect(errors).toEqual([
      modLine('github.com/pkg/errors', 'v0.8.1'),
      `github.com/pkg/errors v0.10.0 ${H('Z')}`,
      `github.com/pkg/errors v0.10.0/go.mod ${H('M')}`,
    ]);
    expect(out.split('\n').length).toBe(sum.split('\n').length);
  });
  it('moves lines to their sorted place and keeps CRLF and a last line without a break', async () => {
    const text = `a.com/x v1.9.0 ${H('a')}\r\na.com/x v1.9.0/go.mod ${H('b')}\r\nb.com/y v1.0.0/go.mod ${H('c')}`;
    const f = { 'go.mod': 'module m\r\nrequire a.com/x v1.9.0\r\n', 'go.sum': text };
    const result = await goModules.updateLockfiles?.(lockRequest(f, 'a.com/x', details('a.com/x', 'v1.10.0')));
    expect(result).toEqual({
      files: {
        'go.sum': [`a.com/x v1.10.0 ${H('Z')}`, `a.com/x v1.10.0/go.mod ${H('M')}`, `b.com/y v1.0.0/go.mod ${H('c')}`].join('\r\n'),
      },
    });
    const last = { 'go.mod': 'module m\nrequire z.com/x v1.0.0\n', 'go.sum': `a.com/q v1.0.0/go.mod ${H('c')}` };
    const appended = await goModules.updateLockfiles?.(lockRequest(last, 'z.com/x', details('z.com/x', 'v1.1.0')));
    // the old version had no zip line (its packages were not built): only the go.mod line is written
    expect(appended).toEqual({ files: { 'go.sum': `a.com/q v1.0.0/go.mod ${H('c')}\nz.com/x v1.1.0/go.mod ${H('M')}` } });
  });
  it('needs resolution when go.sum or go.mod would have to change in ways only the go command decides', async () => {
    const needs = async (name: string, target: RegistryVersionDetails, reason: string) =>
      expect(await goModules.updateLockfiles?.(lockRequest(files, name, target))).toEqual({
        needsResolution: expect.stringContaining(reason),
      });
    await needs(
      'github.com/google/uuid',
      details('github.com/google/uuid', 'v1.4.0', [['golang.org/x/sys', 'v0.16.0']]),
      "above go.mod's v0.15.0",
    );
    await needs(
      'github.com/google/uuid',
      details('github.com/google/uuid', 'v1.4.0', [['github.com/new/dep', 'v1.0.0']]),
      'go.sum does not hold',
    );
    await needs('github.com/google/uuid', details('github.com/google/uuid', 'v1.4.0', [], { zip: null }), 'no h1 digests');
    await needs('github.com/google/uuid', details('github.com/google/uuid', 'v1.4.0', null), 'does not list the requirements');
    await needs('github.com/google/uuid', details('github.com/google/uuid', 'v1.4.0', [], { go: '1.22' }), 'the go line would move');
    const clash = { ...files, 'go.sum': `${sum}github.com/google/uuid v1.4.0/go.mod ${H('X')}\n` };
    expect(
      await goModules.updateLockfiles?.(lockRequest(clash, 'github.com/google/uuid', details('github.com/google/uuid', 'v1.4.0'))),
    ).toEqual({
      needsResolution: expect.stringContaining('checksum mismatch'),
    });
    expect(
      await goModules.updateLockfiles?.(
        lockRequest({ 'go.mod': mod }, 'github.com/google/uuid', details('github.com/google/uuid', 'v1.4.0')),
      ),
    ).toEqual({
      files: {},
    });
  });
});
