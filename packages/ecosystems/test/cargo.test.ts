import { describe, expect, it } from 'vitest';
import { cargo, cargoToSemverRange, cargoVersions, InvalidRequirementError, ManifestParseError } from '../src/index.ts';
import { fixture, sorted } from './fixtures.ts';
import { listChecked, rows } from './invariant.ts';

describe('cargo findDependency', () => {
  const files = fixture('cargo');
  const find = (name: string) => cargo.findDependency(files, name);

  it('reads string and table requirements with the locked version', () => {
    expect(find('serde_json')).toEqual({
      name: 'serde_json',
      type: 'runtime',
      requirement: '1',
      version: '1.0.108',
      manifest: 'Cargo.toml',
    });
    expect(find('tokio')).toMatchObject({ requirement: '1.34', version: '1.34.0' });
    expect(find('reqwest')).toMatchObject({ requirement: '0.11.22', version: '0.11.22' });
  });
  it('normalises names like crates.io (- and _ alike, any case)', () => {
    expect(find('Serde-JSON')).toMatchObject({ name: 'serde_json' });
  });
  it('finds a renamed dependency by its package name, not its key', () => {
    expect(find('actix-web')).toMatchObject({ name: 'actix-web', requirement: '4.4.0', version: '4.4.0' });
    expect(find('web')).toBeUndefined();
  });
  it('picks the locked version matching the requirement when a crate is locked twice', () => {
    expect(find('rand')).toMatchObject({ type: 'runtime', requirement: '0.8', version: '0.8.5' });
  });
  it('reads dev-, build- and target-specific dependencies', () => {
    expect(find('criterion')).toMatchObject({ type: 'development', version: '0.5.1' });
    expect(find('cc')).toMatchObject({ type: 'development', version: '1.0.83' });
    expect(find('winapi')).toMatchObject({ type: 'runtime', requirement: '0.3.9', version: '0.3.9' });
    expect(find('nix')).toMatchObject({ type: 'development', requirement: '0.27', version: null });
  });
  it('gives path and git dependencies no requirement', () => {
    expect(find('geo-types')).toMatchObject({ requirement: null, version: '0.7.12' });
    expect(find('image')).toMatchObject({ requirement: null, version: null });
  });
  it('takes an = requirement as the version without Cargo.lock', () => {
    const manifestOnly = fixture('cargo', ['Cargo.toml']);
    expect(cargo.findDependency(manifestOnly, 'tracing')).toMatchObject({ requirement: '=0.1.40', version: '0.1.40' });
    expect(cargo.findDependency(manifestOnly, 'rand')).toMatchObject({ version: null });
  });
  it('inherits workspace requirements', () => {
    const toml =
      '[workspace]\nmembers = ["a"]\n[workspace.dependencies]\nanyhow = "1.0.75"\n[dependencies]\nanyhow = { workspace = true }\n';
    expect(cargo.findDependency({ 'Cargo.toml': toml }, 'anyhow')).toMatchObject({ type: 'runtime', requirement: '1.0.75' });
  });
  it('is undefined when absent and names the file that does not parse', () => {
    expect(find('hyper')).toBeUndefined();
    expect(() => cargo.findDependency({ 'Cargo.toml': '[dependencies\nserde = "1"' }, 'serde')).toThrow(
      expect.objectContaining({ name: 'ManifestParseError', file: 'Cargo.toml' }),
    );
    expect(() => cargo.findDependency({ ...files, 'Cargo.lock': 'package = "nope"' }, 'serde')).toThrow(ManifestParseError);
  });
});

