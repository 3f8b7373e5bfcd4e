import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { npmAndYarn, type RegistryVersionDetails } from '../src/index.ts';
import { listChecked } from './invariant.ts';
import { checkedUpdate } from './update-check.ts';

const lockfile = createRequire(import.meta.url)('@yarnpkg/lockfile') as typeof import('@yarnpkg/lockfile');

type Triple = [number, number, number];
type Files = Record<string, string>;

const NAMES = ['alpha', 'beta', 'gamma', '@scope/delta'] as const;
const SECTIONS = ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'] as const;

/** Requirement forms that all allow the version `v` they are written for. */
const FORMS: readonly ((v: Triple) => string)[] = [
  ([a, b, c]) => `^${a}.${b}.${c}`,
  ([a, b, c]) => `~${a}.${b}.${c}`,
  ([a, b, c]) => `${a}.${b}.${c}`,
  ([a, b]) => `^${a}.${b}`,
  ([a, b, c]) => `>=${a}.${b}.${c} <${a + 1}.0.0`,
];

/** A target at or above `v`: the same version, or a patch, minor or major step of 1 to 3. */
const targetOf = (v: Triple) =>
  fc.tuple(fc.constantFrom('same', 'patch', 'minor', 'major'), fc.integer({ min: 1, max: 3 })).map(([kind, n]) => {
    const [a, b, c] = v;
    if (kind === 'patch') return `${a}.${b}.${c + n}`;
    if (kind === 'minor') return `${a}.${b + n}.0`;
    if (kind === 'major') return `${a + n}.0.0`;
    return `${a}.${b}.${c}`;
  });

/** One manifest's declarations: name → [section, form index]; and whether it depends on the first member. */
const declarations = fc.dictionary(fc.constantFrom(...NAMES), fc.tuple(fc.constantFrom(...SECTIONS), fc.nat(FORMS.length - 1)), {
  maxKeys: 3,
});

const sample = fc
  .record({
    versions: fc.tuple(...NAMES.map(() => fc.tuple(fc.nat(9), fc.nat(9), fc.nat(9)))),
    root: declarations,
    members: fc.array(fc.record({ declared: declarations, linksFirst: fc.boolean() }), { minLength: 1, maxLength: 3 }),
    objectForm: fc.boolean(),
    indent: fc.constantFrom(2, 4, '\t'),
    eol: fc.constantFrom('\n', '\r\n'),
  })
  .filter(({ root, members }) => Object.keys(root).length + members.reduce((n, m) => n + Object.keys(m.declared).length, 0) > 0)
  .chain((w) => {
    const declared = [...new Set([...Object.keys(w.root), ...w.members.flatMap((m) => Object.keys(m.declared))])];
    return fc.constantFrom(...declared).chain((name) => {
      const v = w.versions[NAMES.indexOf(name as (typeof NAMES)[number])] as Triple;
      return targetOf(v).map((target) => ({ ...w, name, target }));
    });
  });

type Sample = typeof sample extends fc.Arbitrary<infer T> ? T : never;

/** The workspace's files: the root package.json, each member's (`packages/m<i>`), and a yarn.lock locking every pattern at its name's version. */
function filesOf(s: Sample): Files {
  const versionOf = (name: string) => (s.versions[NAMES.indexOf(name as (typeof NAMES)[number])] as Triple).join('.');
  const patterns = new Map<string, Set<string>>();
  const manifest = (head: Record<string, unknown>, declared: Sample['root'], extra: Record<string, string> = {}) => {
    const out: Record<string, unknown> = { ...head };
    for (const [name, [section, form]] of Object.entries(declared)) {
      const spec = (FORMS[form] as (v: Triple) => string)(s.versions[NAMES.indexOf(name as (typeof NAMES)[number])] as Triple);
      const table = (out[section] ?? {}) as Record<string, string>;
      table[name] = spec;
      out[section] = table;
      patterns.set(name, (patterns.get(name) ?? new Set()).add(`${name}@${spec}`));
    }
    if (Object.keys(extra).length > 0) out.dependencies = { ...((out.dependencies ?? {}) as object), ...extra };
    return `${JSON.stringify(out, null, s.indent).replace(/\n/g, s.eol)}${s.eol}`;
  };
  const workspaces = s.objectForm ? { packages: ['packages/*'] } : ['packages/*'];
  const files: Files = { 'package.json': manifest({ name: 'root', private: true, workspaces }, s.root) };
  for (const [i, member] of s.members.entries()) {
    const link: Record<string, string> = member.linksFirst && i > 0 ? { '@ws/m0': '^1.0.0' } : {};
    files[`packages/m${i}/package.json`] = manifest({ name: `@ws/m${i}`, version: '1.0.0' }, member.declared, link);
  }
  const object: Record<string, unknown> = {};
  for (const [name, set] of patterns) {
    const version = versionOf(name);
    const basename = name.split('/').pop();
    const entry = { version, resolved: `https://registry.yarnpkg.com/${name}/-/${basename}-${version}.tgz#${'0'.repeat(40)}` };
    for (const pattern of set) object[pattern] = entry;
  }
  files['yarn.lock'] = lockfile.stringify(object);
  return files;
}

