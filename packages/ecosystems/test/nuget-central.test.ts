import { describe, expect, it } from 'vitest';
import { type DependencyUse, installedVersion, nuget, nugetVersions, type RegistryVersionDetails, unmetRequirement } from '../src/index.ts';
import { legacyShortNuGetRange, normalisedNuGetRange } from '../src/nuget/versions.ts';
import { readDirectory } from './directory-read.ts';
import { fixtureTree } from './fixtures.ts';
import { listChecked, rows } from './invariant.ts';

type Files = Record<string, string>;

/** The files the worker gives nuget for `directory` of a repository `tree` (path → text). */
const directoryFiles = (tree: Files, directory: string): Files => readDirectory(nuget, tree, directory);

const cpm = fixtureTree('nuget/cpm-tree');
const props = fixtureTree('nuget/props-tree');
const service = directoryFiles(cpm, '/src/Contoso.Service');
const tests = directoryFiles(cpm, '/tests/Contoso.Service.Tests');

/** The registry's description of `name` `version` (a SHA-512 of the .nupkg, hex, and the given dependencies). */
function described(name: string, version: string, dependencies: RegistryVersionDetails['dependencies'] = []): RegistryVersionDetails {
  return {
    name,
    version,
    dependencies,
    artifacts: [
      {
        filename: `${name.toLowerCase()}.${version}.nupkg`,
        url: `https://api.nuget.org/v3-flatcontainer/${name.toLowerCase()}/${version}/${name.toLowerCase()}.${version}.nupkg`,
        digests: [{ algorithm: 'sha512', value: 'ab'.repeat(64), encoding: 'hex' }],
      },
    ],
  };
}
const HASH = Buffer.from('ab'.repeat(64), 'hex').toString('base64');

describe('nuget Directory.Packages.props alone (a central package management root)', () => {
  const root = directoryFiles(cpm, '/');
  it('is a NuGet directory', () => {
    expect(Object.keys(root).sort()).toEqual(['Directory.Build.props', 'Directory.Packages.props', 'global.json']);
    expect(unmetRequirement(nuget.files.required, Object.keys(root))).toBeUndefined();
  });
  it('lists its PackageVersion entries, a property version from Directory.Build.props', () => {
    expect(rows(listChecked(nuget, root))).toEqual([
      ['Contoso.Logging', 'runtime', '3.1.1', '3.1.1'],
      ['Contoso.Logging.Console', 'runtime', '5.0.1', '5.0.1'],
      ['Contoso.Text', 'runtime', '1.2.*', null],
      ['Contoso.Preview', 'runtime', '1.0.0-beta*', null],
      ['Contoso.Nightly', 'runtime', '2.1.*-*', null],
      ['Contoso.Http', 'runtime', '7.0.2', '7.0.2'],
      ['xunit.v3', 'runtime', '1.0.1', '1.0.1'],
      ['Shouldly', 'runtime', '4.2.1', '4.2.1'],
      ['NSubstitute', 'runtime', '5.1.0', '5.1.0'],
      ['Contoso.Analyzers', 'development', '0.9.4', '0.9.4'],
    ]);
  });
  it('updates the PackageVersion entry in place', () => {
    const use = nuget.findDependency(root, 'NSubstitute') as DependencyUse;
    const text = root['Directory.Packages.props'] ?? '';
    expect(nuget.updateManifest(root, use, '5.3.0')).toEqual({
      files: { 'Directory.Packages.props': text.replace('"NSubstitute" Version="5.1.0"', '"NSubstitute" Version="5.3.0"') },
      requirement: '5.3.0',
    });
  });
});

