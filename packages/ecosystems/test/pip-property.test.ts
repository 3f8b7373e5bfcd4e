import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type DependencyUse, pip, type RegistryVersionDetails } from '../src/index.ts';
import { pipfileHashes } from '../src/pip/pipfile.ts';
import { checkedUpdate } from './update-check.ts';

type Triple = [number, number, number];
const triple = fc.tuple(fc.nat(30), fc.nat(30), fc.nat(30));
const forms = [
  ([a, b, c]: Triple) => `==${a}.${b}.${c}`,
  ([a, b]: Triple) => `~=${a}.${b}`,
  ([a, b, c]: Triple) => `>=${a}.${b}.${c},<${a + 1}`,
  ([a, b, c]: Triple) => `>= ${a}.${b}.${c}, < ${a + 1}.0`,
  ([a, b]: Triple) => `==${a}.${b}.*`,
  ([a, b, c]: Triple) => `>=${a}.${b}.${c}`,
];
const sha = (text: string) => createHash('sha256').update(text).digest('hex');

/** A generated directory of one file kind declaring `pkg` (its version in use `v`), and a target at or above it. */
const sample = triple.chain((v) =>
  fc.record({
    v: fc.constant(v),
    form: fc.constantFrom(...forms).map((f) => f(v)),
    kind: fc.constantFrom('Pipfile', 'setup.py', 'setup.cfg', 'requirements.in', 'include', 'hashes', 'several'),
    eol: fc.constantFrom('\n', '\r\n'),
    hashes: fc.record({
      before: fc.integer({ min: 1, max: 3 }),
      after: fc.integer({ min: 1, max: 4 }),
      indent: fc.constantFrom('', '  ', '    ', '\t'),
      sameLine: fc.boolean(),
    }),
    target: fc
      .tuple(fc.constantFrom('patch', 'minor', 'major'), fc.integer({ min: 1, max: 4 }))
      .map(([kind, n]) =>
        kind === 'patch' ? `${v[0]}.${v[1]}.${v[2] + n}` : kind === 'minor' ? `${v[0]}.${v[1] + n}.0` : `${v[0] + n}.0.0`,
      ),
  }),
);

/** How a sample writes `--hash` options: how many, indented how, on the pin's line or on continuation lines. */
interface HashStyle {
  before: number;
  after: number;
  indent: string;
  sameLine: boolean;
}

/** The `--hash` options of `count` artifacts named after `seed`, in the continuation style of `style`. */
function hashOptions(seed: string, count: number, style: HashStyle, eol: string): string {
  const options = Array.from({ length: count }, (_, i) => `--hash=sha256:${sha(`${seed}-${i}`)}`);
  return style.sameLine ? ` ${options.join(' ')}` : options.map((o) => ` \\${eol}${style.indent || ' '}${o}`).join('');
}

/** The artifacts of a target version `count` files long, each with its sha256. */
function artifactsOf(version: string, count: number): RegistryVersionDetails['artifacts'] {
  return Array.from({ length: count }, (_, i) => ({
    filename: `pkg-${version}-${i}.whl`,
    url: 'https://files.example.org/x',
    digests: [{ algorithm: 'sha256' as const, value: sha(`pkg-${version}-${i}`), encoding: 'hex' as const }],
  }));
}

/**
 * The files of a sample: the manifest, and its lock where the kind has one (Pipfile.lock, the pip-compile output);
 * `hashes`: a hash-pinned requirements.txt; `several`: requirement files found by the patterns (a `*.txt` of the
 * directory, one of `requirements/`) beside a licence that is no requirements file.
 */
