import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bundler, cargo, composer, type Ecosystem, maven, npmAndYarn, pip } from '../src/index.ts';
import { checkedUpdate } from './update-check.ts';

type Triple = [number, number, number];
type Files = Record<string, string>;

const triple = fc.tuple(fc.nat(30), fc.nat(30), fc.nat(30));
/** A target at or above `v`: the same version, or a patch, minor or major step of 1 to 5. */
const targetOf = (v: Triple) =>
  fc.tuple(fc.constantFrom('same', 'patch', 'minor', 'major'), fc.integer({ min: 1, max: 5 })).map(([kind, n]): string => {
    const [a, b, c] = v;
    if (kind === 'patch') return `${a}.${b}.${c + n}`;
    if (kind === 'minor') return `${a}.${b + n}.0`;
    if (kind === 'major') return `${a + n}.0.0`;
    return `${a}.${b}.${c}`;
  });
/** Line ending, final newline and indentation of a generated manifest. */
const style = fc.record({ eol: fc.constantFrom('\n', '\r\n'), final: fc.boolean(), indent: fc.constantFrom('  ', '    ', '\t') });
type Style = { eol: string; final: boolean; indent: string };
const lines = (s: Style, all: string[]) => all.join(s.eol) + (s.final ? s.eol : '');

/**
 * For generated manifests declaring `pkg` with a requirement of one of the forms the ecosystem rewrites and a
 * target at or above its version: the update never fails, and {@link checkedUpdate} holds (the target satisfies
 * the new requirement, the text outside the requirement spans is unchanged).
 */
function holds(ecosystem: Ecosystem, sample: fc.Arbitrary<{ files: Files; name: string; target: string }>) {
  const seen = { files: 0, unchanged: 0 };
  fc.assert(
    fc.property(sample, ({ files, name, target }) => {
      const result = checkedUpdate(ecosystem, files, name, target);
      expect(result, JSON.stringify({ files, target })).not.toHaveProperty('cannot');
      seen['files' in result ? 'files' : 'unchanged']++;
    }),
    { numRuns: 150 },
  );
  // both outcomes are exercised (shrinking runs add to the counts, never remove)
  expect(seen.files).toBeGreaterThan(30);
  expect(seen.unchanged).toBeGreaterThan(10);
}

/** A generated case: version, target, requirement form (by index into `forms`) and formatting. */
const sampleOf = <T>(forms: readonly ((v: Triple) => T)[]) =>
  triple.chain((v) =>
    fc.record({
      v: fc.constant(v),
      target: targetOf(v),
      form: fc.constantFrom(...forms).map((f) => f(v)),
      second: fc.option(
        fc.constantFrom(...forms).map((f) => f(v)),
        { nil: undefined },
      ),
      style,
      comment: fc.boolean(),
    }),
  );