describe('nuget projects below a parent Directory.Packages.props', () => {
  it('names the parent directories Directory.* files as related, eight levels up', () => {
    const related = nuget.files.related?.({ 'App.csproj': '<Project />' }) ?? [];
    expect(related).toContain('../Directory.Packages.props');
    expect(related).toContain('../../Directory.Build.props');
    expect(related).toContain(`${'../'.repeat(8)}Directory.Build.targets`);
    expect(related).not.toContain(`${'../'.repeat(9)}Directory.Packages.props`);
    expect(nuget.files.related?.({ 'packages.config': '<packages />' })).toEqual([]);
    expect(Object.keys(service).sort()).toEqual([
      '../../Directory.Build.props',
      '../../Directory.Packages.props',
      '../../global.json',
      'Contoso.Service.csproj',
      'packages.lock.json',
    ]);
  });
  it('takes versionless references from the nearest Directory.Packages.props, listing only the referenced entries', () => {
    expect(nuget.findDependency(service, 'Contoso.Logging')).toEqual({
      name: 'Contoso.Logging',
      type: 'runtime',
      requirement: '3.1.1',
      version: '3.1.1',
      manifest: '../../Directory.Packages.props',
    });
    expect(rows(listChecked(nuget, service))).toEqual([
      ['Contoso.Logging', 'runtime', '3.1.1', '3.1.1'],
      ['Contoso.Logging.Console', 'runtime', '5.0.1', '5.0.1'],
      ['Contoso.Text', 'runtime', '1.2.*', '1.2.5'],
      ['Contoso.Http', 'runtime', '7.0.2', '7.0.2'],
      ['Contoso.Analyzers', 'development', '0.9.4', '0.9.4'],
    ]);
    expect(nuget.findDependency(service, 'NSubstitute')).toBeUndefined();
  });
  it('reads VersionOverride, PrivateAssets and floating central versions of a test project', () => {
    expect(rows(listChecked(nuget, tests))).toEqual([
      ['xunit.v3', 'runtime', '1.0.1', '1.0.1'],
      ['Shouldly', 'runtime', '4.2.0', '4.2.0'],
      ['Contoso.Preview', 'runtime', '1.0.0-beta*', null],
      ['Contoso.Nightly', 'development', '2.1.*-*', null],
      ['Contoso.Analyzers', 'development', '0.9.4', '0.9.4'],
    ]);
  });
  it('updates the parent file under the key it was given, and the VersionOverride in the project', () => {
    const use = nuget.findDependency(service, 'Contoso.Logging') as DependencyUse;
    const text = service['../../Directory.Packages.props'] ?? '';
    expect(nuget.updateManifest(service, use, '4.0.0')).toEqual({
      files: { '../../Directory.Packages.props': text.replace('"Contoso.Logging" Version="3.1.1"', '"Contoso.Logging" Version="4.0.0"') },
      requirement: '4.0.0',
    });
    const shouldly = nuget.findDependency(tests, 'Shouldly') as DependencyUse;
    const project = tests['Contoso.Service.Tests.fsproj'] ?? '';
    expect(nuget.updateManifest(tests, shouldly, '4.2.1')).toEqual({
      files: { 'Contoso.Service.Tests.fsproj': project.replace('VersionOverride="4.2.0"', 'VersionOverride="4.2.1"') },
      requirement: '4.2.1',
    });
  });
  it('moves a property of a parent Directory.Build.props', () => {
    const use = nuget.findDependency(service, 'Contoso.Http') as DependencyUse;
    const text = service['../../Directory.Build.props'] ?? '';
    expect(nuget.updateManifest(service, use, '7.1.0')).toEqual({
      files: { '../../Directory.Build.props': text.replace('7.0.2', '7.1.0') },
      requirement: '7.1.0',
    });
  });
  it('uses only the nearest Directory.Packages.props, and none when ManagePackageVersionsCentrally is false', () => {
    const project = '<Project><ItemGroup><PackageReference Include="A" /></ItemGroup></Project>';
    const central = (version: string, extra = '') =>
      `<Project>${extra}<ItemGroup><PackageVersion Include="A" Version="${version}" /></ItemGroup></Project>`;
    const nested = {
      'A.csproj': project,
      '../Directory.Packages.props': central('2.0.0'),
      '../../Directory.Packages.props': central('1.0.0'),
    };
    expect(nuget.findDependency(nested, 'a')).toMatchObject({ requirement: '2.0.0', manifest: '../Directory.Packages.props' });
    const off = {
      'A.csproj': project,
      '../Directory.Packages.props': central(
        '2.0.0',
        '<PropertyGroup><ManagePackageVersionsCentrally>false</ManagePackageVersionsCentrally></PropertyGroup>',
      ),
    };
    expect(nuget.findDependency(off, 'a')).toMatchObject({ requirement: null, version: null, manifest: 'A.csproj' });
  });
});