function filesOf({
  v,
  form,
  kind,
  eol,
  hashes,
}: {
  v: Triple;
  form: string;
  kind: string;
  eol: string;
  hashes: HashStyle;
}): Record<string, string> {
  const version = v.join('.');
  const lines = (all: string[]) => all.join(eol) + eol;
  switch (kind) {
    case 'Pipfile': {
      const pipfile = lines([
        '[[source]]',
        'url = "https://pypi.org/simple"',
        'verify_ssl = true',
        'name = "pypi"',
        '',
        '[packages]',
        'alpha = "*"',
        `pkg = {version = "${form}", extras = ["x"]}`,
        '',
        '[dev-packages]',
        `Pkg = "${form}"`,
      ]);
      const entry = { hashes: [`sha256:${sha('old')}`], version: `==${version}` };
      const lock = {
        _meta: { hash: { sha256: pipfileHashes(pipfile)[0] }, 'pipfile-spec': 6, requires: {}, sources: [] },
        default: { alpha: { hashes: [], version: '==1.0' }, pkg: entry },
        develop: { alpha: { hashes: [], version: '==1.0' }, pkg: entry },
      };
      return { Pipfile: pipfile, 'Pipfile.lock': `${JSON.stringify(lock, null, 4)}\n` };
    }
    case 'setup.py':
      return {
        'setup.py': lines([
          'from setuptools import setup',
          'setup(',
          '    name="x",',
          `    install_requires=["alpha>=1", 'pkg${form}'],  # runtime`,
          `    extras_require={"test": ["Pkg[extra] ${form} ; python_version >= '3.8'"]},`,
          ')',
        ]),
      };
    case 'setup.cfg':
      return {
        'setup.cfg': lines([
          '[metadata]',
          'name = x',
          '',
          '[options]',
          'install_requires =',
          '    alpha>=1',
          `    pkg${form}`,
          '    ; comment',
          '',
        ]),
      };
    case 'requirements.in':
      return {
        'requirements.in': lines(['alpha>=1', `pkg${form}`]),
        'requirements.txt': lines([
          '# pip-compile --generate-hashes requirements.in',
          'alpha==1.0 \\',
          `    --hash=sha256:${sha('alpha')}`,
          `pkg==${version} \\`,
          `    --hash=sha256:${sha('a')} \\`,
          `    --hash=sha256:${sha('b')}`,
          '    # via -r requirements.in',
        ]),
      };
    case 'hashes':
      return {
        'requirements.txt': lines([
          '--require-hashes',
          `alpha==1.0${hashOptions('alpha', 2, hashes, eol)}`,
          `pkg==${version}${hashOptions('pkg', hashes.before, hashes, eol)}`,
          '    # via -r requirements.in',
          `omega==2.0${hashOptions('omega', 1, hashes, eol)}`,
        ]),
      };
    case 'several':
      return {
        'requirements.txt': lines(['-r requirements/dev.txt', 'alpha==1.0']),
        'base.txt': lines(['# shared', `pkg${form}`]),
        'requirements/dev.txt': lines([`Pkg${form}  # dev`, 'omega']),
        'LICENSE.txt': lines(['Copyright the authors.', 'Use it as you please.']),
      };
    default:
      return {
        'requirements.txt': lines(['-r requirements/base.txt', 'alpha==1.0']),
        'requirements/base.txt': lines([`pkg${form}  # shared`]),
      };
  }
}

describe('pip property: Pipfile, setup.py, setup.cfg, requirements.in, included, scanned and hash-pinned files', () => {
  it('updates keep the invariant, and the lock agrees with the updated manifest', async () => {
    const seen = { files: 0, unchanged: 0, locks: 0, hashes: 0, several: 0 };
    const v = (s: { v: Triple }) => s.v.join('.');
    await fc.assert(
      fc.asyncProperty(sample, async (s) => {
        const files = filesOf(s);
        const manifests = Object.fromEntries(Object.entries(files).filter(([name]) => name !== 'Pipfile.lock'));
        const target: RegistryVersionDetails = {
          name: 'pkg',
          version: s.target,
          dependencies: [{ name: 'alpha', requirement: '>=1.0', kind: 'runtime' }],
          artifacts:
            s.kind === 'hashes'
              ? artifactsOf(s.target, s.hashes.after)
              : [
                  {
                    filename: `pkg-${s.target}.tar.gz`,
                    url: 'https://files.example.org/x',
                    digests: [{ algorithm: 'sha256', value: sha(s.target), encoding: 'hex' }],
                  },
                ],
        };
        const result = checkedUpdate(pip, manifests, 'pkg', s.target, undefined, s.kind === 'hashes' ? target : undefined);
        expect(result, JSON.stringify({ files, target: s.target })).not.toHaveProperty('cannot');
        seen['files' in result ? 'files' : 'unchanged']++;
        const updated = 'files' in result ? { ...files, ...result.files } : files;
        if (s.kind === 'hashes' && 'files' in result) {
          seen.hashes++;
          // the pin's hashes are the target's, one per artifact, in the original style; the other lines are as they were
          const written = [...(updated['requirements.txt'] ?? '').matchAll(/--hash=sha256:([0-9a-f]+)/g)].map((m) => m[1]);
          const expected = artifactsOf(s.target, s.hashes.after)
            .map((a) => a.digests[0]?.value ?? '')
            .sort();
          expect(written).toEqual([sha('alpha-0'), sha('alpha-1'), ...expected, sha('omega-0')]);
          expect(updated['requirements.txt']).toBe(
            files['requirements.txt']?.replace(
              `pkg==${v(s)}${hashOptions('pkg', s.hashes.before, s.hashes, s.eol)}`,
              `pkg==${s.target}${s.hashes.sameLine ? ' ' : ` \\${s.eol}${s.hashes.indent || ' '}`}${expected
                .map((h) => `--hash=sha256:${h}`)
                .join(s.hashes.sameLine ? ' ' : ` \\${s.eol}${s.hashes.indent || ' '}`)}`,
            ),
          );
        }
        if (s.kind === 'several' && 'files' in result) {
          seen.several++;
          expect(Object.keys(result.files).sort()).toEqual(['base.txt', 'requirements/dev.txt']);
        }
        const use = pip.findDependency(files, 'pkg') as DependencyUse;
        const lock = await pip.updateLockfiles?.({ files, updated, use, target, registries: [] });
        if (!lock || !('files' in lock)) throw new Error(JSON.stringify(lock));
        const after = { ...updated, ...lock.files };
        // the version in use is now the target, and the lock is consistent with the manifest
        if (files['Pipfile.lock'] || files['requirements.in']) {
          seen.locks++;
          expect(pip.findDependency(after, 'pkg')?.version).toBe(s.target);
        }
        if (files['Pipfile.lock']) {
          const parsed = JSON.parse(after['Pipfile.lock'] ?? '{}');
          expect(parsed._meta.hash.sha256).toBe(pipfileHashes(after.Pipfile ?? '')[0]);
          expect(parsed.develop.pkg.hashes).toEqual([`sha256:${sha(s.target)}`]);
        }
        if (files['requirements.in']) expect(after['requirements.txt']).toContain(`pkg==${s.target} \\`);
      }),
      { numRuns: 200 },
    );
    expect(seen.files).toBeGreaterThan(20);
    expect(seen.unchanged).toBeGreaterThan(5);
    expect(seen.locks).toBeGreaterThan(20);
    expect(seen.hashes).toBeGreaterThan(10);
    expect(seen.several).toBeGreaterThan(5);
  });
});

