import { describe, expect, it } from 'vitest';
import { type DependencyUse, ManifestParseError, type ManifestUpdate, nuget, unmetRequirement } from '../src/index.ts';
import { locateNuGet, nugetAllows } from '../src/nuget/update.ts';
import { readDirectory } from './directory-read.ts';
import { fixtureTree } from './fixtures.ts';
import { listChecked, rows } from './invariant.ts';

/**
 * What Dependabot's NuGet fetcher and updater read beyond project files and `Directory.*` files of the canonical
 * spelling: the `Directory.*` files in other letter cases, `dotnet-tools.json`, MSBuild project SDKs (`global.json`
 * of the directory or a parent, `<Project Sdk="Name/Version">`, `<Sdk>`, `<Import Sdk Version>`) and the props/targets
 * files an `<Import>` brings in (fixture `nuget/build-tree`).
 */

type Files = Record<string, string>;

const tree = fixtureTree('nuget/build-tree');
/** The files the worker gives nuget for `directory` of the fixture tree. */
const read = (directory: string): Files => readDirectory(nuget, tree, directory);
const tool = read('/src/Contoso.Tool');
const traversal = read('/tools');

/** `updateManifest` from what `findDependency` reads, checking that the result reads back with the new requirement. */
function update(files: Files, name: string, target: string): ManifestUpdate {
  const use = nuget.findDependency(files, name) as DependencyUse;
  expect(use, name).toBeDefined();
  const result = nuget.updateManifest(files, use, target);
  if ('files' in result) {
    const merged = { ...files, ...result.files };
    expect(nuget.findDependency(merged, name)?.requirement).toBe(result.requirement);
    const again = locateNuGet(merged, name);
    if ('cannot' in again) throw new Error(again.cannot);
    for (const declaration of again.declarations) expect(nugetAllows(target, declaration.requirement ?? ''), declaration.file).toBe(true);
  }
  return result;
}

/** `files[file]` with the first `before` replaced by `after`, failing when it is not there. */
function edited(files: Files, file: string, before: string, after: string): string {
  const text = files[file] ?? '';
  expect(text, file).toContain(before);
  return text.replace(before, after);
}

describe('nuget Directory.* files in other letter cases', () => {
  it('asks for the spellings Dependabot matched, here and in each parent directory', () => {
    const related = nuget.files.related?.({ 'App.csproj': '<Project />' }) ?? [];
    expect(related).toEqual(
      expect.arrayContaining([
        'directory.Packages.props',
        'directory.packages.props',
        '../Directory.build.props',
        '../../directory.packages.props',
        `${'../'.repeat(8)}directory.build.targets`,
      ]),
    );
    expect(related).not.toContain(`${'../'.repeat(9)}directory.build.props`);
    // the directory's own Directory.Build.* spellings are files.optional entries, read from its listing
    expect(related).not.toContain('directory.build.props');
    expect(nuget.files.optional).toEqual(
      expect.arrayContaining(['Directory.Build.props', 'Directory.build.props', 'directory.build.targets']),
    );
    // a directory holding only another spelling of Directory.Packages.props is no NuGet directory (files.required)
    expect(unmetRequirement(nuget.files.required, ['directory.packages.props'])).toBeDefined();
    expect(nuget.files.related?.({ 'packages.config': '<packages />' })).toEqual([]);
  });
  it('reads a parent directory.build.props and a Directory.build.targets as the canonical files', () => {
    expect(Object.keys(tool)).toEqual(expect.arrayContaining(['../../directory.build.props', '../Directory.build.targets']));
    expect(nuget.findDependency(tool, 'Contoso.Yaml')).toMatchObject({ requirement: '1.1.0', manifest: 'Contoso.Tool.csproj' });
    expect(nuget.findDependency(tool, 'Contoso.Http')).toMatchObject({ requirement: '7.1.0' });
  });
  it('edits the property where the file of that spelling defines it, under its key', () => {
    expect(update(tool, 'Contoso.Http', '7.2.0')).toEqual({
      files: { '../Directory.build.targets': edited(tool, '../Directory.build.targets', '7.1.0', '7.2.0') },
      requirement: '7.2.0',
    });
    expect(update(tool, 'Contoso.Yaml', '1.2.0')).toEqual({
      files: {
        '../../directory.build.props': edited(
          tool,
          '../../directory.build.props',
          '<ContosoYamlVersion>1.1.0<',
          '<ContosoYamlVersion>1.2.0<',
        ),
      },
      requirement: '1.2.0',
    });
  });
  it('takes central versions from a directory.packages.props, and the canonical spelling first when both exist', () => {
    const files: Files = {
      'App.csproj': '<Project><ItemGroup><PackageReference Include="Contoso.Json" /></ItemGroup></Project>',
      '../directory.packages.props': '<Project><ItemGroup><PackageVersion Include="Contoso.Json" Version="3.0.0" /></ItemGroup></Project>',
    };
    expect(nuget.findDependency(files, 'contoso.json')).toMatchObject({ requirement: '3.0.0', manifest: '../directory.packages.props' });
    expect(update(files, 'Contoso.Json', '3.0.1')).toEqual({
      files: { '../directory.packages.props': edited(files, '../directory.packages.props', '"3.0.0"', '"3.0.1"') },
      requirement: '3.0.1',
    });
    const both = {
      ...files,
      '../Directory.Packages.props': '<Project><ItemGroup><PackageVersion Include="Contoso.Json" Version="4.0.0" /></ItemGroup></Project>',
    };
    expect(nuget.findDependency(both, 'contoso.json')).toMatchObject({ requirement: '4.0.0', manifest: '../Directory.Packages.props' });
    // the directory's own file in that spelling comes through related, as a central management root's
    const root = { 'dirs.proj': '<Project />', 'directory.packages.props': files['../directory.packages.props'] ?? '' };
    expect(nuget.files.related?.({ 'dirs.proj': '<Project />' })).toContain('directory.packages.props');
    expect(rows(listChecked(nuget, root))).toEqual([['Contoso.Json', 'runtime', '3.0.0', '3.0.0']]);
  });
});