describe('cargo listDependencies', () => {
  it('lists crates by registry name with Cargo.lock versions, leaving out path and git dependencies', () => {
    expect(rows(listChecked(cargo, fixture('cargo')))).toEqual([
      ['tokio', 'runtime', '1.34', '1.34.0'],
      ['serde', 'runtime', '1.0.193', '1.0.193'],
      ['serde_json', 'runtime', '1', '1.0.108'],
      ['axum', 'runtime', '0.7.1', '0.7.1'],
      ['rand', 'runtime', '0.8', '0.8.5'],
      ['actix-web', 'runtime', '4.4.0', '4.4.0'],
      ['tracing', 'runtime', '=0.1.40', '0.1.40'],
      ['reqwest', 'runtime', '0.11.22', '0.11.22'],
      ['criterion', 'development', '0.5', '0.5.1'],
      ['proptest', 'development', '~1.4', '1.4.0'],
      ['cc', 'development', '1.0.83', '1.0.83'],
      ['winapi', 'runtime', '0.3.9', '0.3.9'],
      ['nix', 'development', '0.27', null],
    ]);
  });
  it('leaves out workspace members inherited as path dependencies, also with a version', () => {
    const toml = [
      '[workspace]',
      'members = ["crates/*"]',
      '[workspace.dependencies]',
      'anyhow = "1.0.75"',
      'core-types = { path = "crates/core-types", version = "0.3.0" }',
      '[dependencies]',
      'anyhow = { workspace = true }',
      'core-types = { workspace = true }',
      'grep = { version = "0.3.1", path = "crates/grep" }',
      '[dev-dependencies]',
      'insta = { version = "1.34", registry = "crates-io" }',
    ].join('\n');
    expect(rows(listChecked(cargo, { 'Cargo.toml': toml }))).toEqual([
      ['anyhow', 'runtime', '1.0.75', null],
      ['insta', 'development', '1.34', null],
    ]);
  });
  it('throws ManifestParseError on a Cargo.toml or Cargo.lock that does not parse', () => {
    expect(() => cargo.listDependencies({ 'Cargo.toml': '[dependencies\nserde = "1"' })).toThrow(ManifestParseError);
    expect(() => cargo.listDependencies({ ...fixture('cargo'), 'Cargo.lock': 'package = "nope"' })).toThrow(
      expect.objectContaining({ file: 'Cargo.lock' }),
    );
  });
});

describe('Cargo versions', () => {
  it('maps requirements onto semver ranges', () => {
    expect(cargoToSemverRange('1.2.3')).toBe('^1.2.3');
    expect(cargoToSemverRange('>=1.2, <1.5')).toBe('>=1.2 <1.5');
    expect(cargoToSemverRange('1.*')).toBe('1.*');
    expect(() => cargoToSemverRange('^1 || ^2')).toThrow(InvalidRequirementError);
  });
  it('orders SemVer versions', () => {
    const order = ['0.7.3', '0.8.0-alpha.1', '0.8.0', '0.8.5', '1.0.0'];
    expect(sorted(order, cargoVersions.compare)).toEqual(order);
    expect(cargoVersions.isValid('v1.0.0')).toBe(false);
  });
  it.each([
    ['1.2.9', '1.2.3', true],
    ['2.0.0', '1.2.3', false],
    ['0.4.9', '0.4', true],
    ['0.5.0', '0.4', false],
    ['0.0.4', '0.0.3', false],
    ['1.2.7', '~1.2', true],
    ['1.3.0', '~1.2', false],
    ['1.4.9', '>=1.2, <1.5', true],
    ['1.5.0', '>=1.2, <1.5', false],
    ['0.1.41', '=0.1.40', false],
    ['3.1.4', '*', true],
    ['1.0.0-alpha.2', '^1.0.0-alpha.1', true],
    ['1.0.0-alpha.2', '0.9', false],
  ])('%s satisfies %s: %s', (version, requirement, expected) => {
    expect(cargoVersions.satisfies(version, requirement)).toBe(expected);
  });
  it('tells pre-releases and update kinds', () => {
    expect(cargoVersions.isPrerelease('0.8.0-alpha.1')).toBe(true);
    expect(cargoVersions.updateKind('0.8.5', '0.9.0')).toBe('major');
    expect(cargoVersions.lowestAllowed?.('0.8')).toBe('0.8.0');
  });
});
