import { describe, expect, it } from 'vitest';
import { type DependencyUse, ManifestParseError, nuget, type RegistryVersionDetails, unmetRequirement } from '../src/index.ts';
import { locateNuGet, nugetAllows } from '../src/nuget/update.ts';
import { readDirectory } from './directory-read.ts';
import { fixtureTree } from './fixtures.ts';
import { listChecked, rows } from './invariant.ts';

type Files = Record<string, string>;

/** The paths of `related` without the parent directories' global.json and tool manifests every .NET directory asks for. */
const listed = (related: readonly string[] | undefined) =>
  (related ?? []).filter((path) => !/^(?:\.\.\/)+(?:global\.json|\.config\/dotnet-tools\.json|dotnet-tools\.json)$/.test(path));

/** The files the worker gives nuget for `directory` of a repository `tree` (path → text). */
const directoryFiles = (tree: Files, directory: string): Files => readDirectory(nuget, tree, directory);

/** The registry's description of `name` `version`: a SHA-512 of the .nupkg (hex) and no dependencies. */
function described(name: string, version: string): RegistryVersionDetails {
  return {
    name,
    version,
    dependencies: [],
    artifacts: [
      {
        filename: `${name.toLowerCase()}.${version}.nupkg`,
        url: `https://api.nuget.org/v3-flatcontainer/${name.toLowerCase()}/${version}/${name.toLowerCase()}.${version}.nupkg`,
        digests: [{ algorithm: 'sha512', value: 'cd'.repeat(64), encoding: 'hex' }],
      },
    ],
  };
}
const HASH = Buffer.from('cd'.repeat(64), 'hex').toString('base64');

/** `updateManifest`, then `updateLockfiles` on the result, for `name` at `target`. */
async function update(files: Files, name: string, target: string) {
  const use = nuget.findDependency(files, name) as DependencyUse;
  expect(use, name).toBeDefined();
  const manifest = nuget.updateManifest(files, use, target);
  const updated = 'files' in manifest ? { ...files, ...manifest.files } : files;
  const locks = await nuget.updateLockfiles?.({ files, updated, use, target: described(use.name, target), registries: [] });
  return { manifest, locks };
}

/** `text` with the entry `"<id>": {` … of a lock file rewritten to resolve `to` (requested, resolved and contentHash). */
function relocked(text: string, id: string, from: string, to: string, requested = to): string {
  const start = text.indexOf(`"${id}": {`);
  const end = text.indexOf('}', start);
  const entry = text.slice(start, end);
  const changed = entry
    .replace(`"requested": "[${from}, )"`, `"requested": "[${requested}, )"`)
    .replace(`"resolved": "${from}"`, `"resolved": "${to}"`)
    .replace(/"contentHash": "[^"]+"/, `"contentHash": "${HASH}"`);
  return text.slice(0, start) + changed + text.slice(end);
}

const tree = fixtureTree('nuget/solution-tree');
const root = directoryFiles(tree, '/');
const samples = directoryFiles(tree, '/samples');
const build = directoryFiles(tree, '/build');

