import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DependencyUse } from '../src/ecosystem.ts';
import { gradle } from '../src/gradle/ecosystem.ts';
import { gradleVersions } from '../src/gradle/versions.ts';
import type { RegistryDependency } from '../src/registry-data.ts';

/** A generated build: declared modules (inline or through a shared `ext` property), lockfile-only modules, and an update. */
const build = fc
  .record({
    declared: fc.array(
      fc.record({
        minor: fc.nat(5),
        bump: fc.nat(2),
        property: fc.constantFrom(null, 0, 1),
      }),
      { minLength: 1, maxLength: 5 },
    ),
    properties: fc.tuple(fc.nat(5), fc.nat(5)),
    transitive: fc.array(fc.nat(4), { maxLength: 4 }),
    updated: fc.nat(10),
    targetStep: fc.integer({ min: 1, max: 3 }),
    targetPatch: fc.nat(3),
    crlf: fc.boolean(),
    dependencies: fc.array(
      fc.record({
        of: fc.nat(12),
        requirement: fc.constantFrom('plain', 'range', 'any'),
        minor: fc.nat(6),
        patch: fc.nat(3),
        kind: fc.constantFrom<RegistryDependency['kind']>('runtime', 'runtime', 'optional', 'dev'),
      }),
      { maxLength: 4 },
    ),
  })
  .map((g) => {
    const modules = g.declared.map((d, i) => {
      const minor = d.property === null ? d.minor : (g.properties[d.property] as number);
      const declared = `1.${minor}.0`;
      return { name: `org.m${i}:lib${i}`, declared, locked: `1.${minor}.${d.bump}`, property: d.property, minor };
    });
    const transitive = g.transitive.map((minor, j) => ({ name: `org.t${j}:dep${j}`, locked: `2.${minor}.0` }));
    const eol = g.crlf ? '\r\n' : '\n';
    const script = [
      'ext {',
      `    v0 = '1.${g.properties[0]}.0'`,
      `    v1 = '1.${g.properties[1]}.0'`,
      '}',
      'dependencies {',
      ...modules.map((m) =>
        m.property === null ? `    implementation '${m.name}:${m.declared}'` : `    implementation "${m.name}:$v${m.property}"`,
      ),
      '}',
      '',
    ].join(eol);
    const lines = [...modules, ...transitive].map((m) => `${m.name}:${m.locked}=compileClasspath,runtimeClasspath`).sort();
    const lockfile = ['# This is a Gradle generated file for dependency locking.', ...lines, 'empty=', ''].join(eol);
    const chosen = modules[g.updated % modules.length] as (typeof modules)[number];
    const target = `1.${chosen.minor + g.targetStep}.${g.targetPatch}`;
    const names = [...modules.map((m) => m.name), ...transitive.map((t) => t.name), 'org.unknown:absent'];
    const dependencies: RegistryDependency[] = g.dependencies
      .map((d) => {
        const name = names[d.of % names.length] as string;
        const version = `${name.startsWith('org.t') ? 2 : 1}.${d.minor}.${d.patch}`;
        const requirement = d.requirement === 'any' ? '*' : d.requirement === 'plain' ? version : `[${version},9.0)`;
        return { name, requirement, kind: d.kind };
      })
      .filter((d) => d.name !== chosen.name);
    return { files: { 'build.gradle': script, 'gradle.lockfile': lockfile }, chosen, target, dependencies, eol };
  });

/** The lock lines of a lockfile text, module → version. */
const lockedIn = (text: string): Map<string, string> =>
  new Map<string, string>(
    text
      .split(/\r?\n/)
      .filter((l) => /^[^#].*=/.test(l) && !l.startsWith('empty='))
      .map((l) => {
        const [module = ''] = l.split('=');
        const parts = module.split(':');
        return [`${parts[0]}:${parts[1]}`, parts[2] as string];
      }),
  );

describe('gradle lockfile updates keep the lockfile consistent with the manifest (fast-check)', () => {
  it('gives the lockfile with the module at the target exactly when that agrees with every declaration and the target’s dependencies', async () => {
    await fc.assert(
      fc.asyncProperty(build, async ({ files, chosen, target, dependencies, eol }) => {
        const use = gradle.findDependency(files, chosen.name) as DependencyUse;
        expect(use.version).toBe(chosen.locked);
        const manifest = gradle.updateManifest(files, use, target);
        expect(manifest).toHaveProperty('files');
        const updated = 'files' in manifest ? { ...files, ...manifest.files } : files;
        const result = await gradle.updateLockfiles?.({
          files,
          updated,
          use,
          target: { name: chosen.name, version: target, dependencies, artifacts: [] },
          registries: [],
        });

        // What the lockfile must be: the module's line at the target, every other byte as it was.
        const expected = files['gradle.lockfile'].replace(`${chosen.name}:${chosen.locked}=`, `${chosen.name}:${target}=`);
        const locks = lockedIn(expected);
        const declarationsAgree = gradle
          .listDependencies(updated)
          .every((d) => d.requirement === null || gradleVersions.satisfies(locks.get(d.name) as string, d.requirement));
        const dependenciesAgree = dependencies
          .filter((d) => d.kind === 'runtime')
          .every(
            (d) => locks.has(d.name) && (d.requirement === '*' || gradleVersions.satisfies(locks.get(d.name) as string, d.requirement)),
          );

        expect(result !== undefined && 'files' in result).toBe(declarationsAgree && dependenciesAgree);
        if (result === undefined || !('files' in result)) return;
        expect(result.files).toEqual({ 'gradle.lockfile': expected });
        expect(expected.split(eol).length).toBe(files['gradle.lockfile'].split(eol).length);
        const after = { ...updated, ...result.files };
        expect(gradle.findDependency(after, chosen.name)?.version).toBe(target);
        for (const listed of gradle.listDependencies(after)) {
          if (listed.requirement !== null) expect(gradleVersions.satisfies(listed.version as string, listed.requirement)).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });
});
