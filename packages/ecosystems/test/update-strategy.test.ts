import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bundler,
  cargo,
  composer,
  type Ecosystem,
  hex,
  installedVersion,
  npmAndYarn,
  nuget,
  pip,
  type VersioningStrategy,
} from '../src/index.ts';
import { checkedUpdate } from './update-check.ts';

type Files = Record<string, string>;

/** The requirement `updateManifest` writes for `name` by `strategy` (checked by `checkedUpdate`), or `unchanged` / `cannot`. */
function moved(ecosystem: Ecosystem, files: Files, name: string, target: string, strategy: VersioningStrategy): string {
  const result = checkedUpdate(ecosystem, files, name, target, strategy);
  if ('files' in result) return result.requirement ?? '';
  return 'unchanged' in result ? 'unchanged' : `cannot: ${result.cannot}`;
}

/**
 * One ecosystem's manifests: an application's and a library's (as its `isLibrary` tells them apart), each declaring
 * `dep` with `requirement`.
 */
interface Manifests {
  ecosystem: Ecosystem;
  application(requirement: string): Files;
  library(requirement: string): Files;
}

const npm: Manifests = {
  ecosystem: npmAndYarn,
  application: (r) => ({
    'package.json': `{\n  "name": "web",\n  "version": "1.0.0",\n  "private": true,\n  "dependencies": { "dep": "${r}" }\n}\n`,
  }),
  library: (r) => ({ 'package.json': `{\n  "name": "lib",\n  "version": "1.0.0",\n  "dependencies": { "dep": "${r}" }\n}\n` }),
};

const python: Manifests = {
  ecosystem: pip,
  application: (r) => ({ 'requirements.txt': `requests==2.31.0\ndep${r}\n` }),
  library: (r) => ({
    'requirements.txt': `requests==2.31.0\ndep${r}\n`,
    'pyproject.toml': '[project]\nname = "lib"\nversion = "1.0.0"\ndependencies = []\n',
  }),
};

const poetry: Manifests = {
  ecosystem: pip,
  application: (r) => ({
    'pyproject.toml': `[tool.poetry]\npackage-mode = false\n\n[tool.poetry.dependencies]\npython = "^3.9"\ndep = "${r}"\n`,
  }),
  library: (r) => ({
    'pyproject.toml': `[tool.poetry]\nname = "lib"\nversion = "0.1.0"\n\n[tool.poetry.dependencies]\npython = "^3.9"\ndep = "${r}"\n`,
  }),
};

const gems: Manifests = {
  ecosystem: bundler,
  application: (r) => ({ Gemfile: `source "https://rubygems.org"\n\ngem "rails", "~> 7.1"\ngem "dep", ${r}\n` }),
  library: (r) => ({ Gemfile: `source "https://rubygems.org"\n\ngemspec\n\ngem "dep", ${r}\n` }),
};

const crates: Manifests = {
  ecosystem: cargo,
  application: (r) => ({
    'Cargo.toml': `[package]\nname = "app"\nversion = "0.1.0"\n\n[dependencies]\ndep = "${r}"\n`,
    'Cargo.lock': 'version = 3\n\n[[package]]\nname = "app"\nversion = "0.1.0"\n',
  }),
  library: (r) => ({ 'Cargo.toml': `[package]\nname = "lib"\nversion = "0.1.0"\n\n[dependencies]\ndep = "${r}"\n` }),
};

const php: Manifests = {
  ecosystem: composer,
  application: (r) => ({ 'composer.json': `{\n  "name": "acme/app",\n  "type": "project",\n  "require": { "acme/dep": "${r}" }\n}\n` }),
  library: (r) => ({ 'composer.json': `{\n  "name": "acme/lib",\n  "type": "library",\n  "require": { "acme/dep": "${r}" }\n}\n` }),
};

const mix = (requirement: string, package_: boolean) =>
  `defmodule App.MixProject do\n  use Mix.Project\n\n  def project do\n    [app: :app, version: "0.1.0", ${package_ ? 'package: package(), ' : ''}deps: deps()]\n  end\n\n  # package: [] in a comment does not count\n  defp deps do\n    [{:dep, "${requirement}"}]\n  end\nend\n`;
const elixir: Manifests = {
  ecosystem: hex,
  application: (r) => ({ 'mix.exs': mix(r, false) }),
  library: (r) => ({ 'mix.exs': mix(r, true) }),
};