describe('nuget solutions (.sln)', () => {
  it('makes a directory holding only a solution a NuGet directory', () => {
    expect(unmetRequirement(nuget.files.required, ['Contoso.sln'])).toBeUndefined();
    expect(unmetRequirement(nuget.files.required, ['Samples.slnx'])).toBeUndefined();
    expect(unmetRequirement(nuget.files.required, ['All.proj'])).toBeUndefined();
    expect(unmetRequirement(nuget.files.required, ['README.md', 'src/App.sln'])).toEqual(expect.arrayContaining(['*.sln']));
  });
  it('names the projects the solution lists as related, then their own directory files', () => {
    const first = listed(nuget.files.related?.({ 'Contoso.sln': tree['Contoso.sln'] ?? '' }));
    expect(first).toEqual(['src/App/App.csproj', 'test/App.Tests/App.Tests.fsproj']);
    const second = nuget.files.related?.({ 'Contoso.sln': '', 'src/App/App.csproj': '<Project />' }) ?? [];
    expect(second).toEqual(
      expect.arrayContaining([
        'src/App/packages.config',
        'src/App/packages.lock.json',
        'src/App/Directory.Packages.props',
        'src/App/Directory.Build.props',
        'src/Directory.Build.props',
        'src/Directory.Build.targets',
        '../Directory.Packages.props',
        `${'../'.repeat(8)}Directory.Build.props`,
      ]),
    );
    expect(second).not.toContain(`${'../'.repeat(9)}Directory.Build.props`);
    expect(Object.keys(root).sort()).toEqual([
      'Contoso.sln',
      'Directory.Build.props',
      'Directory.Packages.props',
      'src/App/App.csproj',
      'src/App/packages.lock.json',
      'src/Directory.Build.props',
      'test/App.Tests/App.Tests.fsproj',
      'test/App.Tests/packages.lock.json',
    ]);
  });
  it("reads every project listed, central versions from each project's nearest Directory.Packages.props", () => {
    expect(rows(listChecked(nuget, root))).toEqual([
      ['Contoso.Unused', 'runtime', '2.0.0', '2.0.0'],
      ['Contoso.Analyzers', 'development', '0.9.4', '0.9.4'],
      ['Contoso.Logging', 'runtime', '3.1.1', '3.1.1'],
      ['Contoso.Http', 'runtime', '7.0.2', '7.0.2'],
      ['Contoso.Text', 'runtime', '1.2.3', '1.2.3'],
      ['xunit.v3', 'runtime', '1.0.1', '1.0.1'],
      ['Shouldly', 'runtime', '4.2.0', '4.2.0'],
    ]);
    expect(nuget.findDependency(root, 'contoso.logging')).toMatchObject({ manifest: 'Directory.Packages.props', type: 'runtime' });
    // the property of the project's own src/Directory.Build.props, which imports the root's
    expect(nuget.findDependency(root, 'Contoso.Text')).toMatchObject({ manifest: 'src/App/App.csproj', requirement: '1.2.3' });
    // the first declaration (the test project's VersionOverride) gives the requirement, its lock the version
    expect(nuget.findDependency(root, 'Shouldly')).toEqual({
      name: 'Shouldly',
      type: 'runtime',
      requirement: '4.2.0',
      version: '4.2.0',
      manifest: 'test/App.Tests/App.Tests.fsproj',
    });
  });
  it('rewrites the central entry once for every project that takes it', async () => {
    const { manifest, locks } = await update(root, 'Contoso.Logging', '3.2.0');
    const central = root['Directory.Packages.props'] ?? '';
    expect(manifest).toEqual({
      files: { 'Directory.Packages.props': central.replace('"Contoso.Logging" Version="3.1.1"', '"Contoso.Logging" Version="3.2.0"') },
      requirement: '3.2.0',
    });
    const app = root['src/App/packages.lock.json'] ?? '';
    const tests = root['test/App.Tests/packages.lock.json'] ?? '';
    expect(locks).toEqual({
      files: {
        'src/App/packages.lock.json': relocked(app, 'Contoso.Logging', '3.1.1', '3.2.0'),
        'test/App.Tests/packages.lock.json': relocked(tests, 'Contoso.Logging', '3.1.1', '3.2.0').replace(
          '"Contoso.Logging": "[3.1.1, )"',
          '"Contoso.Logging": "[3.2.0, )"',
        ),
      },
    });
  });
  it("rewrites a project's VersionOverride and the central entry, each file under its key", async () => {
    const { manifest, locks } = await update(root, 'Shouldly', '4.3.0');
    expect(manifest).toEqual({
      files: {
        'test/App.Tests/App.Tests.fsproj': (root['test/App.Tests/App.Tests.fsproj'] ?? '').replace(
          'VersionOverride="4.2.0"',
          'VersionOverride="4.3.0"',
        ),
        'Directory.Packages.props': (root['Directory.Packages.props'] ?? '').replace(
          '"Shouldly" Version="4.2.1"',
          '"Shouldly" Version="4.3.0"',
        ),
      },
      requirement: '4.3.0',
    });
    expect(locks).toEqual({
      files: {
        'test/App.Tests/packages.lock.json': relocked(root['test/App.Tests/packages.lock.json'] ?? '', 'Shouldly', '4.2.0', '4.3.0'),
      },
    });
  });
  it("moves a property of the project's Directory.Build.props, and the range a referencing project's lock gives it", async () => {
    const { manifest, locks } = await update(root, 'Contoso.Text', '1.3.0');
    expect(manifest).toEqual({
      files: { 'src/Directory.Build.props': (root['src/Directory.Build.props'] ?? '').replace('1.2.3', '1.3.0') },
      requirement: '1.3.0',
    });
    expect(locks).toEqual({
      files: {
        'src/App/packages.lock.json': relocked(root['src/App/packages.lock.json'] ?? '', 'Contoso.Text', '1.2.3', '1.3.0'),
        'test/App.Tests/packages.lock.json': (root['test/App.Tests/packages.lock.json'] ?? '').replace(
          '"Contoso.Text": "[1.2.3, )"',
          '"Contoso.Text": "[1.3.0, )"',
        ),
      },
    });
  });
  it("names a project's lock file when it cannot be updated", async () => {
    const use = nuget.findDependency(root, 'Contoso.Http') as DependencyUse;
    const manifest = nuget.updateManifest(root, use, '7.1.0') as { files: Files };
    const result = await nuget.updateLockfiles?.({
      files: root,
      updated: { ...root, ...manifest.files },
      use,
      target: { ...described('Contoso.Http', '7.1.0'), artifacts: [] },
      registries: [],
    });
    expect(result).toEqual({ needsResolution: expect.stringMatching(/^src\/App\/packages\.lock\.json: .*SHA-512/) });
  });
  it('reads a solution in src/ when the directory holds only Directory.Packages.props (Dependabot’s fallback)', () => {
    const cpmRoot = { 'Directory.Packages.props': tree['Directory.Packages.props'] ?? '' };
    expect(nuget.files.related?.(cpmRoot)).toContain('src/*.sln');
    expect(nuget.files.related?.({ ...cpmRoot, 'Contoso.sln': '' })).not.toContain('src/*.sln');
    expect(nuget.files.related?.({ ...cpmRoot, 'App.csproj': '<Project />' })).not.toContain('src/*.sln');
    const sln =
      'Project("{9A19103F-16F7-4668-BE54-9A1E7A4F7556}") = "App", "App\\App.csproj", "{7C1B3E0A-5D21-4F0B-9E7A-1A2B3C4D5E02}"\nEndProject\n';
    const files = { ...cpmRoot, 'src/Contoso.sln': sln };
    expect(nuget.files.related?.(files)).toContain('src/App/App.csproj');
    const read = { ...files, 'src/App/App.csproj': tree['src/App/App.csproj'] ?? '' };
    expect(nuget.findDependency(read, 'Contoso.Text')).toMatchObject({ manifest: 'src/App/App.csproj', requirement: null });
    expect(nuget.findDependency(read, 'Contoso.Unused')).toMatchObject({ type: 'runtime' });
  });
});