describe('nuget dotnet-tools.json (local tools)', () => {
  it('reads each tool of .config/dotnet-tools.json as a development dependency pinned to its version', () => {
    const files = { 'App.csproj': '<Project />', '.config/dotnet-tools.json': tree['.config/dotnet-tools.json'] ?? '' };
    expect(rows(listChecked(nuget, files))).toEqual([
      ['contoso-format', 'development', '1.4.0', '1.4.0'],
      ['contoso-docs', 'development', '0.3.1', '0.3.1'],
    ]);
    expect(nuget.files.optional).toEqual(expect.arrayContaining(['.config/dotnet-tools.json', 'dotnet-tools.json']));
  });
  it('merges the manifests walking up, nearest first, as the dotnet CLI does, and stops at isRoot', () => {
    expect(Object.keys(tool)).toEqual(expect.arrayContaining(['dotnet-tools.json', '../../.config/dotnet-tools.json']));
    expect(nuget.findDependency(tool, 'contoso-format')).toMatchObject({ requirement: '1.5.0', manifest: 'dotnet-tools.json' });
    expect(nuget.findDependency(tool, 'contoso-docs')).toMatchObject({ requirement: '0.3.1', manifest: '../../.config/dotnet-tools.json' });
    const rooted = { ...tool, 'dotnet-tools.json': (tool['dotnet-tools.json'] ?? '').replace('"isRoot": false', '"isRoot": true') };
    expect(nuget.findDependency(rooted, 'contoso-docs')).toBeUndefined();
    const related = nuget.files.related?.({ 'App.csproj': '<Project />' }) ?? [];
    expect(related).toEqual(expect.arrayContaining(['../.config/dotnet-tools.json', '../dotnet-tools.json', '../../global.json']));
  });
  it('updates tools.<name>.version in place, in the manifest that gives it', () => {
    expect(update(tool, 'contoso-docs', '0.4.0')).toEqual({
      files: { '../../.config/dotnet-tools.json': edited(tool, '../../.config/dotnet-tools.json', '"0.3.1"', '"0.4.0"') },
      requirement: '0.4.0',
    });
    expect(update(tool, 'Contoso-Format', '1.5.0')).toEqual({ unchanged: expect.stringContaining('1.5.0') });
    const bom = {
      'App.csproj': '<Project />',
      '.config/dotnet-tools.json': `\uFEFF${tree['.config/dotnet-tools.json']?.replaceAll('\n', '\r\n')}`,
    };
    expect(update(bom, 'contoso-format', '2.0.0')).toEqual({
      files: { '.config/dotnet-tools.json': edited(bom, '.config/dotnet-tools.json', '"1.4.0"', '"2.0.0"') },
      requirement: '2.0.0',
    });
  });
  it('refuses a manifest whose tools are not objects, and skips a tool without a NuGet version', () => {
    expect(() => nuget.listDependencies({ 'App.csproj': '<Project />', 'dotnet-tools.json': '{ "tools": { "a": "1.0.0" } }' })).toThrow(
      expect.objectContaining({ file: 'dotnet-tools.json' }),
    );
    expect(() => nuget.listDependencies({ 'App.csproj': '<Project />', 'dotnet-tools.json': '{ "tools": [' })).toThrow(ManifestParseError);
    const files = {
      'App.csproj': '<Project />',
      'dotnet-tools.json': '{ "tools": { "a": { "commands": ["a"] }, "b": { "version": "latest" } } }',
    };
    expect(nuget.listDependencies(files)).toEqual([]);
  });
});