/**
 * Per ecosystem: the requirement, the target it excludes, what `increase` (an application under `auto`) and `widen` (a
 * library under `auto`) write, a version the old requirement allowed that the widened one must still allow, and a
 * version it allows (an update no strategy writes the manifest for).
 */
const CASES: readonly [string, Manifests, string, string, string, string, string, string][] = [
  ['npm caret', npm, '^1.2.3', '2.0.1', '^2.0.1', '^1.2.3 || ^2.0.1', '1.2.3', '1.9.0'],
  ['npm range', npm, '>=1.2.0 <2.0.0', '2.0.1', '>=2.0.1 <3.0.0', '>=1.2.0 <3.0.0', '1.9.0', '1.9.0'],
  ['npm alternatives', npm, '^1.0 || ^2.0', '3.0.1', '^3.0', '^1.0 || ^2.0 || ^3.0', '2.5.0', '2.9.9'],
  ['npm tilde', npm, '~1.2.3', '1.4.0', '~1.4.0', '~1.2.3 || ~1.4.0', '1.2.9', '1.2.4'],
  ['pip range (the Django case)', python, '>=2.2,<3.0', '4.2.16', '>=4.2.16,<5.0', '>=2.2,<5.0', '2.2.28', '2.2.28'],
  ['pip compatible release', python, '~=2.2', '4.2.16', '~=4.2', '>=2.2,<5.0', '2.9', '2.9.1'],
  ['pip compatible release, patch precision', python, '~=2.2.0', '2.4.1', '~=2.4.1', '>=2.2.0,<2.5.0', '2.2.7', '2.2.9'],
  ['pip prefix match', python, '==2.2.*', '4.2.16', '==4.2.*', '>=2.2,<4.3', '2.2.28', '2.2.28'],
  ['pip pin', python, '==2.2.28', '4.2.16', '==4.2.16', '==4.2.16', '4.2.16', '2.2.28'],
  ['Poetry caret', poetry, '^7.1', '8.1.8', '^8.1', '>=7.1,<9.0', '7.1.2', '7.1.2'],
  ['Poetry range', poetry, '>=7.1,<8.0', '8.1.8', '>=8.1.8,<9.0', '>=7.1,<9.0', '7.1.2', '7.9.0'],
  ['Bundler range', gems, '">= 0.18", "< 2.0"', '2.1.0', '>= 2.1.0, < 3.0', '>= 0.18, < 3.0', '1.2.3', '1.2.3'],
  [
    'Bundler pessimistic (widened as increase: one literal holds one clause)',
    gems,
    '"~> 6.0"',
    '7.1.0',
    '~> 7.1',
    '~> 7.1',
    '7.1.0',
    '6.1.7',
  ],
  ['Cargo caret', crates, '1.2', '2.0.1', '2.0', '>=1.2, <3.0', '1.9.0', '1.9.0'],
  ['Cargo caret below 1.0', crates, '0.7', '0.9.2', '0.9', '>=0.7, <0.10', '0.7.3', '0.7.9'],
  ['Cargo tilde', crates, '~1.2.3', '1.5.0', '~1.5.0', '>=1.2.3, <1.6.0', '1.2.8', '1.2.8'],
  ['Composer caret', php, '^2.0', '3.7.0', '^3.7', '^2.0 || ^3.7', '2.9.1', '2.9.1'],
  ['Composer range', php, '>=2.0 <3.0', '3.7.0', '>=3.7.0 <4.0', '>=2.0 <4.0', '2.9.1', '2.9.1'],
  ['Hex pessimistic', elixir, '~> 1.4', '2.1.0', '~> 2.1', '~> 1.4 or ~> 2.1', '1.9.0', '1.9.0'],
  ['Hex range', elixir, '>= 1.0.0 and < 2.0.0', '2.1.0', '>= 2.1.0 and < 3.0.0', '>= 1.0.0 and < 3.0.0', '1.5.0', '1.5.0'],
];

const nameIn = (m: Manifests) => (m.ecosystem === composer ? 'acme/dep' : 'dep');