describe('nuget solutions (.slnx)', () => {
  it('reads the <Project Path> entries, folders included, projects above the directory too', () => {
    expect(listed(nuget.files.related?.({ 'Samples.slnx': tree['samples/Samples.slnx'] ?? '' }))).toEqual([
      'Console/Console.csproj',
      '../src/App/App.csproj',
    ]);
    expect(Object.keys(samples).sort()).toEqual([
      '../Directory.Build.props',
      '../Directory.Packages.props',
      '../src/App/App.csproj',
      '../src/App/packages.lock.json',
      '../src/Directory.Build.props',
      'Console/Console.csproj',
      'Console/Directory.Packages.props',
      'Samples.slnx',
    ]);
    expect(rows(listChecked(nuget, samples))).toEqual([
      ['Contoso.Analyzers', 'development', '0.9.4', '0.9.4'],
      ['Contoso.Logging', 'runtime', '3.2.0', '3.2.0'],
      ['Contoso.Cli', 'runtime', '[1.0,2.0)', null],
      ['Contoso.Http', 'runtime', '7.0.2', '7.0.2'],
      ['Contoso.Text', 'runtime', '1.2.3', '1.2.3'],
    ]);
    expect(nuget.findDependency(samples, 'Contoso.Logging')).toMatchObject({ manifest: 'Console/Directory.Packages.props' });
  });
  it('rewrites the central entry nearest to each project, and the lock above', async () => {
    const { manifest, locks } = await update(samples, 'Contoso.Logging', '3.3.0');
    expect(manifest).toEqual({
      files: {
        'Console/Directory.Packages.props': (samples['Console/Directory.Packages.props'] ?? '').replace('3.2.0', '3.3.0'),
        '../Directory.Packages.props': (samples['../Directory.Packages.props'] ?? '').replace(
          '"Contoso.Logging" Version="3.1.1"',
          '"Contoso.Logging" Version="3.3.0"',
        ),
      },
      requirement: '3.3.0',
    });
    expect(locks).toEqual({
      files: {
        '../src/App/packages.lock.json': relocked(samples['../src/App/packages.lock.json'] ?? '', 'Contoso.Logging', '3.1.1', '3.3.0'),
      },
    });
  });
  it('refuses a .slnx that is not well-formed when reading, and names nothing from it as related', () => {
    const files = { 'Broken.slnx': '<Solution><Project Path="A/A.csproj"></Solution>' };
    expect(listed(nuget.files.related?.(files))).toEqual([]);
    expect(() => nuget.listDependencies(files)).toThrow(ManifestParseError);
    expect(() => nuget.listDependencies({ 'Other.slnx': '<Project />' })).toThrow(
      expect.objectContaining({ file: 'Other.slnx', reason: expect.stringContaining('not <Solution>') }),
    );
  });
});

