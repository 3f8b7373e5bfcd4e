import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readMixLock } from '../src/hex/mix-lock.ts';
import { hex, hexVersions, InvalidRequirementError, InvalidVersionError, ManifestParseError, parseHexRequirement } from '../src/index.ts';
import { fixture, sorted } from './fixtures.ts';

const files = fixture('hex');
const find = (name: string) => hex.findDependency(files, name);

describe('hex findDependency', () => {
  it('reads requirements with the mix.lock version', () => {
    expect(find('jason')).toEqual({ name: 'jason', type: 'runtime', requirement: '~> 1.4', version: '1.4.0', manifest: 'mix.exs' });
    expect(find('ecto_sql')).toMatchObject({ requirement: '>= 3.10.0 and < 3.12.0', version: '3.11.1' });
    expect(find('plug_cowboy')).toMatchObject({ requirement: '~> 2.5 or ~> 3.0', version: null });
  });
  it('resolves a module attribute requirement', () => {
    expect(find('phoenix')).toMatchObject({ requirement: '~> 1.7.10', version: '1.7.10' });
  });
  it('finds a dependency by its Hex package name (hex: :name), not its app', () => {
    expect(find('poison')).toMatchObject({ name: 'poison', requirement: '~> 2.0', version: '2.2.0' });
    expect(find('json_lib')).toBeUndefined();
  });
  it('makes only: without :prod development, across lines', () => {
    expect(find('ex_doc')).toMatchObject({ type: 'development', requirement: '~> 0.30', version: '0.31.0' });
    expect(find('mox')).toMatchObject({ type: 'development' });
    expect(find('floki')).toMatchObject({ type: 'development' });
    expect(find('sentry')).toMatchObject({ type: 'runtime' });
    expect(find('telemetry')).toMatchObject({ type: 'runtime', requirement: '1.2.1', version: '1.2.1' });
  });
  it('skips comments, heredocs and sigils, and gives git/path dependencies no requirement', () => {
    expect(find('commented_out')).toBeUndefined();
    expect(find('not_a_dep')).toBeUndefined();
    expect(find('my_fork')).toMatchObject({ requirement: null, version: null });
  });
  it('lists Hex dependencies once each, in file order, without git and path ones', () => {
    const list = hex.listDependencies(files);
    expect(list.map((use) => use.name)).toEqual([
      'phoenix',
      'jason',
      'plug_cowboy',
      'ecto_sql',
      'postgrex',
      'telemetry',
      'acme_client',
      'poison',
      'ex_doc',
      'mox',
      'credo',
      'sentry',
      'floki',
    ]);
    for (const use of list) expect(hex.findDependency(files, use.name)).toEqual(use);
  });
  it('reads deps given inline in project/0 and with `defp deps, do:`', () => {
    const inline = { 'mix.exs': 'defmodule A.MixProject do\n  def project, do: [app: :a, deps: [{:jason, "~> 1.0"}]]\nend\n' };
    expect(hex.findDependency(inline, 'jason')).toMatchObject({ requirement: '~> 1.0' });
    const short = { 'mix.exs': 'defmodule A do\n  defp deps, do: [{:plug, ">= 1.0.0", only: [:prod]}]\nend\n' };
    expect(hex.listDependencies(short)).toEqual([
      { name: 'plug', type: 'runtime', requirement: '>= 1.0.0', version: null, manifest: 'mix.exs' },
    ]);
    expect(hex.listDependencies({ 'mix.exs': 'defmodule A do\nend\n' })).toEqual([]);
  });
  it('reports malformed files with their name', () => {
    for (const text of ['defp deps do\n  [{:a, "1.0.0"}\nend\n', 'defp deps do\n  [{:a, "1.0.0}]\nend\n', 'x = """\nopen']) {
      expect(() => hex.listDependencies({ 'mix.exs': text }), text).toThrow(ManifestParseError);
    }
    expect(() => hex.findDependency({ ...files, 'mix.lock': '%{\n  "a": {:hex, :a, "1.0.0"},\n}\n' }, 'jason')).toThrow(
      /^mix\.lock: line 2/,
    );
    expect(() => hex.findDependency({ ...files, 'mix.lock': '[]' }, 'jason')).toThrow(ManifestParseError);
  });
  it('reads older mix.lock layouts without the repository or the outer checksum', () => {
    const old = '%{\n  "a": {:hex, :a, "1.0.0", "abc", [:mix], []},\n  "b": {:hex, :b, "2.0.0", "def", [:rebar3], [], "hexpm"},\n}\n';
    expect(readMixLock('mix.lock', old).map((e) => [e.name, e.version, e.repo, e.outerSpan])).toEqual([
      ['a', '1.0.0', 'hexpm', null],
      ['b', '2.0.0', 'hexpm', null],
    ]);
  });
  it('reads mix.lock entries and their dependency lists, skipping git entries', () => {
    const entries = readMixLock('mix.lock', files['mix.lock'] ?? '');
    expect(entries.map((e) => e.name)).toEqual(['cowboy', 'ecto_sql', 'ex_doc', 'jason', 'phoenix', 'poison', 'telemetry']);
    expect(entries.find((e) => e.name === 'jason')?.dependencyItems).toEqual([
      { app: 'decimal', name: 'decimal', requirement: '~> 1.0 or ~> 2.0', optional: true },
    ]);
  });
});