describe('nuget Directory.Build.props properties', () => {
  const testsDir = directoryFiles(props, '/Source/Contoso.Json.Tests');
  const libDir = directoryFiles(props, '/Source/Contoso.Json');
  it('resolves $(Property) versions from a parent Directory.Build.props, the project overriding it', () => {
    expect(rows(listChecked(nuget, testsDir))).toEqual([
      ['NUnit', 'runtime', '3.13.3', '3.13.3'],
      ['NUnit3TestAdapter', 'runtime', '4.6.0', '4.6.0'],
      ['Microsoft.SourceLink.GitHub', 'development', '8.0.0', '8.0.0'],
    ]);
    const use = nuget.findDependency(testsDir, 'NUnit') as DependencyUse;
    const text = testsDir['../Directory.Build.props'] ?? '';
    expect(nuget.updateManifest(testsDir, use, '3.14.0')).toEqual({
      files: { '../Directory.Build.props': text.replace('<NUnitVersion>3.13.3<', '<NUnitVersion>3.14.0<') },
      requirement: '3.14.0',
    });
  });
  it('follows an import of the Directory.Build.props above, the nearer file evaluated last', () => {
    expect(Object.keys(libDir).sort()).toEqual(['../Directory.Build.props', 'Contoso.Json.csproj', 'Directory.Build.props']);
    expect(nuget.findDependency(libDir, 'Microsoft.SourceLink.GitHub')).toMatchObject({
      requirement: '8.0.1',
      manifest: '../Directory.Build.props',
    });
    const use = nuget.findDependency(libDir, 'Microsoft.SourceLink.GitHub') as DependencyUse;
    expect(nuget.updateManifest(libDir, use, '8.0.2')).toMatchObject({
      files: { 'Directory.Build.props': (libDir['Directory.Build.props'] ?? '').replace('8.0.1', '8.0.2') },
    });
  });
  it('does not read a parent Directory.Build.props the nearer one does not import', () => {
    const files = {
      'A.csproj': '<Project><ItemGroup><PackageReference Include="A" Version="$(AVersion)" /></ItemGroup></Project>',
      'Directory.Build.props': '<Project><PropertyGroup><Other>1</Other></PropertyGroup></Project>',
      '../Directory.Build.props': '<Project><PropertyGroup><AVersion>1.0.0</AVersion></PropertyGroup></Project>',
    };
    expect(nuget.findDependency(files, 'A')).toMatchObject({ requirement: null });
    expect(nuget.findDependency({ ...files, 'Directory.Build.props': undefined } as unknown as Files, 'A')).toMatchObject({
      requirement: '1.0.0',
    });
  });
});

