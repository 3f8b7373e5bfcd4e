import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { maven } from '../src/index.ts';
import { mavenAllows } from '../src/maven/update.ts';
import { checkedUpdate } from './update-check.ts';

type Triple = [number, number, number];

/** How a generated module gets its version of a package from the generated parent. */
const FORMS = ['parentProperty', 'managedLiteral', 'managedProperty', 'moduleLiteral', 'childOverride'] as const;
type Form = (typeof FORMS)[number];

const triple = fc.tuple(fc.nat(30), fc.nat(30), fc.nat(30));
const targetOf = (v: Triple) =>
  fc.tuple(fc.constantFrom('same', 'patch', 'minor', 'major'), fc.integer({ min: 1, max: 5 })).map(([kind, n]): string => {
    const [a, b, c] = v;
    if (kind === 'patch') return `${a}.${b}.${c + n}`;
    if (kind === 'minor') return `${a}.${b + n}.0`;
    if (kind === 'major') return `${a + n}.0.0`;
    return `${a}.${b}.${c}`;
  });

const packageOf = fc.record({ version: triple, form: fc.constantFrom(...FORMS), override: triple });
const layoutOf = fc.record({
  packages: fc.array(packageOf, { minLength: 1, maxLength: 4 }),
  /** `reactor`: the parent's directory with its module; `child`: the module's directory with `../pom.xml`. */
  layout: fc.constantFrom('reactor', 'child'),
  eol: fc.constantFrom('\n', '\r\n'),
  indent: fc.constantFrom('  ', '    ', '\t'),
  comment: fc.boolean(),
  pick: fc.nat(),
});

const dotted = (v: Triple) => v.join('.');
type Sample = typeof layoutOf extends fc.Arbitrary<infer T> ? T : never;

/** The parent POM and its module's POM for the generated packages (`g<i>:a<i>`). */
function build(sample: Sample): Record<string, string> {
  const { packages, eol, indent: t, comment } = sample;
  const dependency = (i: number, version?: string) =>
    `${t}${t}${t}<dependency><groupId>g${i}</groupId><artifactId>a${i}</artifactId>${version === undefined ? '' : `<version>${version}</version>`}</dependency>`;
  const property = (i: number, v: Triple) => `${t}${t}<a${i}.version>${dotted(v)}</a${i}.version>`;
  const uses = (form: Form, ...forms: Form[]) => forms.includes(form);
  const parent = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<project>',
    `${t}<groupId>org.gen</groupId><artifactId>gen-parent</artifactId><version>1.0.0</version><packaging>pom</packaging>`,
    `${t}<modules><module>mod</module></modules>`,
    `${t}<properties>`,
    ...(comment ? [`${t}${t}<!-- versions -->`] : []),
    ...packages.flatMap((p, i) => (uses(p.form, 'parentProperty', 'managedProperty', 'childOverride') ? [property(i, p.version)] : [])),
    `${t}</properties>`,
    `${t}<dependencyManagement>`,
    `${t}${t}<dependencies>`,
    ...packages.flatMap((p, i) =>
      uses(p.form, 'managedLiteral')
        ? [dependency(i, dotted(p.version))]
        : uses(p.form, 'managedProperty', 'childOverride')
          ? [dependency(i, `\${a${i}.version}`)]
          : [],
    ),
    `${t}${t}</dependencies>`,
    `${t}</dependencyManagement>`,
    '</project>',
  ].join(eol);
  const module = [
    '<project>',
    `${t}<parent><groupId>org.gen</groupId><artifactId>gen-parent</artifactId><version>1.0.0</version></parent>`,
    `${t}<artifactId>gen-mod</artifactId>`,
    `${t}<properties>`,
    ...packages.flatMap((p, i) => (p.form === 'childOverride' ? [property(i, p.override)] : [])),
    `${t}</properties>`,
    `${t}<dependencies>`,
    ...packages.map((p, i) =>
      p.form === 'parentProperty'
        ? dependency(i, `\${a${i}.version}`)
        : p.form === 'moduleLiteral'
          ? dependency(i, dotted(p.version))
          : dependency(i),
    ),
    `${t}</dependencies>`,
    '</project>',
  ].join(eol);
  return sample.layout === 'reactor' ? { 'pom.xml': parent, 'mod/pom.xml': module } : { 'pom.xml': module, '../pom.xml': parent };
}

describe('maven multi-module updates over generated builds', () => {
  it('read the version the module inherits, and update it where it is defined, changing only the version spans', () => {
    const seen = { files: 0, unchanged: 0 };
    fc.assert(
      fc.property(
        layoutOf.chain((sample) => {
          const i = sample.pick % sample.packages.length;
          const p = sample.packages[i] as (typeof sample.packages)[number];
          const inUse = p.form === 'childOverride' ? p.override : p.version;
          return targetOf(inUse).map((target) => ({ sample, i, inUse, target }));
        }),
        ({ sample, i, inUse, target }) => {
          const files = build(sample);
          const name = `g${i}:a${i}`;
          const use = maven.findDependency(files, name);
          expect(use).toMatchObject({ requirement: dotted(inUse), version: dotted(inUse) });
          const result = checkedUpdate(maven, files, name, target);
          expect(result, JSON.stringify({ files, target })).not.toHaveProperty('cannot');
          if ('files' in result) {
            seen.files++;
            const after = maven.findDependency({ ...files, ...result.files }, name);
            expect(after?.requirement && mavenAllows(target, after.requirement)).toBe(true);
          } else seen.unchanged++;
        },
      ),
      { numRuns: 150 },
    );
    expect(seen.files).toBeGreaterThan(30);
    expect(seen.unchanged).toBeGreaterThan(10);
  });
});