describe('nuget traversal projects (.proj)', () => {
  it('follows <ProjectReference> and <ProjectFile> items, nested traversal projects too', () => {
    expect(Object.keys(build).sort()).toEqual([
      '../Directory.Build.props',
      '../Directory.Packages.props',
      '../src/App/App.csproj',
      '../src/App/packages.lock.json',
      '../src/Directory.Build.props',
      '../tools/Legacy/Legacy.csproj',
      '../tools/Legacy/packages.config',
      '../tools/Tools.proj',
      'All.proj',
    ]);
    expect(rows(listChecked(nuget, build))).toEqual([
      ['Contoso.Analyzers', 'development', '0.9.4', '0.9.4'],
      ['Contoso.Logging', 'runtime', '3.1.1', '3.1.1'],
      ['Contoso.Http', 'runtime', '7.0.2', '7.0.2'],
      ['Contoso.Text', 'runtime', '1.2.3', '1.2.3'],
      ['Contoso.Legacy', 'runtime', '2.4.0', '2.4.0'],
    ]);
    expect(nuget.findDependency(build, 'Contoso.Legacy')).toMatchObject({ manifest: '../tools/Legacy/packages.config' });
  });
  it('updates the packages.config of a referenced project beside the central entry of another (every declaration)', async () => {
    const { manifest } = await update(build, 'Contoso.Logging', '3.2.0');
    expect(manifest).toEqual({
      files: {
        '../Directory.Packages.props': (build['../Directory.Packages.props'] ?? '').replace(
          '"Contoso.Logging" Version="3.1.1"',
          '"Contoso.Logging" Version="3.2.0"',
        ),
        '../tools/Legacy/packages.config': (build['../tools/Legacy/packages.config'] ?? '').replace('version="3.0.0"', 'version="3.2.0"'),
      },
      requirement: '3.2.0',
    });
    const again = locateNuGet({ ...build, ...('files' in manifest ? manifest.files : {}) }, 'Contoso.Logging');
    if ('cannot' in again) throw new Error(again.cannot);
    for (const declaration of again.declarations) expect(nugetAllows('3.2.0', declaration.requirement ?? '')).toBe(true);
  });
  it('expands wildcards below the directory (a ** segment to three levels) and skips properties and those above', () => {
    const proj = `<Project Sdk="Microsoft.Build.Traversal">
  <ItemGroup>
    <ProjectReference Include="src\\**\\*.csproj;tools\\*\\*.fsproj" />
    <ProjectReference Include="..\\other\\*\\*.csproj" />
    <ProjectReference Include="$(RepoRoot)eng\\Build.proj" />
    <ProjectReference Include="docs\\Docs.shproj" />
    <ProjectFile Include="samples\\Sample.vbproj" />
  </ItemGroup>
</Project>`;
    expect(nuget.files.related?.({ 'dirs.proj': proj })).toEqual(
      expect.arrayContaining([
        'src/*.csproj',
        'src/*/*.csproj',
        'src/*/*/*.csproj',
        'src/*/*/*/*.csproj',
        'tools/*/*.fsproj',
        'samples/Sample.vbproj',
      ]),
    );
    const related = nuget.files.related?.({ 'dirs.proj': proj }) ?? [];
    expect(related.filter((path) => path.includes('other') || path.includes('eng') || path.includes('Docs'))).toEqual([]);
    const files = {
      'dirs.proj': proj,
      'src/B/B.csproj': '<Project><ItemGroup><PackageReference Include="Beta" Version="2.0.0" /></ItemGroup></Project>',
      'src/A/A.csproj': '<Project><ItemGroup><PackageReference Include="Alpha" Version="1.0.0" /></ItemGroup></Project>',
    };
    expect(nuget.listDependencies(files).map((use) => [use.name, use.manifest])).toEqual([
      ['Alpha', 'src/A/A.csproj'],
      ['Beta', 'src/B/B.csproj'],
    ]);
  });
});