describe('updateManifest by strategy: increase an application, widen a library (Dependabot Preview `auto`)', () => {
  it.each(CASES)('%s: %s', (_, m, requirement, target, increased, widened, old, inRange) => {
    const name = nameIn(m);
    const app = m.application(requirement);
    const lib = m.library(requirement);
    expect(m.ecosystem.isLibrary?.(app)).toBe(false);
    expect(m.ecosystem.isLibrary?.(lib)).toBe(true);
    expect(moved(m.ecosystem, app, name, target, 'increase')).toBe(increased);
    expect(moved(m.ecosystem, app, name, target, 'auto')).toBe(increased);
    expect(moved(m.ecosystem, lib, name, target, 'widen')).toBe(widened);
    expect(moved(m.ecosystem, lib, name, target, 'auto')).toBe(widened);
    // The strategy is the files' kind, not the ecosystem's: an application widened on request, a library increased.
    expect(moved(m.ecosystem, app, name, target, 'widen')).toBe(widened);
    expect(moved(m.ecosystem, lib, name, target, 'increase')).toBe(increased);
    // A widened requirement still allows what the old one did (where a form exists for it).
    if (widened !== increased) expect(m.ecosystem.versions.satisfies(old, widened), `${widened} allows ${old}`).toBe(true);
    // A requirement that allows the update stays, whatever the strategy: the lockfile moves, the manifest does not.
    for (const strategy of ['auto', 'increase', 'widen', 'increase-if-necessary'] as const) {
      expect(moved(m.ecosystem, app, name, inRange, strategy), `${strategy} ${inRange}`).toBe('unchanged');
      expect(moved(m.ecosystem, lib, name, inRange, strategy), `${strategy} ${inRange}`).toBe('unchanged');
    }
  });

  it('edits only the requirement, keeps the old behaviour without a strategy, and still refuses a bound that excludes the target', () => {
    const files = { 'requirements.txt': '# pinned\r\nrequests==2.31.0\r\nDjango >= 2.2, < 3.0  # LTS\r\n' };
    const use = pip.findDependency(files, 'django');
    if (!use) throw new Error('django not found');
    expect(pip.updateManifest(files, use, '4.2.16', undefined, 'increase')).toEqual({
      files: { 'requirements.txt': '# pinned\r\nrequests==2.31.0\r\nDjango >= 4.2.16, < 5.0  # LTS\r\n' },
      requirement: '>= 4.2.16, < 5.0',
    });
    expect(pip.updateManifest(files, use, '4.2.16', undefined, 'widen')).toMatchObject({ requirement: '>= 2.2, < 5.0' });
    // Without a strategy, increase if necessary: only the clauses that exclude the target move.
    expect(pip.updateManifest(files, use, '4.2.16')).toMatchObject({ requirement: '>= 2.2, < 5.0' });
    expect(pip.updateManifest(python.library('~=2.2'), { ...use, name: 'dep', requirement: '~=2.2' }, '4.2.16')).toMatchObject({
      requirement: '~=4.2',
    });
    for (const strategy of ['increase', 'widen'] as const) {
      expect(moved(pip, python.library('>=2.2,!=4.2.16,<5'), 'dep', '4.2.16', strategy)).toMatch(/^cannot: .*exclusion/);
      expect(moved(npmAndYarn, npm.library('>=3.0.0 <4.0.0'), 'dep', '2.0.1', strategy)).toMatch(/^cannot: .*lower bound/);
    }
  });
});

type Triple = [number, number, number];

/**
 * Requirement forms per ecosystem, each allowing the version it is written from, and the manifest declaring `dep` (or
 * `acme/dep`) with one.
 */
const FORMS: readonly [string, Manifests, readonly ((v: Triple) => string)[]][] = [
  [
    'npm_and_yarn',
    npm,
    [
      ([a, b, c]) => `^${a}.${b}.${c}`,
      ([a, b, c]) => `~${a}.${b}.${c}`,
      ([a, b]) => `^${a}.${b}`,
      ([a]) => `${a}.x`,
      ([a, b, c]) => `>=${a}.${b}.${c} <${a + 1}.0.0`,
      ([a, b, c]) => `^${a}.${b}.${c} || ^${a + 1}.0.0`,
    ],
  ],
  [
    'pip',
    python,
    [([a, b]) => `~=${a}.${b}`, ([a, b, c]) => `~=${a}.${b}.${c}`, ([a, b]) => `==${a}.${b}.*`, ([a, b]) => `>=${a}.${b},<${a + 1}.0`],
  ],
  ['Poetry', poetry, [([a, b]) => `^${a}.${b}`, ([a, b, c]) => `~${a}.${b}.${c}`, ([a, b]) => `>=${a}.${b},<${a + 1}.0`]],
  ['bundler', gems, [([a, b]) => `"~> ${a}.${b}"`, ([a, b, c]) => `"~> ${a}.${b}.${c}"`, ([a, b]) => `">= ${a}.${b}", "< ${a + 1}.0"`]],
  [
    'cargo',
    crates,
    [([a, b, c]) => `${a}.${b}.${c}`, ([a, b]) => `${a}.${b}`, ([a, b, c]) => `~${a}.${b}.${c}`, ([a, b]) => `>=${a}.${b}, <${a + 1}`],
  ],
  ['composer', php, [([a, b]) => `^${a}.${b}`, ([a, b]) => `~${a}.${b}`, ([a, b]) => `${a}.${b}.*`, ([a, b]) => `>=${a}.${b} <${a + 1}.0`]],
  ['hex', elixir, [([a, b]) => `~> ${a}.${b}`, ([a, b, c]) => `~> ${a}.${b}.${c}`, ([a, b, c]) => `>= ${a}.${b}.${c} and < ${a + 1}.0.0`]],
];