describe('nuget floating versions', () => {
  it('resolves to the highest matching version, pre-releases only where the label floats', () => {
    const versions = ['1.2.0', '1.2.5', '1.2.6-rc.1', '1.3.0', '1.0.0-beta.2', '1.0.0-beta.10', '1.0.0.5-beta', '1.0.0'];
    expect(nuget.installs?.('1.2.*', versions)).toBe('1.2.5');
    expect(installedVersion(nuget, '1.2.*', versions)).toBe('1.2.5');
    expect(installedVersion(nuget, '1.2.*-*', versions)).toBe('1.2.6-rc.1');
    expect(installedVersion(nuget, '1.*', versions)).toBe('1.3.0');
    expect(nuget.installs?.('1.0.0-beta*', ['1.0.0-beta.2', '1.0.0-beta.10', '1.0.0.5-beta'])).toBe('1.0.0-beta.10');
    expect(nugetVersions.satisfies('1.0.0.5-beta', '1.0.0-beta*')).toBe(false);
    expect(nugetVersions.lowestAllowed?.('1.0.0-beta*')).toBe('1.0.0-beta');
    expect(nugetVersions.lowestAllowed?.('1.0.0-*')).toBe('1.0.0-0');
  });
  it('keeps a float that allows the target and moves one that does not, keeping the float', () => {
    const root = directoryFiles(cpm, '/');
    const text = root['Directory.Packages.props'] ?? '';
    const update = (name: string, target: string) => nuget.updateManifest(root, nuget.findDependency(root, name) as DependencyUse, target);
    expect(update('Contoso.Text', '1.2.9')).toEqual({ unchanged: expect.stringContaining("'1.2.*' already allows 1.2.9") });
    expect(update('Contoso.Text', '1.3.1')).toEqual({
      files: { 'Directory.Packages.props': text.replace('Version="1.2.*"', 'Version="1.3.*"') },
      requirement: '1.3.*',
    });
    expect(update('Contoso.Nightly', '2.2.0-alpha.1')).toEqual({
      files: { 'Directory.Packages.props': text.replace('Version="2.1.*-*"', 'Version="2.2.*-*"') },
      requirement: '2.2.*-*',
    });
    expect(update('Contoso.Preview', '1.0.0-beta.7')).toHaveProperty('unchanged');
  });
});