describe('updateManifest properties over generated manifests', () => {
  it('npm_and_yarn', () => {
    const forms = [
      ([a, b, c]: Triple) => `^${a}.${b}.${c}`,
      ([a, b, c]: Triple) => `~${a}.${b}.${c}`,
      ([a, b, c]: Triple) => `${a}.${b}.${c}`,
      ([a, b, c]: Triple) => `=${a}.${b}.${c}`,
      ([a, b]: Triple) => `^${a}.${b}`,
      ([a, b]: Triple) => `~${a}.${b}`,
      ([a]: Triple) => `${a}.x`,
      ([a, b]: Triple) => `${a}.${b}.x`,
      ([a, b, c]: Triple) => `>=${a}.${b}.${c} <${a + 1}`,
      ([a, b, c]: Triple) => `>= ${a}.${b}.${c} < ${a + 1}.0.0`,
      ([a, b, c]: Triple) => `${a}.${b}.${c} - ${a}.${b + 1}.0`,
      ([a, b, c]: Triple) => `^${a}.${b}.${c} || ^${a + 1}.0.0`,
      () => '*',
    ];
    holds(
      npmAndYarn,
      sampleOf(forms).map(({ target, form, second, style: s }) => {
        const i = s.indent;
        const body = [
          `{`,
          `${i}"name": "app",`,
          `${i}"dependencies": {`,
          `${i}${i}"left": "^1.0.0",`,
          `${i}${i}"pkg": "${form}",`,
          `${i}${i}"right": "2.0.0"`,
        ];
        const dev = second === undefined ? [`${i}}`] : [`${i}},`, `${i}"devDependencies": {`, `${i}${i}"pkg":  "${second}"`, `${i}}`];
        return { files: { 'package.json': lines(s, [...body, ...dev, '}']) }, name: 'pkg', target };
      }),
    );
  });

  it('pip: requirements files and pyproject.toml', () => {
    const pep440 = [
      ([a, b, c]: Triple) => `==${a}.${b}.${c}`,
      ([a, b]: Triple) => `~=${a}.${b}`,
      ([a, b, c]: Triple) => `~=${a}.${b}.${c}`,
      ([a, b, c]: Triple) => `>=${a}.${b}.${c},<${a + 1}`,
      ([a, b, c]: Triple) => `>= ${a}.${b}.${c}, < ${a + 1}.0`,
      ([a, b]: Triple) => `==${a}.${b}.*`,
      ([a, b, c]: Triple) => `>=${a}.${b}.${c}`,
    ];
    const poetry = [
      ([a, b]: Triple) => `^${a}.${b}`,
      ([a, b, c]: Triple) => `~${a}.${b}.${c}`,
      ([a, b, c]: Triple) => `${a}.${b}.${c}`,
      ...pep440,
    ];
    const sample = sampleOf(pep440).chain((base) =>
      fc.record({
        base: fc.constant(base),
        poetryForm: fc.constantFrom(...poetry).map((f) => f(base.v)),
        where: fc.constantFrom('txt', 'pep621', 'poetry', 'both'),
      }),
    );
    holds(
      pip,
      sample.map(({ base: { target, form, second, style: s, comment }, poetryForm, where }) => {
        const files: Files = {};
        if (where !== 'pep621' && where !== 'poetry') {
          files['requirements.txt'] = lines(s, [
            '# pinned',
            'alpha==1.0.0',
            `Pkg[extra]${form}${comment ? '  # why' : ''}`,
            'omega>=2 ; python_version >= "3.8"',
          ]);
        }
        if (second !== undefined && where === 'both') files['requirements-dev.txt'] = lines(s, ['-r requirements.txt', `pkg ${second}`]);
        if (where === 'pep621' || where === 'both') {
          files['pyproject.toml'] = lines(s, [
            '[project]',
            'name = "x"',
            'dependencies = [',
            `${s.indent}"alpha>=1",`,
            `${s.indent}'pkg${form}',${comment ? ' # why' : ''}`,
            ']',
          ]);
        }
        if (where === 'poetry') {
          files['pyproject.toml'] = lines(s, [
            '[tool.poetry.dependencies]',
            'python = "^3.10"',
            `pkg = { version = "${poetryForm}", optional = true }`,
            '',
            '[tool.poetry.group.dev.dependencies]',
            `pkg = "${poetryForm}"`,
          ]);
        }
        return { files, name: 'pkg', target };
      }),
    );
  });

  it('maven', () => {
    const forms = [
      ([a, b, c]: Triple) => `${a}.${b}.${c}`,
      ([a, b, c]: Triple) => `[${a}.${b}.${c}]`,
      ([a, b]: Triple) => `[${a}.${b},${a + 1}.0)`,
      ([a, b, c]: Triple) => `[${a}.${b}.${c}, ${a + 1}.0.0]`,
    ];
    holds(
      maven,
      sampleOf(forms).map(({ target, form, style: s, comment }) => {
        const property = comment;
        const i = s.indent;
        const dependency = (artifact: string, version: string) => [
          `${i}${i}<dependency>`,
          `${i}${i}${i}<groupId>org.example</groupId>`,
          `${i}${i}${i}<artifactId>${artifact}</artifactId>`,
          `${i}${i}${i}<version>${version}</version>${comment ? ' <!-- pinned -->' : ''}`,
          `${i}${i}</dependency>`,
        ];
        const pom = [
          '<?xml version="1.0" encoding="UTF-8"?>',
          '<project>',
          `${i}<properties>`,
          `${i}${i}<pkg.version>${form}</pkg.version>`,
          `${i}</properties>`,
          `${i}<dependencies>`,
          ...dependency('left', '1.0'),
          // biome-ignore lint/suspicious/noTemplateCurlyInString: a Maven property reference, not a template
          ...dependency('pkg', property ? '${pkg.version}' : form),
          `${i}</dependencies>`,
          '</project>',
        ];
        return { files: { 'pom.xml': lines(s, pom) }, name: 'org.example:pkg', target };
      }),
    );
  });

  it('bundler', () => {
    const forms = [
      ([a, b]: Triple) => [`~> ${a}.${b}`],
      ([a, b, c]: Triple) => [`~> ${a}.${b}.${c}`],
      ([a, b, c]: Triple) => [`>= ${a}.${b}.${c}`, `< ${a + 1}`],
      ([a, b, c]: Triple) => [`${a}.${b}.${c}`],
      ([a, b, c]: Triple) => [`= ${a}.${b}.${c}`],
      ([a, b, c]: Triple) => [`~> ${a}.${b}`, `>= ${a}.${b}.${c}`],
      () => [],
    ];
    holds(
      bundler,
      sampleOf(forms).map(({ target, form, second, style: s, comment }) => {
        const q = comment ? '"' : "'";
        const call = (clauses: string[], options: string) => `gem ${q}pkg${q}${clauses.map((c) => `, ${q}${c}${q}`).join('')}${options}`;
        const gemfile = [
          "source 'https://rubygems.org'",
          '',
          'gem "rails", "~> 7.1"',
          `${call(form, comment ? ', require: false # note' : '')}`,
          ...(second === undefined ? [] : ['group :development, :test do', `${s.indent}${call(second, '')}`, 'end']),
        ];
        return { files: { Gemfile: lines(s, gemfile) }, name: 'pkg', target };
      }),
    );
  });

  it('cargo', () => {
    const forms = [
      ([a, b]: Triple) =>
        (key: string) =>
          `${key} = "${a}.${b}"`,
      ([a, b, c]: Triple) =>
        (key: string) =>
          `${key} = { version = "^${a}.${b}.${c}", features = ["derive"] }`,
      ([a, b, c]: Triple) =>
        (key: string) =>
          `${key} = '=${a}.${b}.${c}'`,
      ([a, b]: Triple) =>
        (key: string) =>
          `${key} = "~${a}.${b}"`,
      ([a, b, c]: Triple) =>
        (key: string) =>
          `${key}.version = ">=${a}.${b}.${c}, <${a + 1}"`,
      ([a]: Triple) =>
        (key: string) =>
          `${key} = "${a}.*"`,
    ];
    holds(
      cargo,
      sampleOf(forms).map(({ target, form, second, style: s, comment }) => {
        const toml = [
          '[package]',
          'name = "app"',
          '',
          '[dependencies]',
          'left = "1"',
          `${form('pkg')}${comment ? ' # pinned' : ''}`,
          ...(second === undefined ? [] : ['', "[target.'cfg(unix)'.dev-dependencies]", second('pkg')]),
        ];
        return { files: { 'Cargo.toml': lines(s, toml) }, name: 'pkg', target };
      }),
    );
  });

  it('composer', () => {
    const forms = [
      ([a, b]: Triple) => `^${a}.${b}`,
      ([a, b]: Triple) => `~${a}.${b}`,
      ([a, b]: Triple) => `${a}.${b}.*`,
      ([a, b]: Triple) => `>=${a}.${b} <${a + 1}.0`,
      ([a, b, c]: Triple) => `v${a}.${b}.${c}`,
      ([a, b]: Triple) => `^${a}.${b} || ^${a + 1}.0`,
      ([a, b]: Triple) => `^${a}.${b}@beta`,
    ];
    holds(
      composer,
      sampleOf(forms).map(({ target, form, second, style: s }) => {
        const i = s.indent;
        const json = [
          `{`,
          `${i}"require": {`,
          `${i}${i}"php": ">=8.1",`,
          `${i}${i}"acme/pkg": "${form}"`,
          `${i}}${second === undefined ? '' : ','}`,
        ];
        if (second !== undefined) json.push(`${i}"require-dev": {`, `${i}${i}"Acme/Pkg": "${second}"`, `${i}}`);
        return { files: { 'composer.json': lines(s, [...json, '}']) }, name: 'acme/pkg', target };
      }),
    );
  });
});
