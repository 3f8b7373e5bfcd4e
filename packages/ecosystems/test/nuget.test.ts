import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ecosystemFor,
  InvalidRequirementError,
  InvalidVersionError,
  ManifestParseError,
  normaliseNuGetVersion,
  nuget,
  nugetVersions,
  parseNuGetRequirement,
} from '../src/index.ts';
import { fixture, sorted } from './fixtures.ts';
import { listChecked, rows } from './invariant.ts';

const sdk = fixture('nuget/sdk');
const legacy = fixture('nuget/legacy');
const central = fixture('nuget/central');

describe('nuget findDependency', () => {
  it('reads PackageReference Version attributes, case-insensitively by id', () => {
    expect(nuget.findDependency(sdk, 'newtonsoft.json')).toEqual({
      name: 'Newtonsoft.Json',
      type: 'runtime',
      requirement: '12.0.3',
      version: '12.0.3',
      manifest: 'App.csproj',
    });
    expect(nuget.findDependency(sdk, 'Swashbuckle.AspNetCore')).toMatchObject({ requirement: '6.5.0' });
  });
  it('reads a <Version> child element and properties of the project and of Directory.Build.props', () => {
    expect(nuget.findDependency(sdk, 'Microsoft.EntityFrameworkCore')).toMatchObject({ requirement: '8.0.1', version: '8.0.1' });
    expect(nuget.findDependency(sdk, 'Serilog')).toMatchObject({ requirement: '3.1.1', manifest: 'App.csproj' });
    expect(nuget.findDependency(sdk, 'AutoMapper')).toMatchObject({ requirement: '12.0.1' });
  });
  it('reads ranges and floating versions as requirements without a version in use', () => {
    expect(nuget.findDependency(sdk, 'Polly')).toMatchObject({ requirement: '[7.2.4,8.0)', version: null });
    expect(nuget.findDependency(sdk, 'Dapper')).toMatchObject({ requirement: '2.1.*', version: null });
  });
  it('types PrivateAssets="all", MSBuild SDKs and developmentDependency packages as development', () => {
    expect(nuget.findDependency(sdk, 'StyleCop.Analyzers')).toMatchObject({ type: 'development', version: '1.2.0-beta.556' });
    expect(nuget.findDependency(sdk, 'Microsoft.SourceLink.GitHub')).toMatchObject({
      type: 'development',
      manifest: 'Directory.Build.props',
    });
    expect(nuget.findDependency(sdk, 'Microsoft.Build.Traversal')).toMatchObject({ type: 'development', manifest: 'global.json' });
    expect(nuget.findDependency(legacy, 'NUnit')).toMatchObject({ type: 'development', requirement: '3.14.0' });
  });
  it('reads packages.config', () => {
    expect(nuget.findDependency(legacy, 'EntityFramework')).toEqual({
      name: 'EntityFramework',
      type: 'runtime',
      requirement: '6.4.4',
      version: '6.4.4',
      manifest: 'packages.config',
    });
  });
  it('takes central package versions and VersionOverride', () => {
    expect(nuget.findDependency(central, 'Newtonsoft.Json')).toMatchObject({
      name: 'Newtonsoft.Json',
      requirement: '13.0.1',
      manifest: 'Directory.Packages.props',
    });
    expect(nuget.findDependency(central, 'xunit')).toMatchObject({ requirement: '2.6.6' });
    expect(nuget.findDependency(central, 'FluentAssertions')).toMatchObject({ requirement: '6.11.0', manifest: 'Lib.Tests.fsproj' });
    expect(nuget.findDependency(central, 'Nerdbank.GitVersioning')).toMatchObject({ type: 'development' });
  });
  it('gives a reference to an undefined property no requirement', () => {
    const files = { 'App.csproj': '<Project><ItemGroup><PackageReference Include="X" Version="$(Nope)" /></ItemGroup></Project>' };
    expect(nuget.findDependency(files, 'x')).toMatchObject({ name: 'X', requirement: null, version: null });
  });
  it('names the file that is not well-formed', () => {
    expect(() => nuget.findDependency({ 'App.csproj': '<Project><ItemGroup></Project>' }, 'x')).toThrow(
      expect.objectContaining({ name: 'ManifestParseError', file: 'App.csproj' }),
    );
    expect(() => nuget.findDependency({ 'packages.config': '<package id="x" />' }, 'x')).toThrow(ManifestParseError);
    expect(() => nuget.findDependency({ 'App.csproj': '<Project/>', 'global.json': '{ // c\n}' }, 'x')).toThrow(
      expect.objectContaining({ file: 'global.json' }),
    );
  });
  it('refuses a project file whose elements nest too deep', () => {
    for (const depth of [300, 30_000]) {
      const text = `<Project>${'<X>'.repeat(depth)}${'</X>'.repeat(depth)}</Project>`;
      expect(() => nuget.findDependency({ 'App.csproj': text }, 'x'), String(depth)).toThrow(
        expect.objectContaining({ name: 'ManifestParseError', file: 'App.csproj', reason: expect.stringContaining('nest too deep') }),
      );
    }
  });
  it('is registered, with project file patterns, packages.config, Directory.Packages.props or a solution', () => {
    expect(ecosystemFor('nuget')).toBe(nuget);
    expect(nuget.files.required).toEqual([
      ['*.csproj', '*.fsproj', '*.vbproj', 'packages.config', 'Directory.Packages.props', '*.sln', '*.slnx', '*.proj'],
    ]);
    expect(nuget.files.lockfiles).toEqual([
      'packages.lock.json',
      ...[1, 2, 3, 4, 5, 6, 7, 8].map((n) => `${'*/'.repeat(n)}packages.lock.json`),
    ]);
    expect(nuget.files.optional).toContain('packages.lock.json');
  });
});