/** The target as the registry would describe it, offline, without dependencies. */
function described(name: string, version: string): RegistryVersionDetails {
  const basename = name.split('/').pop();
  const url = `https://registry.npmjs.org/${name}/-/${basename}-${version}.tgz`;
  const digests = [{ algorithm: 'sha1', value: 'a'.repeat(40), encoding: 'hex' } as const];
  return { name, version, dependencies: [], artifacts: [{ filename: `${basename}-${version}.tgz`, url, digests }] };
}

describe('npm_and_yarn workspaces: properties over generated Yarn 1 workspaces', () => {
  it('only requirement spans change, every declaration allows the target, and the shared yarn.lock agrees', async () => {
    const seen = { files: 0, unchanged: 0 };
    await fc.assert(
      fc.asyncProperty(sample, async (s) => {
        const files = filesOf(s);
        const list = listChecked(npmAndYarn, files);
        expect(list.map((u) => u.name).some((n) => n.startsWith('@ws/'))).toBe(false);
        // spans only, and every declaration (root and members) allows the target
        const manifest = checkedUpdate(npmAndYarn, files, s.name, s.target);
        expect(manifest).not.toHaveProperty('cannot');
        seen['files' in manifest ? 'files' : 'unchanged']++;
        const updated = 'files' in manifest ? { ...files, ...manifest.files } : files;
        const use = npmAndYarn.findDependency(files, s.name);
        if (!use) throw new Error('unreachable');
        const registries = [{ url: 'https://registry.npmjs.org/' }];
        const result = await npmAndYarn.updateLockfiles?.({ files, updated, use, target: described(s.name, s.target), registries });
        if (!result || !('files' in result)) throw new Error(JSON.stringify(result));
        const lockText = result.files['yarn.lock'] ?? files['yarn.lock'] ?? '';
        const after = lockfile.parse(lockText).object as Record<string, { version: string }>;
        const before = lockfile.parse(files['yarn.lock'] ?? '').object as Record<string, { version: string }>;
        // every declaration of the updated manifests is locked at the target
        const merged = { ...updated, 'yarn.lock': lockText };
        for (const [path, text] of Object.entries(updated)) {
          if (!path.endsWith('package.json')) continue;
          const manifestJson = JSON.parse(text) as Record<string, Record<string, string> | undefined>;
          for (const section of SECTIONS) {
            const spec = manifestJson[section]?.[s.name];
            if (spec !== undefined) expect(after[`${s.name}@${spec}`]?.version, `${path} ${section}`).toBe(s.target);
          }
        }
        // the other packages' entries are untouched, and the dependency reads the target
        const others = (object: Record<string, unknown>) => Object.entries(object).filter(([p]) => !p.startsWith(`${s.name}@`));
        expect(others(after)).toEqual(others(before));
        expect(npmAndYarn.findDependency(merged, s.name)?.version).toBe(s.target);
        listChecked(npmAndYarn, merged);
      }),
      { numRuns: 120 },
    );
    expect(seen.files).toBeGreaterThan(20);
    expect(seen.unchanged).toBeGreaterThan(5);
  });
});