describe('strategy properties over generated requirements', () => {
  it.each(FORMS)(
    '%s: increase and widen always admit a newer target; increase raises past the version the requirement was written from, widen keeps it',
    (_, m, forms) => {
      const triple = fc.tuple(fc.integer({ min: 1, max: 30 }), fc.nat(30), fc.nat(30));
      const sample = triple.chain((v) =>
        fc.record({
          v: fc.constant(v),
          requirement: fc.constantFrom(...forms).map((form) => form(v)),
          target: fc
            .tuple(fc.constantFrom('patch', 'minor', 'major'), fc.integer({ min: 1, max: 5 }))
            .map(([kind, n]) =>
              kind === 'patch' ? `${v[0]}.${v[1]}.${v[2] + n}` : kind === 'minor' ? `${v[0]}.${v[1] + n}.0` : `${v[0] + n}.0.0`,
            ),
        }),
      );
      fc.assert(
        fc.property(sample, ({ v, requirement, target }) => {
          const name = nameIn(m);
          const increased = moved(m.ecosystem, m.application(requirement), name, target, 'auto');
          const widened = moved(m.ecosystem, m.library(requirement), name, target, 'auto');
          expect(increased, `${requirement} for ${target}`).not.toMatch(/^cannot/);
          expect(widened, `${requirement} for ${target}`).not.toMatch(/^cannot/);
          // An application's requirement is raised to the target: the version it was written from is no longer allowed.
          if (increased !== 'unchanged') expect(m.ecosystem.versions.satisfies(v.join('.'), increased), `${increased} raised`).toBe(false);
          if (widened !== 'unchanged' && !(m === gems && widened.startsWith('~>'))) {
            expect(m.ecosystem.versions.satisfies(v.join('.'), widened), `${widened} keeps ${v.join('.')}`).toBe(true);
          }
        }),
        { numRuns: 100 },
      );
    },
  );
});