/**
 * A requirements.txt pinning `pkg` twice, under complementary markers on the Python version (`python_version < "3.T"` /
 * `>= "3.T"`, written as `python_version` or `python_full_version`, alone or `and`-ed with a marker on another
 * variable, with either quote), beside lines on other variables, and the project's Python stated by one of the sources
 * Dependabot read (or none: its default, 3.13).
 */
const marked = fc.record({
  threshold: fc.integer({ min: 6, max: 15 }),
  minor: fc.integer({ min: 9, max: 13 }),
  source: fc.constantFrom('.python-version', 'runtime.txt', 'requires-python', 'Pipfile', 'none'),
  fullVersion: fc.boolean(),
  other: fc.constantFrom('', ' and sys_platform != "emscripten"', ' and (platform_machine == "x86_64" or extra == "x")'),
  quote: fc.constantFrom('"', "'"),
  pins: fc.tuple(fc.nat(20), fc.nat(20)),
  eol: fc.constantFrom('\n', '\r\n'),
});

describe('pip property: markers on the Python version', () => {
  it('exactly the pin whose marker the project’s Python satisfies counts, is updated and the other is reported', () => {
    let seen = 0;
    fc.assert(
      fc.property(marked, (s) => {
        const q = s.quote;
        const variable = s.fullVersion && s.source !== 'none' ? 'python_full_version' : 'python_version';
        const bound = variable === 'python_full_version' ? `3.${s.threshold}.0` : `3.${s.threshold}`;
        const [a, b] = [`1.${s.pins[0]}`, `2.${s.pins[1]}`];
        const lines = [
          '# per Python',
          `pkg==${a} ; ${variable} < ${q}${bound}${q}${s.other}`,
          `pkg==${b} ; ${variable} >= ${q}${bound}${q}${s.other}`,
          'alpha<2 ; sys_platform == "win32"',
          'omega==1.0 ; sys_platform == "linux"',
        ];
        const files: Record<string, string> = { 'requirements.txt': lines.join(s.eol) + s.eol };
        const m = s.minor;
        if (s.source === '.python-version') files['.python-version'] = `3.${m}${s.eol}`;
        if (s.source === 'runtime.txt') files['runtime.txt'] = `python-3.${m}.2${s.eol}`;
        if (s.source === 'requires-python') files['pyproject.toml'] = `[project]\nrequires-python = ">=3.${m},<3.${m + 1}"\n`;
        if (s.source === 'Pipfile') files.Pipfile = `[packages]\n\n[requires]\npython_version = "3.${m}"\n`;
        const python = s.source === 'none' ? 13 : m;
        const [counted, skipped] = python < s.threshold ? [a, b] : [b, a];
        const countedLine = python < s.threshold ? 2 : 3;

        expect(pip.findDependency(files, 'pkg')).toMatchObject({ requirement: `==${counted}`, version: counted });
        expect(pip.listDependencies(files).map((use) => use.name)).toEqual(['pkg', 'omega']);
        expect(pip.findDependency(files, 'alpha')).toBeUndefined();
        const reported = (pip.skippedDeclarations?.(files) ?? []).filter((d) => d.file === 'requirements.txt');
        expect(reported.map((d) => d.line)).toEqual([5 - countedLine, 4]);
        expect(reported[0]?.reason).toContain(`excludes the project's Python 3.${python}`);
        expect(reported[0]?.text).toContain(`pkg==${skipped}`);

        const result = checkedUpdate(pip, files, 'pkg', '30.0');
        if (!('files' in result)) throw new Error(JSON.stringify(result));
        const updated = (result.files['requirements.txt'] ?? '').split(s.eol);
        expect(updated).toEqual(lines.map((line, i) => (i === countedLine - 1 ? line.replace(`==${counted}`, '==30.0') : line)).concat(''));
        seen++;
      }),
      { numRuns: 150 },
    );
    expect(seen).toBe(150);
  });
});
