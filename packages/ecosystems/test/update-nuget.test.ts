import { describe, expect, it } from 'vitest';
import { type DependencyUse, type ManifestUpdate, nuget } from '../src/index.ts';
import { locateNuGet, nugetAllows } from '../src/nuget/update.ts';
import type { Located } from '../src/update/declarations.ts';
import { fixture } from './fixtures.ts';

type Files = Record<string, string>;

/** The text of `file` outside the spans `located` gives for it. */
function outside(located: Located, file: string, text: string): string[] {
  if ('cannot' in located) throw new Error(located.cannot);
  const spans = [...new Map(located.declarations.filter((d) => d.file === file).flatMap((d) => d.parts.map((p) => [p.start, p]))).values()];
  spans.sort((a, b) => a.start - b.start);
  const pieces: string[] = [];
  let at = 0;
  for (const span of spans) {
    pieces.push(text.slice(at, span.start));
    at = span.end;
  }
  return [...pieces, text.slice(at)];
}

/** `updateManifest`, checking that the result reads back allowing the target and only the version spans changed. */
function checked(files: Files, name: string, target: string): ManifestUpdate {
  const use = nuget.findDependency(files, name) as DependencyUse;
  expect(use, name).toBeDefined();
  const result = nuget.updateManifest(files, use, target);
  if (!('files' in result)) return result;
  const merged = { ...files, ...result.files };
  expect(nuget.findDependency(merged, name)?.requirement).toBe(result.requirement);
  const again = locateNuGet(merged, name);
  if ('cannot' in again) throw new Error(again.cannot);
  for (const declaration of again.declarations) expect(nugetAllows(target, declaration.requirement ?? '')).toBe(true);
  const before = locateNuGet(files, name);
  for (const [file, text] of Object.entries(result.files))
    expect(outside(again, file, text)).toEqual(outside(before, file, files[file] ?? ''));
  return result;
}

const sdk = fixture('nuget/sdk');
const project = sdk['App.csproj'] ?? '';

describe('nuget updateManifest', () => {
  it.each([
    ['Newtonsoft.Json', '13.0.3', 'Version="12.0.3"', 'Version="13.0.3"', '13.0.3'],
    ['swashbuckle.aspnetcore', '6.6.2', "Version='6.5.0'", "Version='6.6.2'", '6.6.2'],
    ['Microsoft.EntityFrameworkCore', '8.0.2', '<Version>8.0.1</Version>', '<Version>8.0.2</Version>', '8.0.2'],
    ['Polly', '8.2.0', 'Version="[7.2.4,8.0)"', 'Version="[7.2.4,9.0)"', '[7.2.4,9.0)'],
    ['Dapper', '2.2.1', 'Version="2.1.*"', 'Version="2.2.*"', '2.2.*'],
    ['StyleCop.Analyzers', '1.2.0-beta.700', '1.2.0-beta.556', '1.2.0-beta.700', '1.2.0-beta.700'],
  ])('%s to %s edits only the version in App.csproj', (name, target, before, after, requirement) => {
    expect(checked(sdk, name, target)).toEqual({ files: { 'App.csproj': project.replace(before, after) }, requirement });
  });
  it('edits a shared property and names the packages that move with it', () => {
    expect(checked(sdk, 'Serilog', '4.0.0')).toEqual({
      files: { 'App.csproj': project.replace('<SerilogVersion>3.1.1<', '<SerilogVersion>4.0.0<') },
      requirement: '4.0.0',
      note: 'property SerilogVersion is also the version of Serilog.Sinks.Console, which move with it',
    });
  });
  it('edits a property of Directory.Build.props and global.json msbuild-sdks', () => {
    expect(checked(sdk, 'AutoMapper', '13.0.1')).toEqual({
      files: { 'Directory.Build.props': sdk['Directory.Build.props']?.replace('12.0.1', '13.0.1') },
      requirement: '13.0.1',
    });
    expect(checked(sdk, 'Microsoft.Build.Traversal', '4.1.1')).toEqual({
      files: { 'global.json': sdk['global.json']?.replace('"4.1.0"', '"4.1.1"') },
      requirement: '4.1.1',
    });
  });
  it('edits packages.config keeping CRLF line endings', () => {
    const text = (fixture('nuget/legacy')['packages.config'] ?? '').replaceAll('\n', '\r\n');
    const files = { 'packages.config': text };
    expect(checked(files, 'Newtonsoft.Json', '13.0.1')).toEqual({
      files: { 'packages.config': text.replace('version="12.0.3"', 'version="13.0.1"') },
      requirement: '13.0.1',
    });
  });
  it('reads and edits a project with a byte order mark, an XML declaration, a namespace and CRLF', () => {
    const text =
      '\uFEFF<?xml version="1.0" encoding="utf-8"?>\r\n<Project ToolsVersion="15.0" xmlns="http://schemas.microsoft.com/developer/msbuild/2003">\r\n' +
      '  <ItemGroup>\r\n    <PackageReference Include="A">\r\n      <Version>1.0.0</Version>\r\n    </PackageReference>\r\n  </ItemGroup>\r\n</Project>\r\n';
    expect(checked({ 'Old.vbproj': text }, 'a', '2.0.0')).toEqual({
      files: { 'Old.vbproj': text.replace('<Version>1.0.0<', '<Version>2.0.0<') },
      requirement: '2.0.0',
    });
  });
  it('edits central versions and leaves the references without a version', () => {
    const central = fixture('nuget/central');
    const result = checked(central, 'newtonsoft.json', '13.0.3');
    expect(result).toEqual({
      files: { 'Directory.Packages.props': central['Directory.Packages.props']?.replace('13.0.1', '13.0.3') },
      requirement: '13.0.3',
    });
    expect(checked(central, 'FluentAssertions', '6.12.0')).toEqual({
      files: { 'Lib.Tests.fsproj': central['Lib.Tests.fsproj']?.replace('VersionOverride="6.11.0"', 'VersionOverride="6.12.0"') },
      requirement: '6.12.0',
    });
  });
  it('leaves requirements that allow the target and refuses what it cannot edit', () => {
    expect(checked(sdk, 'Polly', '7.9.0')).toEqual({ unchanged: expect.stringContaining("'[7.2.4,8.0)' already allows 7.9.0") });
    const files = {
      'App.csproj':
        '<Project><ItemGroup><PackageReference Include="A" Version="$(Missing)" /><PackageReference Include="B" Version="[2.0,3.0)" />' +
        '<PackageReference Include="C" Version="1.0-$(Suffix)" /></ItemGroup></Project>',
    };
    const use = (name: string) => ({ name, type: 'runtime' as const, requirement: null, version: null, manifest: 'App.csproj' });
    expect(nuget.updateManifest(files, use('A'), '1.0.0')).toEqual({ cannot: expect.stringContaining('Missing is not defined') });
    expect(nuget.updateManifest(files, use('B'), '1.5.0')).toEqual({ cannot: expect.stringContaining('lower bound') });
    expect(nuget.updateManifest(files, use('C'), '1.0.0')).toEqual({ cannot: expect.stringContaining('mixes text') });
    expect(() => nuget.updateManifest(sdk, use('Polly'), 'v8')).toThrow(/not a valid NuGet version/);
  });
});