describe('isLibrary: a manifest that declares a package to publish', () => {
  const npmJson = (body: object) => ({ 'package.json': JSON.stringify(body) });
  it('npm: a name and a version, not private, not a template', () => {
    expect(npmAndYarn.isLibrary?.(npmJson({ name: 'lib', version: '1.0.0' }))).toBe(true);
    expect(npmAndYarn.isLibrary?.(npmJson({ name: 'lib', version: '1.0.0', private: true }))).toBe(false);
    expect(npmAndYarn.isLibrary?.(npmJson({ name: 'lib' }))).toBe(false);
    expect(npmAndYarn.isLibrary?.(npmJson({ version: '1.0.0' }))).toBe(false);
    expect(npmAndYarn.isLibrary?.(npmJson({ name: '{{name}}', version: '1.0.0' }))).toBe(false);
    expect(npmAndYarn.isLibrary?.({})).toBe(false);
  });

  it('pip: PEP 621 or Poetry package metadata, unless the project says it is no package', () => {
    const pyproject = (text: string) => ({ 'pyproject.toml': text });
    expect(pip.isLibrary?.(pyproject('[project]\nname = "lib"\ndynamic = ["version"]\n'))).toBe(true);
    expect(pip.isLibrary?.(pyproject('[tool.poetry]\nname = "lib"\nversion = "1.0"\n'))).toBe(true);
    expect(pip.isLibrary?.(pyproject('[tool.poetry]\nname = "app"\nversion = "1.0"\npackage-mode = false\n'))).toBe(false);
    expect(pip.isLibrary?.(pyproject('[project]\nname = "app"\nversion = "1.0"\n\n[tool.uv]\npackage = false\n'))).toBe(false);
    expect(pip.isLibrary?.(pyproject('[tool.black]\nline-length = 100\n'))).toBe(false);
    expect(pip.isLibrary?.({ 'requirements.txt': 'requests==2.31.0\n' })).toBe(false);
  });

  it('bundler: a Gemfile that calls gemspec, or a gemspec among the files', () => {
    expect(bundler.isLibrary?.({ Gemfile: 'source "https://rubygems.org"\ngemspec path: "."\n' })).toBe(true);
    expect(bundler.isLibrary?.({ Gemfile: 'gem "rails"\n', 'lib.gemspec': 'Gem::Specification.new' })).toBe(true);
    expect(bundler.isLibrary?.({ Gemfile: '# gemspec\ngem "rails"\n' })).toBe(false);
  });

  it('cargo: a publishable [package] without Cargo.lock', () => {
    const toml = (text: string) => ({ 'Cargo.toml': text });
    expect(cargo.isLibrary?.(toml('[package]\nname = "lib"\nversion = "0.1.0"\n'))).toBe(true);
    expect(cargo.isLibrary?.(toml('[package]\nname = "lib"\nversion = "0.1.0"\npublish = ["my-registry"]\n'))).toBe(true);
    expect(cargo.isLibrary?.(toml('[package]\nname = "app"\nversion = "0.1.0"\npublish = false\n'))).toBe(false);
    expect(cargo.isLibrary?.(toml('[package]\nname = "app"\nversion = "0.1.0"\npublish = []\n'))).toBe(false);
    expect(cargo.isLibrary?.(toml('[workspace]\nmembers = ["a"]\n'))).toBe(false);
    expect(cargo.isLibrary?.({ ...toml('[package]\nname = "app"\nversion = "0.1.0"\n'), 'Cargo.lock': 'version = 3\n' })).toBe(false);
  });

  it('composer: "type": "library" written out', () => {
    expect(composer.isLibrary?.({ 'composer.json': '{"type": "library"}' })).toBe(true);
    expect(composer.isLibrary?.({ 'composer.json': '{"type": "project"}' })).toBe(false);
    expect(composer.isLibrary?.({ 'composer.json': '{"name": "acme/app"}' })).toBe(false);
  });

  it('hex: a package: keyword in mix.exs, not in a comment or a string', () => {
    expect(hex.isLibrary?.({ 'mix.exs': mix('~> 1.0', true) })).toBe(true);
    expect(hex.isLibrary?.({ 'mix.exs': mix('~> 1.0', false) })).toBe(false);
    expect(hex.isLibrary?.({ 'mix.exs': mix('~> 1.0', false).replace('# package', '@doc "package: x"\n  # package') })).toBe(false);
  });
});

describe('installedVersion: what a requirement resolves to without a lockfile', () => {
  const django = ['2.2.13', '2.2.28', '3.0.7', '3.2.25', '4.2.16', '5.1a1'];
  it('is the highest version the requirement allows, pre-releases only when it asks for them', () => {
    expect(installedVersion(pip, '>=2.2,<3.0', django)).toBe('2.2.28');
    expect(installedVersion(pip, '>=4.2', django)).toBe('4.2.16');
    expect(installedVersion(pip, '>=5.1a1', django)).toBe('5.1a1');
    expect(installedVersion(npmAndYarn, '^4.17.0', ['4.16.6', '4.17.15', '4.17.21', '4.18.0-beta.1', '5.0.0'])).toBe('4.17.21');
    expect(installedVersion(cargo, '1.0.110', ['1.0.110', '1.0.203', '2.0.0'])).toBe('1.0.203');
    expect(installedVersion(bundler, '~> 6.0.3', ['6.0.3.2', '6.0.6', '6.1.0', '7.0.0.rc1'])).toBe('6.0.6');
    expect(installedVersion(composer, '^2.0', ['v2.0.2', 'v2.9.1', '3.7.0'])).toBe('v2.9.1');
    expect(installedVersion(hex, '~> 1.4', ['1.4.0', '1.16.1', '2.0.0'])).toBe('1.16.1');
  });

  it('is null when no version is allowed or the requirement cannot be read', () => {
    expect(installedVersion(pip, '>=2.2,<2.2.5', django)).toBeNull();
    expect(installedVersion(pip, '<<2', django)).toBeNull();
    expect(installedVersion(pip, '>=2.2', [])).toBeNull();
  });

  it("follows NuGet's lowest applicable version, and the highest for a floating one", () => {
    const versions = ['1.0.0', '1.2.0', '1.9.1', '2.0.0'];
    expect(installedVersion(nuget, '[1.1,2.0)', versions)).toBe('1.2.0');
    expect(installedVersion(nuget, '1.*', versions)).toBe('1.9.1');
  });
});
