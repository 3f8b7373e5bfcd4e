import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type DependencyUse, normaliseNuGetVersion, nuget, nugetVersions, parseNuGetVersion } from '../src/index.ts';
import { caseVariants } from '../src/nuget/files.ts';
import { locateNuGet, nugetAllows } from '../src/nuget/update.ts';
import { normalisedNuGetRange } from '../src/nuget/versions.ts';

const number = fc.oneof(fc.nat(20), fc.nat(3_000_000_000));
const label = fc.oneof(
  fc.constantFrom('alpha', 'Alpha', 'beta', 'BETA', 'rc', 'preview', 'x-y'),
  fc.nat(30).map(String),
  fc.stringMatching(/^[a-zA-Z][0-9A-Za-z-]{0,5}$/),
);
/** NuGet versions as people write them: 1 to 4 numbers (some with leading zeros), labels, build metadata. */
const version = fc
  .record({
    numbers: fc.array(number, { minLength: 1, maxLength: 4 }),
    zeros: fc.boolean(),
    pre: fc.array(label, { maxLength: 3 }),
    build: fc.option(fc.stringMatching(/^[0-9A-Za-z]{1,6}$/), { nil: undefined }),
  })
  .map(({ numbers, zeros, pre, build }) => {
    const core = numbers.map((n, i) => (zeros && i === 1 ? `0${n}` : String(n))).join('.');
    return `${core}${pre.length ? `-${pre.join('.')}` : ''}${build ? `+${build}` : ''}`;
  });