describe('nuget packages.lock.json', () => {
  it("reads a direct dependency's resolved version, also of a floating requirement", () => {
    expect(nuget.findDependency(service, 'Contoso.Text')).toMatchObject({ requirement: '1.2.*', version: '1.2.5' });
    expect(nuget.findDependency(service, 'Contoso.Abstractions')).toBeUndefined();
    expect(() => nuget.findDependency({ ...service, 'packages.lock.json': '{"version":1,"dependencies":{"net8.0":2}}' }, 'x')).toThrow(
      expect.objectContaining({ name: 'ManifestParseError', file: 'packages.lock.json' }),
    );
  });
  const lock = service['packages.lock.json'] ?? '';
  const lockUpdate = async (name: string, target: RegistryVersionDetails) => {
    const use = nuget.findDependency(service, name) as DependencyUse;
    const manifest = nuget.updateManifest(service, use, target.version);
    const updated = 'files' in manifest ? { ...service, ...manifest.files } : service;
    return nuget.updateLockfiles?.({ files: service, updated, use, target, registries: [] });
  };
  it('sets resolved, requested and the contentHash from the registry, and the dependencies of the target', async () => {
    const result = await lockUpdate(
      'Contoso.Logging.Console',
      described('Contoso.Logging.Console', '5.0.2', [{ name: 'Contoso.Logging', requirement: '[3.1.1, )', kind: 'runtime' }]),
    );
    const entry = lock.slice(lock.indexOf('"Contoso.Logging.Console": {'));
    const changed = entry
      .replace('"[5.0.1, )"', '"[5.0.2, )"')
      .replace('"5.0.1"', '"5.0.2"')
      .replace(/"contentHash": "[^"]+"/, `"contentHash": "${HASH}"`);
    expect(result).toEqual({ files: { 'packages.lock.json': lock.replace(entry, changed) } });
  });
  it('rewrites the dependencies the target declares for the framework when the lock satisfies them', async () => {
    const result = await lockUpdate(
      'Contoso.Text',
      described('Contoso.Text', '1.3.0', [
        { name: 'Contoso.Abstractions', requirement: '[1.5.0, )', kind: 'runtime', condition: 'net8.0' },
        { name: 'Contoso.Other', requirement: '[1.0.0, )', kind: 'runtime', condition: '.NETStandard2.0' },
      ]),
    );
    const entry = lock.slice(lock.indexOf('"Contoso.Text": {'), lock.indexOf('"Contoso.Abstractions": {'));
    const changed = entry
      .replace('"[1.2.*, )"', '"[1.3.*, )"')
      .replace('"1.2.5"', '"1.3.0"')
      .replace(/"contentHash": "[^"]+"/, `"contentHash": "${HASH}"`)
      .replace('"Contoso.Abstractions": "2.0.0"', '"Contoso.Abstractions": "1.5.0"');
    expect(result).toEqual({ files: { 'packages.lock.json': lock.replace(entry, changed) } });
  });
  it('needs resolution rather than writing an inconsistent lock file', async () => {
    expect(
      await lockUpdate(
        'Contoso.Logging.Console',
        described('Contoso.Logging.Console', '6.0.0', [{ name: 'Contoso.Logging', requirement: '[4.0.0, )', kind: 'runtime' }]),
      ),
    ).toEqual({
      needsResolution: expect.stringContaining('requires Contoso.Logging [4.0.0, ), which packages.lock.json does not satisfy'),
    });
    expect(
      await lockUpdate(
        'Contoso.Logging.Console',
        described('Contoso.Logging.Console', '6.0.0', [{ name: 'Contoso.New', requirement: '1.0.0', kind: 'runtime' }]),
      ),
    ).toEqual({
      needsResolution: expect.stringContaining('depends on contoso.new'),
    });
    expect(
      await lockUpdate(
        'Contoso.Text',
        described('Contoso.Text', '1.3.0', [{ name: 'Contoso.Abstractions', requirement: '2.0.0', kind: 'runtime', condition: 'net6.0' }]),
      ),
    ).toEqual({ needsResolution: expect.stringContaining('cannot be told') });
    expect(await lockUpdate('Contoso.Logging.Console', { ...described('Contoso.Logging.Console', '5.0.2'), artifacts: [] })).toEqual({
      needsResolution: expect.stringContaining('SHA-512'),
    });
    const pinned = lock.replace('"Contoso.Logging": "3.1.1"', '"Contoso.Logging": "[3.1.1]"');
    const use = nuget.findDependency(service, 'Contoso.Logging') as DependencyUse;
    const manifest = nuget.updateManifest(service, use, '3.1.2') as { files: Files };
    expect(
      await nuget.updateLockfiles?.({
        files: { ...service, 'packages.lock.json': pinned },
        updated: { ...service, ...manifest.files, 'packages.lock.json': pinned },
        use,
        target: described('Contoso.Logging', '3.1.2'),
        registries: [],
      }),
    ).toEqual({ needsResolution: expect.stringContaining('Contoso.Logging.Console (net8.0) requires Contoso.Logging [3.1.1]') });
  });
  it('gives no file without a lock file', async () => {
    const root = directoryFiles(cpm, '/');
    const use = nuget.findDependency(root, 'Shouldly') as DependencyUse;
    expect(
      await nuget.updateLockfiles?.({ files: root, updated: root, use, target: described('Shouldly', '4.3.0'), registries: [] }),
    ).toEqual({
      files: {},
    });
  });
  it('prints ranges as NuGet writes them in the lock file', () => {
    expect(['1.0', '[1.0]', '(,2.0)', '[1.0,2.0)', '1.2.*', '1.0.0-beta*', '*', '1.*-rc*', '01.*'].map(normalisedNuGetRange)).toEqual([
      '[1.0.0, )',
      '[1.0.0, 1.0.0]',
      '(, 2.0.0)',
      '[1.0.0, 2.0.0)',
      '[1.2.*, )',
      '[1.0.0-beta*, )',
      '[*, )',
      '[1.*-rc*, )',
      '[1.*, )',
    ]);
    expect(['[3.1.1, )', '[1.0.0]', '[1.0, 2.0)', '4.5'].map(legacyShortNuGetRange)).toEqual([
      '3.1.1',
      '[1.0.0]',
      '[1.0.0, 2.0.0)',
      '4.5.0',
    ]);
  });
});
