import { describe, expect, it } from 'vitest';
import { type DependencyUse, hex, type RegistryVersionDetails } from '../src/index.ts';
import { fixture } from './fixtures.ts';

const files = fixture('hex');
const mix = files['mix.exs'] ?? '';
const lock = files['mix.lock'] ?? '';
const use = (f: Record<string, string>, name: string) => hex.findDependency(f, name) as DependencyUse;

describe('hex updateManifest', () => {
  it.each([
    ['jason', '2.1.0', '{:jason, "~> 1.4"}', '{:jason, "~> 2.1"}', '~> 2.1'],
    ['plug_cowboy', '4.0.0', '"~> 2.5 or ~> 3.0"', '"~> 2.5 or ~> 3.0 or ~> 4.0"', '~> 2.5 or ~> 3.0 or ~> 4.0'],
    ['ecto_sql', '3.12.1', '< 3.12.0"', '< 3.13.0"', '>= 3.10.0 and < 3.13.0'],
    ['telemetry', '1.3.0', '{:telemetry, "1.2.1"', '{:telemetry, "1.3.0"', '1.3.0'],
    ['poison', '3.0.0', '{:json_lib, "~> 2.0"', '{:json_lib, "~> 3.0"', '~> 3.0'],
    ['ex_doc', '1.0.0', '{:ex_doc, "~> 0.30"', '{:ex_doc, "~> 1.0"', '~> 1.0'],
    ['phoenix', '1.8.0', '@phoenix_requirement "~> 1.7.10"', '@phoenix_requirement "~> 1.8.0"', '~> 1.8.0'],
  ])('%s to %s edits only the requirement string', (name, target, before, after, requirement) => {
    expect(hex.updateManifest(files, use(files, name), target)).toEqual({ files: { 'mix.exs': mix.replace(before, after) }, requirement });
  });
  it('leaves requirements that allow the target and dependencies without one', () => {
    expect(hex.updateManifest(files, use(files, 'jason'), '1.4.4')).toEqual({
      unchanged: expect.stringContaining("'~> 1.4' already allows 1.4.4"),
    });
    expect(hex.updateManifest(files, use(files, 'postgrex'), '0.18.0')).toHaveProperty('unchanged');
  });
  it('refuses git dependencies, lower bounds that exclude the target and unresolved attributes', () => {
    expect(hex.updateManifest(files, use(files, 'my_fork'), '2.0.0')).toEqual({ cannot: expect.stringContaining('git dependency') });
    const attr = { 'mix.exs': 'defmodule A do\n  defp deps do\n    [{:a, @missing}]\n  end\nend\n' };
    expect(hex.updateManifest(attr, use(attr, 'a'), '2.0.0')).toEqual({ cannot: expect.stringContaining('@missing') });
    const interpolated = { 'mix.exs': 'defmodule A do\n  defp deps do\n    [{:a, "~> #{@v}"}]\n  end\nend\n' };
    expect(hex.updateManifest(interpolated, use(interpolated, 'a'), '2.0.0')).toEqual({ cannot: expect.stringContaining('interpolation') });
  });
  it('keeps CRLF line endings and notes a shared attribute', () => {
    const text =
      'defmodule A do\r\n  @ecto "~> 3.10"\r\n  defp deps do\r\n    [\r\n      {:ecto, @ecto}, # core\r\n      {:ecto_sql, @ecto}\r\n    ]\r\n  end\r\nend\r\n';
    const crlf = { 'mix.exs': text };
    expect(hex.updateManifest(crlf, use(crlf, 'ecto'), '4.0.1')).toEqual({
      files: { 'mix.exs': text.replace('"~> 3.10"', '"~> 4.0"') },
      requirement: '~> 4.0',
      note: '@ecto is also the requirement of ecto_sql',
    });
  });
});