describe('NuGet version scheme properties', () => {
  it('generated versions are valid', () => {
    fc.assert(
      fc.property(version, (v) => {
        expect(nugetVersions.isValid(v), v).toBe(true);
      }),
    );
  });
  it('ordering is total and antisymmetric', () => {
    fc.assert(
      fc.property(version, version, (a, b) => {
        const ab = Math.sign(nugetVersions.compare(a, b));
        const ba = Math.sign(nugetVersions.compare(b, a));
        expect(ab + ba).toBe(0);
        expect(nugetVersions.compare(a, a)).toBe(0);
      }),
      { numRuns: 500 },
    );
  });
  it('ordering is transitive', () => {
    fc.assert(
      fc.property(version, version, version, (a, b, c) => {
        const [x, y, z] = [a, b, c].sort(nugetVersions.compare) as [string, string, string];
        expect(nugetVersions.compare(x, y)).toBeLessThanOrEqual(0);
        expect(nugetVersions.compare(y, z)).toBeLessThanOrEqual(0);
        expect(nugetVersions.compare(x, z)).toBeLessThanOrEqual(0);
      }),
      { numRuns: 500 },
    );
  });
  it('normalising keeps the version, and printing the normal form round-trips', () => {
    fc.assert(
      fc.property(version, (v) => {
        const normal = normaliseNuGetVersion(v) as string;
        expect(nugetVersions.compare(normal, v)).toBe(0);
        expect(normaliseNuGetVersion(normal)).toBe(normal);
        expect(parseNuGetVersion(normal)?.pre).toEqual(parseNuGetVersion(v)?.pre);
      }),
      { numRuns: 500 },
    );
  });
  it('a pin rewritten to any valid target reads back as that target', () => {
    fc.assert(
      fc.property(version, version, (from, to) => {
        const csproj = `<Project>\r\n  <ItemGroup>\r\n    <PackageReference Include="Pkg" Version="${from}" />\r\n  </ItemGroup>\r\n</Project>\r\n`;
        const files = { 'App.csproj': csproj };
        const use = nuget.findDependency(files, 'pkg');
        if (!use) throw new Error('not found');
        const result = nuget.updateManifest(files, use, to);
        if (nugetVersions.compare(from, to) === 0) expect(result).toHaveProperty('unchanged');
        else expect(result).toEqual({ files: { 'App.csproj': csproj.replace(`"${from}"`, `"${to}"`) }, requirement: to });
      }),
      { numRuns: 200 },
    );
  });
  it('a central version or the property it names, at any depth above the project, moves only inside its span', () => {
    const small = fc.nat(12);
    const plain = fc.tuple(small, small, small).map(([a, b, c]) => `${a}.${b}.${c}`);
    const requirement = fc.oneof(
      plain,
      plain.map((v) => `[${v}]`),
      fc.tuple(small, small).map(([a, b]) => `[${a}.${b},${a + 1 + (b % 3)}.0)`),
      small.map((a) => `${a}.*`),
      fc.tuple(small, small).map(([a, b]) => `${a}.${b}.*`),
      fc.tuple(small, small).map(([a, b]) => `${a}.${b}.*-*`),
      plain.map((v) => `${v}-beta*`),
    );
    const target = fc.oneof(
      plain,
      fc.tuple(plain, fc.constantFrom('beta.1', 'rc.2')).map(([v, l]) => `${v}-${l}`),
      version,
    );
    const layout = fc.record({
      centralDepth: fc.nat(3),
      propsDepth: fc.option(fc.nat(3), { nil: undefined }),
      crlf: fc.boolean(),
    });
    fc.assert(
      fc.property(layout, requirement, target, ({ centralDepth, propsDepth, crlf }, written, to) => {
        const nl = crlf ? '\r\n' : '\n';
        const central = `${'../'.repeat(centralDepth)}Directory.Packages.props`;
        const props = propsDepth === undefined ? undefined : `${'../'.repeat(propsDepth)}Directory.Build.props`;
        const value = props ? '$(PkgVersion)' : written;
        const files: Record<string, string> = {
          'App.csproj': `<Project Sdk="Microsoft.NET.Sdk">${nl}  <ItemGroup>${nl}    <PackageReference Include="pkg" />${nl}    <PackageReference Include="Other" />${nl}  </ItemGroup>${nl}</Project>${nl}`,
          [central]:
            `<Project>${nl}  <PropertyGroup>${nl}    <ManagePackageVersionsCentrally>true</ManagePackageVersionsCentrally>${nl}  </PropertyGroup>${nl}` +
            `  <ItemGroup>${nl}    <PackageVersion Include="Other" Version="1.0.0" />${nl}    <PackageVersion Include="Pkg" Version="${value}" />${nl}  </ItemGroup>${nl}</Project>${nl}`,
        };
        if (props)
          files[props] =
            `<Project>${nl}  <PropertyGroup>${nl}    <PkgVersion>${written}</PkgVersion>${nl}  </PropertyGroup>${nl}</Project>${nl}`;
        const edited = props ?? central;
        const before = files[edited] ?? '';
        const start = props ? before.indexOf('<PkgVersion>') + '<PkgVersion>'.length : before.indexOf(`"${written}"`) + 1;
        const end = start + written.length;
        const use = nuget.findDependency(files, 'PKG') as DependencyUse;
        expect(use).toMatchObject({ name: 'Pkg', requirement: written, manifest: central });
        const result = nuget.updateManifest(files, use, to);
        if ('files' in result) {
          expect(Object.keys(result.files)).toEqual([edited]);
          const after = result.files[edited] ?? '';
          expect(after.slice(0, start)).toBe(before.slice(0, start));
          expect(after.slice(after.length - (before.length - end))).toBe(before.slice(end));
          expect(after.slice(start, after.length - (before.length - end))).toBe(result.requirement);
          expect(nugetAllows(to, result.requirement ?? '')).toBe(true);
          expect(nuget.findDependency({ ...files, ...result.files }, 'pkg')?.requirement).toBe(result.requirement);
        } else if ('unchanged' in result) {
          expect(nugetAllows(to, written)).toBe(true);
        } else {
          expect(nugetAllows(to, written)).toBe(false);
        }
      }),
      { numRuns: 300 },
    );
  });
  it('a packages.lock.json update changes only the locked strings of the package and locks the target', async () => {
    const hash = Buffer.from('cd'.repeat(64), 'hex').toString('base64');
    await fc.assert(
      fc.asyncProperty(version, version, fc.boolean(), async (from, to, crlf) => {
        fc.pre(nugetVersions.compare(from, to) !== 0);
        const nl = crlf ? '\r\n' : '\n';
        const files = {
          'App.csproj': `<Project><ItemGroup><PackageReference Include="Pkg" Version="${from}" /></ItemGroup></Project>`,
          'packages.lock.json': [
            '{',
            '  "version": 1,',
            '  "dependencies": {',
            '    "net8.0": {',
            '      "Pkg": {',
            '        "type": "Direct",',
            `        "requested": "[${normaliseNuGetVersion(from)}, )",`,
            `        "resolved": "${normaliseNuGetVersion(from)}",`,
            `        "contentHash": "${'x'.repeat(88)}"`,
            '      }',
            '    }',
            '  }',
            '}',
          ].join(nl),
        };
        const use = nuget.findDependency(files, 'pkg') as DependencyUse;
        const manifest = nuget.updateManifest(files, use, to) as { files: Record<string, string> };
        const updated = { ...files, ...manifest.files };
        const target = {
          name: 'Pkg',
          version: to,
          dependencies: [],
          artifacts: [
            {
              filename: 'pkg.nupkg',
              url: 'https://example.test/pkg.nupkg',
              digests: [{ algorithm: 'sha512' as const, value: 'cd'.repeat(64), encoding: 'hex' as const }],
            },
          ],
        };
        const result = await nuget.updateLockfiles?.({ files, updated, use, target, registries: [] });
        const normal = normaliseNuGetVersion(to) as string;
        const expected = (files['packages.lock.json'] ?? '')
          .replace(`"[${normaliseNuGetVersion(from)}, )"`, `"[${normal}, )"`)
          .replace(`"resolved": "${normaliseNuGetVersion(from)}"`, `"resolved": "${normal}"`)
          .replace('x'.repeat(88), hash);
        expect(result).toEqual({ files: { 'packages.lock.json': expected } });
        expect(nuget.findDependency({ ...updated, ...(result as { files: Record<string, string> }).files }, 'pkg')?.version).toBe(normal);
      }),
      { numRuns: 100 },
    );
  });
});