describe('nuget listDependencies', () => {
  it('lists each id once in reading order', () => {
    expect(rows(listChecked(nuget, central))).toEqual([
      ['Newtonsoft.Json', 'runtime', '13.0.1', '13.0.1'],
      ['xunit', 'runtime', '2.6.6', '2.6.6'],
      ['FluentAssertions', 'runtime', '6.11.0', '6.11.0'],
      ['xunit.runner.visualstudio', 'runtime', '2.6.6', '2.6.6'],
      ['Nerdbank.GitVersioning', 'development', '3.6.133', '3.6.133'],
    ]);
    expect(listChecked(nuget, sdk).map((use) => use.name)).toEqual([
      'Newtonsoft.Json',
      'Serilog',
      'Serilog.Sinks.Console',
      'Microsoft.EntityFrameworkCore',
      'Polly',
      'Dapper',
      'StyleCop.Analyzers',
      'AutoMapper',
      'Swashbuckle.AspNetCore',
      'Microsoft.SourceLink.GitHub',
      'Microsoft.Build.Traversal',
    ]);
  });
  it('is empty for a project without references', () => {
    expect(nuget.listDependencies({ 'App.csproj': '<Project Sdk="Microsoft.NET.Sdk" />' })).toEqual([]);
  });
});

describe('nuget versions', () => {
  it('orders versions: four parts, case-insensitive labels, numeric labels below text, metadata ignored', () => {
    expect(
      sorted(['1.0.0', '1.0.0-beta.2', '1.0.0-Beta.10', '1.0.0-alpha', '1.0.0-1', '1.0.0.1', '0.9', '1.0.1-rc.1'], nugetVersions.compare),
    ).toEqual(['0.9', '1.0.0-1', '1.0.0-alpha', '1.0.0-beta.2', '1.0.0-Beta.10', '1.0.0', '1.0.0.1', '1.0.1-rc.1']);
    expect(nugetVersions.compare('1.0', '1.0.0.0')).toBe(0);
    expect(nugetVersions.compare('1.0.0-BETA', '1.0.0-beta')).toBe(0);
    expect(nugetVersions.compare('1.0.0+abc', '1.0.0+def')).toBe(0);
  });
  it('validates and normalises', () => {
    expect(nugetVersions.isValid('v1.0.0')).toBe(false);
    expect(nugetVersions.isValid('1.0.0-01')).toBe(false);
    expect(nugetVersions.isValid('1.2.3.4.5')).toBe(false);
    expect(normaliseNuGetVersion('1.01')).toBe('1.1.0');
    expect(normaliseNuGetVersion('1.0.0.0')).toBe('1.0.0');
    expect(normaliseNuGetVersion('1.2.3.4-Beta.1+sha.abc')).toBe('1.2.3.4-Beta.1');
    expect(() => nugetVersions.compare('x', '1.0')).toThrow(InvalidVersionError);
    expect(nugetVersions.updateKind('1.2.3', '1.2.3.1')).toBe('patch');
    expect(nugetVersions.updateKind('12.0.3', '13.0.1')).toBe('major');
  });
  it.each([
    ['1.0', '1.0', true],
    ['2.5.0', '1.0', true],
    ['0.9', '1.0', false],
    ['1.0', '(1.0,)', false],
    ['1.0.0', '[1.0]', true],
    ['1.0.1', '[1.0]', false],
    ['1.0', '(,1.0]', true],
    ['1.0', '(,1.0)', false],
    ['1.5', '[1.0,2.0)', true],
    ['2.0', '[1.0,2.0)', false],
    ['2.0', '[1.0, 2.0]', true],
    ['1.9.9', '1.*', true],
    ['2.0.0', '1.*', false],
    ['1.5.0-beta', '1.*', false],
    ['1.5.0-beta', '1.*-*', true],
    ['1.2.9', '1.2.*', true],
    ['1.3.0', '1.2.*', false],
    ['1.2.3-rc.1', '1.2.3-*', true],
    ['1.2.3', '1.2.3-*', true],
    ['1.0.0-beta.2', '1.0.0-beta*', true],
    ['1.0.0-alpha', '1.0.0-beta*', false],
    ['9.9.9', '*', true],
    ['9.9.9-x', '*-*', true],
  ])('%s satisfies %s: %s', (version, requirement, expected) => {
    expect(nugetVersions.satisfies(version, requirement)).toBe(expected);
  });
  it('reads requirements and refuses what NuGet refuses', () => {
    expect(parseNuGetRequirement('[1.0,2.0)')).toEqual({
      kind: 'range',
      lower: { version: '1.0', inclusive: true },
      upper: { version: '2.0', inclusive: false },
    });
    expect(nugetVersions.lowestAllowed?.('1.2.*')).toBe('1.2.0');
    expect(nugetVersions.lowestAllowed?.('(1.0,2.0)')).toBeNull();
    expect(nugetVersions.allowsPrereleases?.('1.*-*')).toBe(true);
    expect(nugetVersions.allowsPrereleases?.('[1.0,2.0)')).toBe(false);
    for (const bad of ['', '(1.0)', '[2.0,1.0]', '(1.0,1.0)', '[,]', '1.*.2', '$(X)', 'v1.0', '[1.0']) {
      expect(() => parseNuGetRequirement(bad), bad).toThrow(InvalidRequirementError);
    }
  });
  it('reads ranges with blanks around bounds and refuses long blank runs at once', () => {
    expect(parseNuGetRequirement('[ 1.0 , 2.0 )')).toEqual({
      kind: 'range',
      lower: { version: '1.0', inclusive: true },
      upper: { version: '2.0', inclusive: false },
    });
    expect(parseNuGetRequirement('( , 2.0]')).toEqual({ kind: 'range', upper: { version: '2.0', inclusive: true } });
    expect(parseNuGetRequirement('[ 1.0 ]')).toEqual({
      kind: 'range',
      lower: { version: '1.0', inclusive: true },
      upper: { version: '1.0', inclusive: true },
    });
    for (const bad of ['[1.0,2.0,3.0]', '[1.0)2.0]', '[', ']', `[${' '.repeat(200_000)}x`, `[1.0,${' '.repeat(200_000)}x`]) {
      expect(() => parseNuGetRequirement(bad), bad.slice(0, 12)).toThrow(InvalidRequirementError);
    }
    expect(() => parseNuGetRequirement(`[${' '.repeat(200_000)}x]`)).toThrow(/is not a version|exact version/);
  });
});

describe('nuget demo directory of acme/polyglot', () => {
  it('declares the end-to-end dependency, Newtonsoft.Json at 12.0.3, in App.csproj', () => {
    const path = join(import.meta.dirname, '../../github-emulator/src/demo-seeds/nuget.json');
    const seed = JSON.parse(readFileSync(path, 'utf8')) as { files: Record<string, Record<string, string>> };
    const files = Object.fromEntries(
      Object.entries(seed.files['acme/polyglot'] ?? {})
        .filter(([file]) => file.startsWith('nuget/'))
        .map(([file, text]) => [file.slice('nuget/'.length), text]),
    );
    expect(nuget.findDependency(files, 'Newtonsoft.Json')).toEqual({
      name: 'Newtonsoft.Json',
      type: 'runtime',
      requirement: '12.0.3',
      version: '12.0.3',
      manifest: 'App.csproj',
    });
    expect(listChecked(nuget, files).every((use) => use.requirement !== null)).toBe(true);
  });
});