describe('nuget MSBuild project SDKs', () => {
  it('reads Sdk="Name/Version" entries and <Sdk Name Version> elements of a project', () => {
    expect(nuget.findDependency(tool, 'Contoso.Sdk.Extras')).toEqual({
      name: 'Contoso.Sdk.Extras',
      type: 'development',
      requirement: '1.2.0',
      version: '1.2.0',
      manifest: 'Contoso.Tool.csproj',
    });
    expect(nuget.findDependency(tool, 'contoso.sdk.signing')).toMatchObject({ requirement: '0.5.0', type: 'development' });
    expect(nuget.findDependency(tool, 'Microsoft.NET.Sdk')).toBeUndefined();
  });
  it('edits only the version of each form, keeping CRLF', () => {
    expect(update(tool, 'Contoso.Sdk.Extras', '1.3.0')).toEqual({
      files: { 'Contoso.Tool.csproj': edited(tool, 'Contoso.Tool.csproj', 'Contoso.Sdk.Extras/1.2.0', 'Contoso.Sdk.Extras/1.3.0') },
      requirement: '1.3.0',
    });
    expect(update(tool, 'Contoso.Sdk.Signing', '0.6.0')).toEqual({
      files: { 'Contoso.Tool.csproj': edited(tool, 'Contoso.Tool.csproj', 'Version="0.5.0"', 'Version="0.6.0"') },
      requirement: '0.6.0',
    });
    expect(update(traversal, 'Contoso.Sdk.Tasks', '3.1.0')).toEqual({
      files: { 'dirs.proj': edited(traversal, 'dirs.proj', 'Version="3.0.1"', 'Version="3.1.0"') },
      requirement: '3.1.0',
    });
  });
  it('skips SDK references without a literal NuGet version', () => {
    const files = {
      'App.csproj':
        '<Project Sdk="A/min=1.0;B/$(BVersion);C;D / 2.0.0"><Sdk Name="E" /><Sdk Name="F" Version="$(FVersion)" />' +
        '<Import Project="Sdk.props" Sdk="G" /></Project>',
    };
    expect(rows(listChecked(nuget, files))).toEqual([['D', 'development', '2.0.0', '2.0.0']]);
    expect(update(files, 'D', '2.1.0')).toEqual({
      files: { 'App.csproj': edited(files, 'App.csproj', 'D / 2.0.0', 'D / 2.1.0') },
      requirement: '2.1.0',
    });
  });
  it('reads the global.json nearest up the tree, as MSBuild looks it up, and edits it under its key', () => {
    expect(nuget.findDependency(tool, 'Contoso.Build.Traversal')).toMatchObject({ requirement: '2.0.0', manifest: '../../global.json' });
    expect(update(traversal, 'Contoso.Build.Traversal', '2.1.0')).toEqual({
      files: { '../global.json': edited(traversal, '../global.json', '"2.0.0"', '"2.1.0"') },
      requirement: '2.1.0',
    });
    const nearer = { ...tool, '../global.json': '{ "msbuild-sdks": { "Contoso.Build.Traversal": "1.9.0" } }' };
    expect(nuget.findDependency(nearer, 'Contoso.Build.Traversal')).toMatchObject({ requirement: '1.9.0', manifest: '../global.json' });
  });
  it('leaves lock files alone for an SDK, which NuGet does not lock', async () => {
    const files = {
      'App.csproj':
        '<Project Sdk="Contoso.Sdk.Extras/1.2.0"><ItemGroup><PackageReference Include="A" Version="1.0.0" /></ItemGroup></Project>',
      'packages.lock.json': JSON.stringify({
        version: 1,
        dependencies: { 'net8.0': { A: { type: 'Direct', requested: '[1.0.0, )', resolved: '1.0.0', contentHash: 'x' } } },
      }),
    };
    const use = nuget.findDependency(files, 'Contoso.Sdk.Extras') as DependencyUse;
    const manifest = nuget.updateManifest(files, use, '1.3.0') as { files: Files };
    const target = { name: 'Contoso.Sdk.Extras', version: '1.3.0', dependencies: [], artifacts: [] };
    expect(await nuget.updateLockfiles?.({ files, updated: { ...files, ...manifest.files }, use, target, registries: [] })).toEqual({
      files: {},
    });
  });
});