describe('NuGet tool manifests, project SDKs, imports and Directory.* spellings', () => {
  /** Where Pkg's version is written: each new kind of file the reader follows. */
  const kind = fc.constantFrom(
    'tool-manifest',
    'parent-tool-manifest',
    'global-json',
    'project-sdk',
    'sdk-element',
    'import-sdk',
    'imported-property',
    'directory-spelling',
  );
  const spelling = fc.constantFrom(...caseVariants('Directory.Build.props'), ...caseVariants('Directory.Build.targets'));

  /** The files of a generated layout, the file that holds Pkg's version and where the version starts in it. */
  function layout(
    where: string,
    depth: number,
    name: string,
    from: string,
    nl: string,
  ): { files: Record<string, string>; file: string; start: number } {
    const up = '../'.repeat(depth);
    const project = (head: string, body: string) =>
      `${head}${nl}${body}${nl}  <ItemGroup>${nl}    <PackageReference Include="Other" Version="1.0.0" />${nl}  </ItemGroup>${nl}</Project>${nl}`;
    const at = (file: string, before: string, after: string, others: Record<string, string> = {}) => ({
      files: { 'App.csproj': project('<Project Sdk="Microsoft.NET.Sdk">', ''), ...others, [file]: `${before}${from}${after}` },
      file,
      start: before.length,
    });
    const tools = (file: string) =>
      at(
        file,
        `{${nl}  "version": 1,${nl}  "tools": {${nl}    "pkg": {${nl}      "version": "`,
        `",${nl}      "commands": ["pkg"]${nl}    }${nl}  }${nl}}${nl}`,
      );
    const propertyUse = project(
      '<Project Sdk="Microsoft.NET.Sdk">',
      `  <ItemGroup>${nl}    <PackageReference Include="Pkg" Version="$(PkgVersion)" />${nl}  </ItemGroup>`,
    );
    const properties = `<Project>${nl}  <PropertyGroup>${nl}    <PkgVersion>`;
    const propertiesEnd = `</PkgVersion>${nl}  </PropertyGroup>${nl}</Project>${nl}`;
    switch (where) {
      case 'tool-manifest':
        return tools(depth % 2 === 0 ? '.config/dotnet-tools.json' : 'dotnet-tools.json');
      case 'parent-tool-manifest':
        return tools(`../${up}${depth % 2 === 0 ? '.config/' : ''}dotnet-tools.json`);
      case 'global-json':
        return at(
          `${up}global.json`,
          `{${nl}  "sdk": { "version": "8.0.100" },${nl}  "msbuild-sdks": {${nl}    "Pkg": "`,
          `"${nl}  }${nl}}${nl}`,
        );
      case 'project-sdk':
        return at('App.csproj', `<Project Sdk="Microsoft.NET.Sdk; ${name}/`, `">${nl}</Project>${nl}`);
      case 'sdk-element':
        return at('App.csproj', `<Project>${nl}  <Sdk Name="${name}" Version="`, `" />${nl}</Project>${nl}`);
      case 'import-sdk':
        return at('App.csproj', `<Project>${nl}  <Import Project="Sdk.props" Sdk="${name}" Version="`, `" />${nl}</Project>${nl}`);
      case 'imported-property': {
        const head = `<Project Sdk="Microsoft.NET.Sdk">${nl}  <Import Project="$(MSBuildThisFileDirectory)${'..\\'.repeat(depth)}eng\\Versions.props" />`;
        return {
          ...at(`${up}eng/Versions.props`, properties, propertiesEnd),
          files: {
            'App.csproj': project(
              head,
              `  <ItemGroup>${nl}    <PackageReference Include="Pkg" Version="$(PkgVersion)" />${nl}  </ItemGroup>`,
            ),
            [`${up}eng/Versions.props`]: `${properties}${from}${propertiesEnd}`,
          },
        };
      }
      default:
        return {
          ...at(`${up}${name}`, properties, propertiesEnd),
          files: { 'App.csproj': propertyUse, [`${up}${name}`]: `${properties}${from}${propertiesEnd}` },
        };
    }
  }

  it('an update changes only the version span, in the file that holds it, and the new requirement allows the target', () => {
    fc.assert(
      fc.property(kind, fc.nat(3), spelling, version, version, fc.boolean(), (where, depth, spelled, from, to, crlf) => {
        const name = where === 'directory-spelling' ? spelled : 'Pkg';
        const { files, file, start } = layout(where, depth, name, from, crlf ? '\r\n' : '\n');
        const use = nuget.findDependency(files, 'PKG') as DependencyUse;
        expect(use, where).toMatchObject({
          requirement: from,
          manifest: where.includes('property') || where === 'directory-spelling' ? 'App.csproj' : file,
        });
        const result = nuget.updateManifest(files, use, to);
        if (nugetVersions.compare(from, to) === 0) {
          expect(result).toHaveProperty('unchanged');
          return;
        }
        const before = files[file] ?? '';
        expect(result).toEqual({
          files: { [file]: `${before.slice(0, start)}${to}${before.slice(start + from.length)}` },
          requirement: to,
        });
        expect(nugetAllows(to, to)).toBe(true);
        expect(nuget.findDependency({ ...files, ...(result as { files: Record<string, string> }).files }, 'pkg')?.requirement).toBe(to);
      }),
      { numRuns: 300 },
    );
  });
});

