import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type DependencyUse, goModules, goVersions, parseGoVersion, printGoVersion, readGoMod } from '../src/index.ts';

const identifier = fc.oneof(
  fc.nat(40).map(String),
  fc.stringMatching(/^[0-9A-Za-z-]{1,8}$/).filter((id) => !/^\d+$/.test(id)),
);
/** Go module versions: releases, pre-releases, pseudo-versions, `+incompatible` v2+ versions. */
const goVersion = fc
  .record({
    major: fc.nat(12),
    minor: fc.nat(12),
    patch: fc.nat(12),
    pre: fc.option(fc.array(identifier, { minLength: 1, maxLength: 3 }), { nil: undefined }),
    pseudo: fc.option(
      fc.tuple(
        fc.date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true }),
        fc.stringMatching(/^[0-9a-f]{12}$/),
      ),
      {
        nil: undefined,
      },
    ),
    incompatible: fc.boolean(),
  })
  .map(({ major, minor, patch, pre, pseudo, incompatible }) => {
    let prerelease = pre?.join('.') ?? '';
    if (pseudo) {
      const stamp = pseudo[0].toISOString().replace(/[-:T]/g, '').slice(0, 14);
      prerelease = `${prerelease === '' ? '0' : `${prerelease}.0`}.${stamp}-${pseudo[1]}`;
    }
    return `v${major}.${minor}.${patch}${prerelease ? `-${prerelease}` : ''}${incompatible && major >= 2 ? '+incompatible' : ''}`;
  });

const sign = (n: number) => Math.sign(n);

describe('Go module version scheme properties', () => {
  it('generated versions are valid and print back as parsed', () => {
    fc.assert(
      fc.property(goVersion, (v) => {
        expect(goVersions.isValid(v)).toBe(true);
        const parsed = parseGoVersion(v);
        expect(parsed && printGoVersion(parsed)).toBe(v);
      }),
    );
  });
  it('compare is a total order: reflexive, antisymmetric, transitive', () => {
    fc.assert(
      fc.property(goVersion, goVersion, goVersion, (a, b, c) => {
        expect(goVersions.compare(a, a)).toBe(0);
        expect(sign(goVersions.compare(a, b)) + sign(goVersions.compare(b, a))).toBe(0);
        if (goVersions.compare(a, b) <= 0 && goVersions.compare(b, c) <= 0) expect(goVersions.compare(a, c)).toBeLessThanOrEqual(0);
      }),
      { numRuns: 500 },
    );
  });
  it('a pseudo-version sorts after its base release and before the next patch', () => {
    fc.assert(
      fc.property(fc.nat(9), fc.nat(9), fc.nat(9), (major, minor, patch) => {
        const base = `v${major}.${minor}.${patch}`;
        const pseudo = `v${major}.${minor}.${patch + 1}-0.20240101000000-abcdefabcdef`;
        expect(goVersions.compare(base, pseudo)).toBeLessThan(0);
        expect(goVersions.compare(pseudo, `v${major}.${minor}.${patch + 1}`)).toBeLessThan(0);
      }),
    );
  });
});

const MOD = 'github.com/acme/lib';
const h1 = (c: string) => `h1:${c.repeat(43)}=`;

/** A workspace module: its directory, how it requires the library (not, directly, indirectly) and at which minor. */
const workspaceModule = fc.record({
  dir: fc.constantFrom('api', 'worker', 'cmd/tool', 'libs/core', '../shared'),
  requires: fc.constantFrom('direct', 'indirect', 'none', 'block'),
  minor: fc.nat(8),
  eol: fc.constantFrom('\n', '\r\n'),
  sum: fc.boolean(),
});

describe('go.work workspace updates (generated)', () => {
  it("change only the library's version tokens in the used go.mod files, and each go.sum beside a changed go.mod agrees", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(workspaceModule, { minLength: 1, maxLength: 5, selector: (m) => m.dir }),
        fc.integer({ min: 1, max: 5 }),
        async (modules, step) => {
          const files: Record<string, string> = {
            'go.work': `go 1.22\n\nuse (\n${modules.map((m) => `\t./${m.dir}\n`).join('')})\n`,
          };
          for (const m of modules) {
            const version = `v1.${m.minor}.0`;
            const line =
              m.requires === 'none'
                ? []
                : m.requires === 'block'
                  ? [`require (`, `\t${MOD} ${version}`, `\tgolang.org/x/text v0.14.0 // indirect`, ')']
                  : [`require ${MOD} ${version}${m.requires === 'indirect' ? ' // indirect' : ''}`];
            files[`${m.dir}/go.mod`] = [`module example.com/ws/${m.dir.replace('../', '')}`, '', 'go 1.22', '', ...line, ''].join(m.eol);
            if (m.sum && m.requires !== 'none') {
              files[`${m.dir}/go.sum`] = `${MOD} ${version} ${h1('A')}\n${MOD} ${version}/go.mod ${h1('a')}\n`;
            }
          }
          const requiring = modules.filter((m) => m.requires !== 'none');
          const use = goModules.findDependency(files, MOD);
          if (!modules.some((m) => m.requires === 'direct' || m.requires === 'block')) {
            expect(use).toBeUndefined();
            return;
          }
          const highest = Math.max(...requiring.map((m) => m.minor));
          expect(use?.version).toBe(`v1.${highest}.0`);
          const target = `v1.${highest + step}.0`;
          const update = goModules.updateManifest(files, use as DependencyUse, target);
          if (!('files' in update)) throw new Error(JSON.stringify(update));
          expect(Object.keys(update.files).sort()).toEqual(requiring.map((m) => `${m.dir}/go.mod`).sort());
          for (const m of requiring) {
            const before = files[`${m.dir}/go.mod`] ?? '';
            const after = update.files[`${m.dir}/go.mod`] ?? '';
            expect(after).toBe(before.replace(`${MOD} v1.${m.minor}.0`, `${MOD} ${target}`));
            expect(readGoMod('go.mod', after).requires.find((r) => r.path === MOD)?.version.value).toBe(target);
          }
          const lock = await goModules.updateLockfiles?.({
            files,
            updated: { ...files, ...update.files },
            use: use as DependencyUse,
            target: {
              name: MOD,
              version: target,
              dependencies: [],
              artifacts: [
                {
                  filename: `${target}.zip`,
                  url: 'https://proxy.golang.org/z',
                  digests: [{ algorithm: 'h1', value: h1('N'), encoding: 'prefixed' }],
                },
                {
                  filename: `${target}.mod`,
                  url: 'https://proxy.golang.org/m',
                  digests: [{ algorithm: 'h1', value: h1('n'), encoding: 'prefixed' }],
                },
              ],
            },
            registries: [],
          });
          if (!lock || !('files' in lock)) throw new Error(JSON.stringify(lock));
          const sums = requiring.filter((m) => m.sum);
          expect(Object.keys(lock.files).sort()).toEqual(sums.map((m) => `${m.dir}/go.sum`).sort());
          for (const m of sums) {
            expect(lock.files[`${m.dir}/go.sum`]).toBe(`${MOD} ${target} ${h1('N')}\n${MOD} ${target}/go.mod ${h1('n')}\n`);
          }
          expect(goModules.findDependency({ ...files, ...update.files, ...lock.files }, MOD)?.version).toBe(target);
        },
      ),
      { numRuns: 150 },
    );
  });
});