const target = (
  version: string,
  options: { inner?: string; dependencies?: RegistryVersionDetails['dependencies'] } = {},
): RegistryVersionDetails => ({
  name: 'jason',
  version,
  dependencies: options.dependencies === undefined ? [] : options.dependencies,
  artifacts: [
    {
      filename: `jason-${version}.tar`,
      url: `https://repo.hex.pm/tarballs/jason-${version}.tar`,
      digests: [{ algorithm: 'sha256', value: 'b'.repeat(64), encoding: 'hex' }],
      attributes:
        options.inner === undefined ? { inner_checksum: 'a'.repeat(64) } : options.inner === '' ? {} : { inner_checksum: options.inner },
    },
  ],
});

describe('hex updateLockfiles', () => {
  const lineOf = (text: string, name: string) => text.split('\n').find((line) => line.startsWith(`  "${name}":`));
  it('rewrites version, both checksums and a changed dependency list, nothing else', async () => {
    const decimal = { name: 'decimal', requirement: '~> 1.0 or ~> 2.0', kind: 'optional' as const };
    const result = await hex.updateLockfiles?.({
      files,
      updated: files,
      use: use(files, 'jason'),
      target: target('1.4.1', { dependencies: [decimal] }),
      registries: [],
    });
    const before = lineOf(lock, 'jason') ?? '';
    const after = before
      .replace('"1.4.0"', '"1.4.1"')
      .replace('e855647bc964a44e2f67df589ccf49105ae039d4179db7f6271dfd3843dc27e6', 'a'.repeat(64))
      .replace('79a3791085b2a0f743ca04cec0f7be26443738779d09302e01318f97bdb82121', 'b'.repeat(64));
    expect(result).toEqual({ files: { 'mix.lock': lock.replace(before, after) } });
    const telemetry = { name: 'telemetry', requirement: '~> 1.0', kind: 'runtime' as const };
    const changed = await hex.updateLockfiles?.({
      files,
      updated: files,
      use: use(files, 'jason'),
      target: target('1.5.0', { dependencies: [telemetry] }),
      registries: [],
    });
    expect(lineOf((changed as { files: Record<string, string> }).files['mix.lock'] ?? '', 'jason')).toContain(
      '[:mix], [{:telemetry, "~> 1.0", [hex: :telemetry, repo: "hexpm", optional: false]}], "hexpm",',
    );
  });
  it('asks for resolution without an inner checksum, or when a new dependency is not locked or not allowed', async () => {
    const request = (t: RegistryVersionDetails) => ({ files, updated: files, use: use(files, 'jason'), target: t, registries: [] });
    expect(await hex.updateLockfiles?.(request(target('1.4.1', { inner: '' })))).toEqual({
      needsResolution: expect.stringContaining('no inner checksum'),
    });
    expect(await hex.updateLockfiles?.(request(target('1.4.1', { dependencies: null })))).toHaveProperty('needsResolution');
    const missing = [{ name: 'nimble_parsec', requirement: '~> 1.0', kind: 'runtime' as const }];
    expect(await hex.updateLockfiles?.(request(target('1.4.1', { dependencies: missing })))).toEqual({
      needsResolution: "jason 1.4.1 requires nimble_parsec '~> 1.0' (not locked)",
    });
    const old = [{ name: 'telemetry', requirement: '~> 2.0', kind: 'runtime' as const }];
    expect(await hex.updateLockfiles?.(request(target('1.4.1', { dependencies: old })))).toEqual({
      needsResolution: "jason 1.4.1 requires telemetry '~> 2.0' (locked at 1.2.1)",
    });
  });
  it('keeps CRLF line endings', async () => {
    const crlf = { ...files, 'mix.lock': lock.replaceAll('\n', '\r\n') };
    const decimal = { name: 'decimal', requirement: '~> 1.0 or ~> 2.0', kind: 'optional' as const };
    const result = await hex.updateLockfiles?.({
      files: crlf,
      updated: crlf,
      use: use(crlf, 'jason'),
      target: target('1.4.1', { dependencies: [decimal] }),
      registries: [],
    });
    const text = (result as { files: Record<string, string> }).files['mix.lock'] ?? '';
    expect(text.split('\r\n')).toHaveLength(lock.split('\n').length);
    expect(hex.findDependency({ ...crlf, 'mix.lock': text }, 'jason')?.version).toBe('1.4.1');
  });
});