describe('NuGet solution properties', () => {
  const small = fc.nat(9);
  const plain = fc.tuple(small, small, small).map(([a, b, c]) => `${a}.${b}.${c}`);
  /** Requirements a lock file can record as written: a minimum, an exact version, an interval. */
  const requirement = fc.oneof(
    plain,
    plain.map((v) => `[${v}]`),
    fc.tuple(small, small).map(([a, b]) => `[${a}.${b},${a + 1 + (b % 3)}.0)`),
  );
  /** One project of a generated solution: where it is, how it declares Pkg, and whether its directory has a nearer central file. */
  const project = fc.record({
    folder: fc.constantFrom('src', 'test', 'src/nested', '..', '../ext'),
    mode: fc.constantFrom('central', 'version', 'override'),
    written: requirement,
    nearer: fc.option(requirement, { nil: undefined }),
  });
  const solution = fc.record({
    projects: fc.array(project, { minLength: 1, maxLength: 4 }),
    central: requirement,
    backslashes: fc.boolean(),
    crlf: fc.boolean(),
    target: plain,
  });

  /** The lowest version a generated requirement allows, normalised (what a lock file resolves for it). */
  const lowest = (written: string) => normaliseNuGetVersion(nugetVersions.lowestAllowed?.(written) ?? '') as string;

  it('an update changes only requirement spans, every new requirement allows the target, and every lock agrees', async () => {
    await fc.assert(
      fc.asyncProperty(solution, async ({ projects, central, backslashes, crlf, target }) => {
        const nl = crlf ? '\r\n' : '\n';
        const files: Record<string, string> = {
          'Directory.Packages.props': `<Project>${nl}  <ItemGroup>${nl}    <PackageVersion Include="Pkg" Version="${central}" />${nl}  </ItemGroup>${nl}</Project>${nl}`,
        };
        const lines = ['Microsoft Visual Studio Solution File, Format Version 12.00'];
        /** Each project's directory, file, and the file that gives its requirement (what the update edits). */
        const layout = projects.map((p, i) => {
          const dir = `${p.folder}/P${i}`;
          const file = `${dir}/P${i}.csproj`;
          const attribute = p.mode === 'central' ? '' : ` ${p.mode === 'version' ? 'Version' : 'VersionOverride'}="${p.written}"`;
          files[file] =
            `<Project Sdk="Microsoft.NET.Sdk">${nl}  <ItemGroup>${nl}    <PackageReference Include="Pkg"${attribute} />${nl}  </ItemGroup>${nl}</Project>${nl}`;
          const listed = backslashes ? file.replace(/\//g, '\\') : file;
          lines.push(
            `Project("{FAE04EC0-301F-11D3-BF4B-00C04F79EFBC}") = "P${i}", "${listed}", "{00000000-0000-0000-0000-00000000000${i}}"`,
            'EndProject',
          );
          // a nearer central file is only read for projects below the root's: above it the root's is not theirs
          const nearer = p.nearer !== undefined && !p.folder.startsWith('..');
          if (nearer) {
            files[`${dir}/Directory.Packages.props`] =
              `<Project>${nl}  <ItemGroup>${nl}    <PackageVersion Include="Pkg" Version="${p.nearer}" />${nl}  </ItemGroup>${nl}</Project>${nl}`;
          }
          const centralOf = nearer ? `${dir}/Directory.Packages.props` : p.folder.startsWith('..') ? undefined : 'Directory.Packages.props';
          const seen = p.mode === 'central' ? (nearer ? p.nearer : centralOf ? central : undefined) : p.written;
          return { dir, file, centralOf, seen };
        });
        files['All.sln'] = lines.join(nl);
        for (const { dir, seen } of layout) {
          if (seen === undefined || files[`${dir}/packages.lock.json`] !== undefined) continue;
          files[`${dir}/packages.lock.json`] = JSON.stringify(
            {
              version: 1,
              dependencies: {
                'net8.0': {
                  Pkg: { type: 'Direct', requested: normalisedNuGetRange(seen), resolved: lowest(seen), contentHash: 'x'.repeat(88) },
                },
              },
            },
            null,
            2,
          );
        }
        // the root's own Directory.Packages.props lists its entry even when no project below takes it
        const use = nuget.findDependency(files, 'pkg');
        if (!use) throw new Error('Pkg not found');
        const result = nuget.updateManifest(files, use, target);
        const before = locateNuGet(files, 'pkg');
        if ('cannot' in before) throw new Error(before.cannot);
        if ('cannot' in result) {
          // only a lower bound above the target is refused
          expect(
            before.declarations.some(
              (d) => !nugetAllows(target, d.requirement ?? '') && nugetVersions.compare(lowest(d.requirement ?? ''), target) >= 0,
            ),
          ).toBe(true);
          return;
        }
        const updated = 'files' in result ? { ...files, ...result.files } : files;
        const after = locateNuGet(updated, 'pkg');
        if ('cannot' in after) throw new Error(after.cannot);
        for (const declaration of after.declarations)
          expect(nugetAllows(target, declaration.requirement ?? ''), declaration.file).toBe(true);
        if ('files' in result) {
          for (const [file, text] of Object.entries(result.files)) {
            const spans = (located: typeof before) =>
              ('cannot' in located ? [] : located.declarations)
                .filter((d) => d.file === file)
                .flatMap((d) => d.parts)
                .sort((a, b) => a.start - b.start);
            const outside = (source: string, list: { start: number; end: number }[]) => {
              const pieces: string[] = [];
              let at = 0;
              for (const span of list) {
                pieces.push(source.slice(at, span.start));
                at = span.end;
              }
              return [...pieces, source.slice(at)];
            };
            expect(outside(text, spans(after)), file).toEqual(outside(files[file] ?? '', spans(before)));
          }
          expect(nuget.findDependency(updated, 'pkg')?.requirement).toBe(result.requirement);
        }
        const locks = await nuget.updateLockfiles?.({
          files,
          updated,
          use,
          target: {
            name: 'Pkg',
            version: target,
            dependencies: [],
            artifacts: [
              {
                filename: 'pkg.nupkg',
                url: 'https://example.test/pkg.nupkg',
                digests: [{ algorithm: 'sha512' as const, value: 'cd'.repeat(64), encoding: 'hex' as const }],
              },
            ],
          },
          registries: [],
        });
        if (!locks || 'needsResolution' in locks) throw new Error(locks?.needsResolution ?? 'no lock update');
        const final = { ...updated, ...locks.files };
        for (const { dir, seen } of layout) {
          const lock = final[`${dir}/packages.lock.json`];
          if (seen === undefined || lock === undefined) continue;
          const entry = JSON.parse(lock).dependencies['net8.0'].Pkg;
          // the project's requirement after the update, as its own directory reads it
          const now = projectDirectoryRequirement(final, dir);
          expect(entry.requested, dir).toBe(normalisedNuGetRange(now));
          expect(entry.resolved, dir).toBe(normaliseNuGetVersion(target));
        }
      }),
      { numRuns: 150 },
    );
  });
});

/** The requirement of Pkg that the projects of `dir` see (their directory read alone, as a config of its own). */
function projectDirectoryRequirement(files: Record<string, string>, dir: string): string {
  const view = Object.fromEntries(
    Object.entries(files).flatMap(([path, text]): [string, string][] => {
      if (path.startsWith(`${dir}/`) && !path.slice(dir.length + 1).includes('/')) return [[path.slice(dir.length + 1), text]];
      if (path === 'Directory.Packages.props') return [[`${'../'.repeat(dir.split('/').length)}Directory.Packages.props`, text]];
      return [];
    }),
  );
  return nuget.findDependency(view, 'pkg')?.requirement ?? '';
}
