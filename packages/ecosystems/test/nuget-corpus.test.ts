import { describe, expect, it } from 'vitest';
import { nuget } from '../src/index.ts';
import { CORPUS_PRESENT, corpusDirectories } from './corpus.ts';
import { listChecked } from './invariant.ts';

/** The ids of the `<PackageVersion Include="…">` entries of a Directory.Packages.props text. */
const packageVersions = (text: string) => [...text.matchAll(/<PackageVersion\s+Include="([^"]+)"/g)].map((m) => m[1] as string);

describe.runIf(CORPUS_PRESENT)('nuget corpus (central package management)', () => {
  const directories = corpusDirectories(nuget);
  const byLabel = (label: string) => directories.find((d) => d.label === label);

  it.each(['App-vNext/Polly/.', 'jellyfin/jellyfin/.'])(
    '%s: a root holding Directory.Packages.props lists its PackageVersion entries',
    (label) => {
      const root = byLabel(label);
      expect(root, label).toBeDefined();
      const files = root?.files ?? {};
      const listed = listChecked(nuget, files).map((use) => use.name);
      const entries = packageVersions(files['Directory.Packages.props'] ?? '');
      expect(entries.length).toBeGreaterThan(20);
      expect(listed).toEqual(expect.arrayContaining(entries));
      for (const use of listChecked(nuget, files)) if (entries.includes(use.name)) expect(use.requirement, use.name).not.toBeNull();
    },
  );

  it('projects below take their versions from the parent Directory.Packages.props', () => {
    const projects = directories.filter((d) => /^(App-vNext\/Polly|jellyfin\/jellyfin)\/.+/.test(d.label) && !d.label.endsWith('/.'));
    expect(projects.map((d) => d.label).sort()).toEqual([
      'App-vNext/Polly/samples/Intro.FSharp',
      'App-vNext/Polly/samples/Intro.VisualBasic',
      'App-vNext/Polly/src/Polly.Core',
      'App-vNext/Polly/test/Polly.Core.Tests',
      'jellyfin/jellyfin/Jellyfin.Server',
    ]);
    for (const { label, files } of projects) {
      const central = Object.keys(files).find((key) => key.endsWith('../Directory.Packages.props'));
      expect(central, label).toBeDefined();
      const entries = new Set(packageVersions(files[central as string] ?? '').map((id) => id.toLowerCase()));
      const listed = listChecked(nuget, files);
      expect(listed.length, label).toBeGreaterThan(0);
      for (const use of listed) {
        if (entries.has(use.name.toLowerCase())) expect(use.requirement, `${label} ${use.name}`).not.toBeNull();
      }
      // a directory lists the entries its projects reference, not the whole central file
      expect(listed.length, label).toBeLessThan(entries.size);
    }
  });

  it("Polly's project directories take the MSBuild SDK of the root global.json, found walking up", () => {
    const core = byLabel('App-vNext/Polly/src/Polly.Core');
    expect(Object.keys(core?.files ?? {})).toContain('../../global.json');
    const cake = nuget.findDependency(core?.files ?? {}, 'cake.sdk');
    expect(cake).toMatchObject({ name: 'Cake.Sdk', type: 'development', manifest: '../../global.json' });
    expect(cake?.requirement).not.toBeNull();
  });

  it('every corpus directory updates each dependency with a requirement to its next patch, in the file that supplies it', () => {
    for (const { label, files } of directories) {
      for (const use of listChecked(nuget, files)) {
        if (use.requirement === null) continue;
        const lowest = nuget.versions.lowestAllowed?.(use.requirement);
        const release = lowest ? nuget.versions.release?.(lowest) : undefined;
        if (!release) continue;
        const target = `${release[0]}.${release[1]}.${release[2] + 1}`;
        const result = nuget.updateManifest(files, use, target);
        expect('cannot' in result ? result.cannot : '', `${label} ${use.name}`).toBe('');
        if ('files' in result) for (const file of Object.keys(result.files)) expect(files[file], file).toBeDefined();
      }
    }
  });
});