describe('nuget Packages.props (the CentralPackageVersions SDK)', () => {
  const files: Files = {
    'App.csproj':
      '<Project Sdk="Microsoft.NET.Sdk;Microsoft.Build.CentralPackageVersions/2.1.3">\n  <ItemGroup>\n    <PackageReference Include="Contoso.Json" />\n  </ItemGroup>\n</Project>\n',
    'Packages.props':
      '<Project>\n  <PropertyGroup>\n    <ContosoJsonVersion>3.1.0</ContosoJsonVersion>\n  </PropertyGroup>\n  <ItemGroup>\n' +
      '    <PackageReference Update="Contoso.Json" Version="$(ContosoJsonVersion)" />\n    <PackageReference Update="Contoso.Yaml" Version="1.0.0" />\n' +
      '  </ItemGroup>\n</Project>\n',
  };
  it("reads the directory's Packages.props as Dependabot did: its Update items give the versions", () => {
    expect(nuget.files.optional).toContain('Packages.props');
    expect(rows(listChecked(nuget, files))).toEqual([
      ['Microsoft.Build.CentralPackageVersions', 'development', '2.1.3', '2.1.3'],
      ['Contoso.Json', 'runtime', '3.1.0', '3.1.0'],
      ['Contoso.Yaml', 'runtime', '1.0.0', '1.0.0'],
    ]);
    expect(nuget.findDependency(files, 'Contoso.Json')?.manifest).toBe('Packages.props');
  });
  it('updates the property Packages.props defines, in place', () => {
    expect(update(files, 'Contoso.Json', '3.2.0')).toEqual({
      files: { 'Packages.props': edited(files, 'Packages.props', '3.1.0', '3.2.0') },
      requirement: '3.2.0',
    });
  });
});