describe('hex version scheme', () => {
  const v = hexVersions;
  it('orders SemVer versions', () => {
    expect(sorted(['1.10.0', '1.2.0', '1.2.0-rc.1', '0.9.9', '1.2.0-beta'], v.compare)).toEqual([
      '0.9.9',
      '1.2.0-beta',
      '1.2.0-rc.1',
      '1.2.0',
      '1.10.0',
    ]);
    expect(v.isValid('1.4.0')).toBe(true);
    expect(v.isValid('1.4')).toBe(false);
    expect(v.isValid('v1.4.0')).toBe(false);
    expect(() => v.compare('1.4', '1.4.0')).toThrow(InvalidVersionError);
  });
  it.each([
    ['~> 1.2', '1.9.0', true],
    ['~> 1.2', '2.0.0', false],
    ['~> 1.2', '1.1.0', false],
    ['~> 1.2.3', '1.2.9', true],
    ['~> 1.2.3', '1.3.0', false],
    ['>= 1.0.0 and < 2.0.0', '1.5.0', true],
    ['>= 1.0.0 and < 2.0.0', '2.0.0', false],
    ['~> 1.0 or ~> 2.0', '2.3.0', true],
    ['~> 1.0 or ~> 2.0', '3.0.0', false],
    ['1.2.3', '1.2.3', true],
    ['== 1.2.3', '1.2.4', false],
    ['!= 1.2.3', '1.2.4', true],
    ['> 1.0.0', '1.0.0', false],
    ['<= 1.0.0', '1.0.0', true],
    ['~> 2.0', '2.1.0-rc.0', false],
    ['~> 2.1-rc.0', '2.1.0-rc.1', true],
    ['>= 0.0.0', '1.0.0-dev', false],
  ])("'%s' allows %s: %s", (requirement, version, expected) => {
    expect(v.satisfies(version, requirement)).toBe(expected);
  });
  it('rejects what is not a requirement', () => {
    for (const requirement of ['', '^1.0', '~1.2', '>= 1', '1.0 || 2.0', '>= 1.0.0, < 2.0.0', 'and 1.0.0']) {
      expect(() => v.satisfies('1.0.0', requirement), requirement).toThrow(InvalidRequirementError);
    }
  });
  it('gives lower bounds, pre-release intent, positions and kinds', () => {
    expect(v.lowestAllowed?.('~> 1.4')).toBe('1.4.0');
    expect(v.lowestAllowed?.('~> 2.5 or ~> 3.0')).toBe('2.5.0');
    expect(v.lowestAllowed?.('< 2.0.0')).toBeNull();
    expect(v.allowsPrereleases?.('~> 2.0-rc')).toBe(true);
    expect(v.allowsPrereleases?.('~> 2.0')).toBe(false);
    expect(v.updateKind('1.4.0', '1.4.1')).toBe('patch');
    expect(v.release?.('1.4.1')).toEqual([1, 4, 1]);
    expect(parseHexRequirement('~> 1.0 or >= 2.0.0 and < 3.0.0').map((a) => a.map((c) => `${c.operator}${c.written}`))).toEqual([
      ['~>1.0'],
      ['>=2.0.0', '<3.0.0'],
    ]);
  });
});

describe('hex demo directory', () => {
  it('reads the GitHub emulator demo files and finds the end-to-end dependency', () => {
    const seed = JSON.parse(readFileSync(new URL('../../github-emulator/src/demo-seeds/hex.json', import.meta.url), 'utf8')) as {
      files: Record<string, Record<string, string>>;
    };
    const demo = Object.fromEntries(
      Object.entries(seed.files['acme/polyglot'] ?? {})
        .filter(([path]) => path.startsWith('hex/'))
        .map(([path, text]) => [path.slice('hex/'.length), text]),
    );
    expect(hex.findDependency(demo, 'jason')).toEqual({
      name: 'jason',
      type: 'runtime',
      requirement: '~> 1.4',
      version: '1.4.0',
      manifest: 'mix.exs',
    });
    expect(hex.listDependencies(demo).map((use) => [use.name, use.type, use.version])).toEqual([
      ['jason', 'runtime', '1.4.0'],
      ['telemetry', 'runtime', '1.2.1'],
      ['ex_doc', 'development', '0.31.0'],
    ]);
  });
});