describe('nuget imported props and targets files', () => {
  it('names the files the MSBuild files read import, relative to the importing file, as related', () => {
    const csproj = tool['Contoso.Tool.csproj'] ?? '';
    expect(nuget.files.related?.({ 'Contoso.Tool.csproj': csproj })).toContain('../../eng/Packaging.targets');
    const props = tree['directory.build.props'] ?? '';
    expect(nuget.files.related?.({ 'App.csproj': '<Project />', '../../directory.build.props': props })).toContain(
      '../../eng/Versions.props',
    );
    expect(nuget.files.related?.({ 'App.csproj': '<Project />', 'eng/Versions.props': tree['eng/Versions.props'] ?? '' })).toContain(
      'eng/Common.props',
    );
    const skipped = {
      'App.csproj':
        '<Project><Import Project="$(RepoRoot)eng/A.props" /><Import Project="Sdk.props" Sdk="X" /><Import Project="eng/*.props" />' +
        "<Import Project=\"$([MSBuild]::GetPathOfFileAbove('Directory.Build.props', '$(MSBuildThisFileDirectory)../'))\" /></Project>",
    };
    expect((nuget.files.related?.(skipped) ?? []).filter((path) => path.includes('eng') || path.includes('Sdk.props'))).toEqual([]);
    expect(Object.keys(tool)).toEqual(
      expect.arrayContaining(['../../eng/Versions.props', '../../eng/Common.props', '../../eng/Packaging.targets']),
    );
  });
  it('takes properties in MSBuild evaluation order: an import is evaluated where it stands', () => {
    // directory.build.props sets ContosoJsonVersion 2.0.0, then imports eng/Versions.props (3.1.0), then sets ContosoYamlVersion
    expect(rows(listChecked(nuget, tool)).filter(([name]) => String(name).startsWith('Contoso.') && !String(name).includes('Sdk'))).toEqual(
      [
        ['Contoso.Json', 'runtime', '3.1.0', '3.1.0'],
        ['Contoso.Yaml', 'runtime', '1.1.0', '1.1.0'],
        ['Contoso.Http', 'runtime', '7.1.0', '7.1.0'],
        ['Contoso.Packaging', 'runtime', '5.0.0', '5.0.0'],
        ['Contoso.Analyzers', 'development', '0.8.2', '0.8.2'],
        ['Contoso.Build.Traversal', 'development', '2.0.0', '2.0.0'],
      ],
    );
  });
  it('updates a property where it is defined, in the imported file under its key', () => {
    expect(update(tool, 'Contoso.Json', '3.2.0')).toEqual({
      files: {
        '../../eng/Versions.props': edited(tool, '../../eng/Versions.props', '<ContosoJsonVersion>3.1.0<', '<ContosoJsonVersion>3.2.0<'),
      },
      requirement: '3.2.0',
    });
    expect(update(tool, 'Contoso.Packaging', '5.1.0')).toEqual({
      files: { '../../eng/Packaging.targets': edited(tool, '../../eng/Packaging.targets', '5.0.0', '5.1.0') },
      requirement: '5.1.0',
    });
    // an item of an imported file (in an ImportGroup) is the project's, its property edited in that file
    expect(update(tool, 'Contoso.Analyzers', '0.9.0')).toEqual({
      files: { '../../eng/Common.props': edited(tool, '../../eng/Common.props', '0.8.2', '0.9.0') },
      requirement: '0.9.0',
    });
  });
  it('reads a project of another directory through its own imports, keyed from the config directory', () => {
    expect(nuget.findDependency(traversal, 'Contoso.Json')).toMatchObject({
      requirement: '3.1.0',
      manifest: '../src/Contoso.Tool/Contoso.Tool.csproj',
    });
    expect(update(traversal, 'Contoso.Json', '4.0.0')).toEqual({
      files: { '../eng/Versions.props': edited(traversal, '../eng/Versions.props', '3.1.0', '4.0.0') },
      requirement: '4.0.0',
    });
  });
  it('follows a property whose value is another property to the one that holds the version, and refuses a cycle', () => {
    const files = {
      'App.csproj':
        '<Project><Import Project="eng/Versions.props" /><PropertyGroup><XVersion>$(SharedVersion)</XVersion><YVersion>$(Y2)</YVersion>' +
        '<Y2>$( YVersion )</Y2></PropertyGroup><ItemGroup><PackageReference Include="X" Version="$(XVersion)" />' +
        '<PackageReference Include="Y" Version="$(YVersion)" /></ItemGroup></Project>',
      'eng/Versions.props': '<Project><PropertyGroup><SharedVersion>2.0.0</SharedVersion></PropertyGroup></Project>',
    };
    expect(nuget.findDependency(files, 'X')).toMatchObject({ requirement: '2.0.0', manifest: 'App.csproj' });
    expect(update(files, 'X', '2.1.0')).toEqual({
      files: { 'eng/Versions.props': edited(files, 'eng/Versions.props', '2.0.0', '2.1.0') },
      requirement: '2.1.0',
    });
    expect(nuget.findDependency(files, 'Y')).toMatchObject({ requirement: null });
    expect(nuget.updateManifest(files, nuget.findDependency(files, 'Y') as DependencyUse, '1.0.0')).toEqual({
      cannot: expect.stringContaining('refers to itself'),
    });
  });
  it('stops at an import cycle and leaves an import the map does not hold', () => {
    const files = {
      'App.csproj':
        '<Project><Import Project="a.props" /><Import Project="missing.props" /><ItemGroup><PackageReference Include="X" Version="$(XVersion)" /></ItemGroup></Project>',
      'a.props': '<Project><Import Project="b.props" /><PropertyGroup><XVersion>1.0.0</XVersion></PropertyGroup></Project>',
      'b.props': '<Project><PropertyGroup><XVersion>0.1.0</XVersion></PropertyGroup><Import Project="a.props" /></Project>',
    };
    expect(nuget.findDependency(files, 'X')).toMatchObject({ requirement: '1.0.0' });
    expect(update(files, 'X', '1.1.0')).toEqual({
      files: { 'a.props': edited(files, 'a.props', '1.0.0', '1.1.0') },
      requirement: '1.1.0',
    });
  });
});
