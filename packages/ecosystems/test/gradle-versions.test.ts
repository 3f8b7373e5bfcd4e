import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assessUpdate } from '../src/assess.ts';
import { gradle } from '../src/gradle/ecosystem.ts';
import { updateGradleLockfiles } from '../src/gradle/lockfile.ts';
import { compareGradleVersions, isGradlePrerelease, parseGradleVersion } from '../src/gradle/version-order.ts';
import { gradleVersions, parseGradleRequirement } from '../src/gradle/versions.ts';
import { CORPUS_PRESENT, corpusDirectories } from './corpus.ts';

const sign = (n: number) => Math.sign(n);

/** Asserts `smaller` < `larger` both ways round, and each equal to itself (Gradle's tests check the same four). */
function expectOrdered(smaller: string, larger: string) {
  expect(sign(gradleVersions.compare(smaller, larger)), `${smaller} < ${larger}`).toBe(-1);
  expect(sign(gradleVersions.compare(larger, smaller)), `${larger} > ${smaller}`).toBe(1);
  expect(gradleVersions.compare(smaller, smaller)).toBe(0);
  expect(gradleVersions.compare(larger, larger)).toBe(0);
}

describe('gradle version order: the examples of the issue', () => {
  it('1.0 < 1.0.0 (an extra numeric part is higher), so 2.5 does not satisfy 2.5.0', () => {
    expectOrdered('1.0', '1.0.0');
    expect(gradleVersions.satisfies('2.5', '2.5.0')).toBe(false);
    expect(gradleVersions.satisfies('2.5.0', '2.5')).toBe(true);
  });
  it('-dev is below everything', () => {
    for (const other of [
      '1.0-alpha',
      '1.0-XXX',
      '1.0-rc',
      '1.0-snapshot',
      '1.0-final',
      '1.0-ga',
      '1.0-release',
      '1.0-sp',
      '1.0',
      '1.0.1',
    ]) {
      expectOrdered('1.0-dev', other);
    }
  });
  it.each(['31.1-final', '31.1-ga', '31.1-release', '31.1-sp1', '31.1-jre', '31.1-android'])(
    '%s (an extra non-numeric part) is lower than the plain release 31.1',
    (qualified) => {
      expectOrdered(qualified, '31.1');
      expect(gradleVersions.satisfies(qualified, '31.1')).toBe(false);
    },
  );
  it('1.0.0-alpha01 is in [1.0,2.0)', () => {
    expect(gradleVersions.satisfies('1.0.0-alpha01', '[1.0,2.0)')).toBe(true);
    expectOrdered('1.0', '1.0.0-alpha01');
  });
  it('v2.0.0 is a valid version and requirement, ordered by Gradle rules, never InvalidRequirementError', () => {
    expect(gradleVersions.isValid('v2.0.0')).toBe(true);
    expect(parseGradleRequirement('v2.0.0')).toEqual({ kind: 'required', version: 'v2.0.0' });
    expect(gradleVersions.satisfies('v2.0.0', 'v2.0.0')).toBe(true);
    expect(gradleVersions.satisfies('v2.1.0', 'v2.0.0')).toBe(true);
    expectOrdered('v2.0.0', 'v2.0.1');
    // `v` is a text part, below any number: Gradle's order, whatever the digits after it
    expectOrdered('v9.0.0', '1.0');
    expect(gradleVersions.release?.('v2.3.4')).toEqual([2, 3, 4]);
    expect(gradleVersions.updateKind('v2.0.0', 'v3.0.0')).toBe('major');
    const files = { 'build.gradle': "dependencies {\n  implementation 'com.termux:termux-am-library:v2.0.0'\n}\n" };
    const use = gradle.findDependency(files, 'com.termux:termux-am-library');
    expect(use).toMatchObject({ requirement: 'v2.0.0', version: 'v2.0.0' });
    expect(assessUpdate(gradle, use as NonNullable<typeof use>, 'v2.1.0')).toMatchObject({ outdated: true, kind: 'minor' });
    expect(gradle.updateManifest(files, use as NonNullable<typeof use>, 'v2.1.0')).toEqual({
      files: { 'build.gradle': files['build.gradle'].replace('v2.0.0', 'v2.1.0') },
      requirement: 'v2.1.0',
    });
  });
  it.runIf(CORPUS_PRESENT)("reads termux-app's termux-shared/build.gradle `com.termux:termux-am-library:v2.0.0`", () => {
    const termux = corpusDirectories(gradle).find((d) => d.label === 'termux/termux-app/.');
    expect(termux?.files['termux-shared/build.gradle']).toContain('com.termux:termux-am-library:v2.0.0');
    const use = gradle.findDependency(termux?.files ?? {}, 'com.termux:termux-am-library');
    expect(use).toMatchObject({ requirement: 'v2.0.0', version: 'v2.0.0', manifest: 'termux-shared/build.gradle' });
    expect(() => assessUpdate(gradle, use as NonNullable<typeof use>, 'v2.0.1')).not.toThrow();
    for (const listed of gradle.listDependencies(termux?.files ?? {})) {
      if (listed.requirement !== null)
        expect(() => gradleVersions.satisfies(listed.version ?? '1.0', listed.requirement as string)).not.toThrow();
    }
  });
});

// gradle/gradle platforms/software/dependency-management/src/test/groovy/.../strategy/DefaultVersionComparatorTest.groovy
describe("Gradle's DefaultVersionComparatorTest vectors", () => {
  const table = (rows: string) =>
    rows
      .trim()
      .split('\n')
      .map((row) => row.trim().split(/\s*\|\s*/) as [string, string]);
  it.each(
    table(`
    1.0 | 2.0
    1.0 | 1.1
    1.2 | 1.10
    1.0.1 | 1.1.0
    1.2 | 1.2.3
    12 | 12.2.3
    12 | 13
    1.0-1 | 1.0-2
    1.0-1 | 1.0.2
    1.0-1 | 1+0_2
    2.11.4 | 2.11.4+4
  `),
  )('numeric parts are compared as numbers: %s < %s', expectOrdered);
  it.each(
    table(`
    1.0.a | 1.0.b
    1.0.A | 1.0.b
    1.0-alpha | 1.0-beta
    1.0-ALPHA | 1.0-BETA
    1.0-ALPHA | 1.0-alpha
    1.0.alpha | 1.0.b
    alpha | beta
    1.0-a | 1.0-alpha
    1.0-a | 1.0-a1
  `),
  )('non-numeric parts compare alphabetically, case-sensitive: %s < %s', expectOrdered);
  it.each(
    table(`
    1.0-alpha | 1.0.1
    a.b.c | a.b.123
    a | 123
    1.0.0-alpha.beta | 1.0.0-alpha.1
  `),
  )('numeric parts are larger than non-numeric ones: %s < %s', expectOrdered);
  it.each(
    table(`
    1.0-alpha | 1.0
    1.0.a | 1.0
    1.beta.a | 1.beta
    a-b-c | a.b
  `),
  )('extra trailing parts without digits make the version smaller: %s < %s', expectOrdered);
  it.each(
    table(`
    1.0 | 1.0.0
    1 | 1.0.0
  `),
  )('extra trailing zero parts make the version larger: %s < %s', expectOrdered);
  it.each(
    table(`
    1.0-SNAPSHOT | 1.0
    1.0 | 1.0-20150201.121010-123
    1.0-20150201.121010-123 | 1.0-20150201.121010-124
    1.0-20150201.121010-123 | 1.0-20150201.131010-1
    1.0-SNAPSHOT | 1.0-20150201.131010-1
    1.0 | 1.1-SNAPSHOT
    1.0 | 1.1-20150201.121010-12
    1.1-20150201.121010-12 | 1.2
  `),
  )('Maven snapshot-like versions, as Gradle orders them: %s < %s', expectOrdered);
  it.each(
    table(`
    1.0-alpha | 1.0-rc
    1.0-alpha-1 | 1.0-rc-1
    1.0-alpha | 1.0-snapshot
    1.0-alpha | 1.0-final
    1.0-alpha | 1.0-ga
    1.0-alpha | 1.0-release
    1.0-alpha | 1.0-sp
    1.0-alpha | 1.0
    1.0-rc-1 | 1.0-rc-2
    1.0-rc | 1.0-snapshot
    1.0-rc | 1.0-final
    1.0-rc-1 | 1.0-final
    1.0-rc | 1.0-ga
    1.0-rc | 1.0-release
    1.0-rc-1 | 1.0-release
    1.0-rc | 1.0-sp
    1.0-rc | 1.0
    1.0-rc-1 | 1.0
    1.0-snapshot | 1.0-final
    1.0-snapshot | 1.0-ga
    1.0-snapshot | 1.0-release
    1.0-snapshot | 1.0-sp
    1.0-snapshot | 1.0
    1.0-final | 1.0-ga
    1.0-final | 1.0-release
    1.0-final | 1.0-sp
    1.0-final | 1.0
    1.0-ga | 1.0-release
    1.0-ga | 1.0-sp
    1.0-ga | 1.0-
    1.0-release | 1.0-sp
    1.0-release | 1.0
    1.0-sp | 1.0
    1.0.alpha | 1.0.rc
    1.0.rc | 1.0.snapshot
    1.0.snapshot | 1.0.final
    1.0.final | 1.0.ga
    1.0.ga | 1.0.release
    1.0.release | 1.0.sp
    1.0.sp | 1.0
  `),
  )('special qualifiers, whatever the separator: %s < %s', expectOrdered);
  it.each(
    table(`
    1.0-dev | 1.0.1
    1.0-dev | 1.0-alpha
    1.0-dev | 1.0-XXX
    1.0-dev | 1.0-rc
    1.0-dev | 1.0-snapshot
    1.0-dev | 1.0-final
    1.0-dev | 1.0-ga
    1.0-dev | 1.0-release
    1.0-dev | 1.0-sp
    1.0-dev | 1.0
    1.0-dev-1 | 1.0-dev-2
    1.0-dev-1 | 1.0-xx-1
    1.0-dev-1 | 1.0-rc-1
    1.0-dev-1 | 1.0-final
  `),
  )('dev is lower than any other string qualifier: %s < %s', expectOrdered);
  it.each(
    table(`
    1.0 | 1_0
    1_0 | 1-0
    1-0 | 1+0
    1.a.2 | 1a2
    01.0 | 1.0
    001.2.003 | 0001.02.3
    1.0-rc | 1.0.RC
    1.0-rc-1 | 1.0.RC.1
    1.0-snapshot | 1.0.SNAPSHOT
    1.0-final | 1.0.FINAL
    1.0-ga | 1.0.GA
    1.0-release | 1.0.RELEASE
    1.0-sp | 1.0.SP
  `),
  )('separators, leading zeros and the case of special qualifiers do not count: %s = %s', (a, b) => {
    expect(gradleVersions.compare(a, b)).toBe(0);
    expect(gradleVersions.compare(b, a)).toBe(0);
  });
  it('orders texts that are not versions too, as Gradle does', () => {
    expect(compareGradleVersions('', '')).toBe(0);
    expect(compareGradleVersions('!@#%', '!@#%')).toBe(0);
    expect(compareGradleVersions('hey joe', 'hey joe')).toBe(0);
  });
  it('keeps comparing after two special qualifiers of the same meaning (a total order, where Gradle stops)', () => {
    expectOrdered('1.0-RC-1', '1.0-rc-2');
  });
  it('reads digit runs beyond a Java long as text, below every number', () => {
    expectOrdered('1.99999999999999999999', '1.0');
    expectOrdered('1.9223372036854775806', '1.9223372036854775807');
  });
});

// gradle/gradle .../strategy/VersionParserTest.groovy
describe("Gradle's VersionParserTest vectors", () => {
  it.each([
    ['a.b.c', ['a', 'b', 'c']],
    ['a-b-c', ['a', 'b', 'c']],
    ['a_b_c', ['a', 'b', 'c']],
    ['a+b+c', ['a', 'b', 'c']],
    ['a.b-c+d_e', ['a', 'b', 'c', 'd', 'e']],
    ['\u03b1-\u03b2', ['\u03b1', '\u03b2']],
    ['abc123', ['abc', '123']],
    ['1a2b', ['1', 'a', '2', 'b']],
    ['1\u03b12\u03b2', ['1', '\u03b1', '2', '\u03b2']],
    ['', []],
    ['a b c', ['a b c']],
    ['...', ['', '', '']],
    ['-a b c-  ', ['', 'a b c', '  ']],
  ])('splits %j into %j', (version, parts) => {
    expect(parseGradleVersion(version).parts).toEqual(parts);
  });
  it.each([
    ['1.2.3', [1n, 2n, 3n]],
    ['1.2-3', [1n, 2n, 3n]],
    ['1.2-beta_3+0000', [1n, 2n, null, 3n, 0n]],
    ['1.2b3', [1n, 2n, null, 3n]],
    ['1-alpha', [1n, null]],
    ['abc.1-3', [null, 1n, 3n]],
    ['123', [123n]],
    ['abc', [null]],
    ['a.b.c.1.2', [null, null, null, 1n, 2n]],
    ['1b2.1.2.3', [1n, null, 2n, 1n, 2n, 3n]],
    ['b1-2-3.3', [null, 1n, 2n, 3n, 3n]],
  ])('reads the numeric parts of %s', (version, numeric) => {
    expect(parseGradleVersion(version).numeric).toEqual(numeric);
  });
});

describe('gradle ranges (VersionRangeSelector)', () => {
  it.each([
    ['1.5', '[1.0,2.0]', true],
    ['2.0', '[1.0,2.0]', true],
    ['2.0', '[1.0,2.0[', false],
    ['1.0', ']1.0,2.0]', false],
    ['1.0.1', ']1.0,2.0]', true],
    ['1.0', '(1.0,2.0)', false],
    ['5.0', '[1.0,)', true],
    ['1.0', ']1.0,)', false],
    ['0.1', '(,2.0]', true],
    ['2.0', '(,2.0[', false],
    ['1.2', '[1.2]', true],
    ['1.2.0', '[1.2]', false],
    ['1.5', '[ 1.0 , 2.0 )', true],
    // an exclusive upper bound also excludes the versions that start with it
    ['2.0-SNAPSHOT', '[1.0,2.0)', false],
    ['2.0-dev1', '[1.0,2.0[', false],
    ['2.0-SNAPSHOT', '[1.0,2.0]', true],
    ['1.9-SNAPSHOT', '[1.0,2.0)', true],
    // Gradle's order, not Maven's
    ['2.0.0', '(,2.0)', false],
    ['31.1-jre', '[31.1,32)', false],
    ['31.1.0-jre', '[31.1,32)', true],
    // a lower bound above the upper one matches nothing, as in Gradle
    ['1.5', '[2.0,1.0]', false],
  ])('%s in %s: %s', (version, range, expected) => {
    expect(gradleVersions.satisfies(version, range)).toBe(expected);
  });
  it('reads every form of Gradle selector, and refuses unions and references', () => {
    expect(parseGradleRequirement('[1.0,2.0[')).toEqual({
      kind: 'range',
      range: { lower: { version: '1.0', inclusive: true }, upper: { version: '2.0', inclusive: false } },
      reversed: true,
    });
    expect(parseGradleRequirement('1.2+')).toEqual({ kind: 'prefix', prefix: '1.2' });
    expect(parseGradleRequirement('latest.milestone')).toEqual({ kind: 'latest', status: 'milestone' });
    expect(parseGradleRequirement('r09')).toEqual({ kind: 'required', version: 'r09' });
    expect(() => parseGradleRequirement('(,1.0],[1.2,)')).toThrow(/not one range/);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a Gradle property reference, not a template
    expect(() => parseGradleRequirement('${guava}')).toThrow(/property/);
    expect(gradleVersions.lowestAllowed?.(']1.0,2.0]')).toBeNull();
    expect(gradleVersions.lowestAllowed?.('[1.0,2.0[')).toBe('1.0');
  });
  it('widens reversed-bracket ranges as Maven-notation ones', () => {
    const files = { 'build.gradle': "dependencies {\n  implementation 'a.b:c:]1.0,2.0['\n}\n" };
    const use = gradle.findDependency(files, 'a.b:c') as NonNullable<ReturnType<typeof gradle.findDependency>>;
    expect(gradle.updateManifest(files, use, '2.3.1')).toEqual({
      files: { 'build.gradle': files['build.gradle'].replace(']1.0,2.0[', ']1.0,3.0[') },
      requirement: ']1.0,3.0[',
    });
  });
});

describe('gradle pre-releases (Dependabot: dependabot-core gradle/lib/dependabot/gradle/version.rb, prerelease?)', () => {
  it.each([
    ['1.0.0-alpha01', true],
    ['2.0-M1', true],
    ['1.0-SNAPSHOT', true],
    ['1.0-beta-2', true],
    ['5.0.0-RC1', true],
    ['1.0.0-CR2', true],
    ['2024.1-eap', true],
    ['1.0-dev', true],
    ['1.0b3', true],
    ['31.1-jre', false],
    ['33.0-android', false],
    ['5.6.15.Final', false],
    ['4.3.0.RELEASE', false],
    ['1.0-SP1', false],
    ['v2.0.0', false],
    ['1.0-20150201.121010-123', false],
  ])('%s: %s', (version, expected) => {
    expect(gradleVersions.isPrerelease(version)).toBe(expected);
    expect(isGradlePrerelease(version)).toBe(expected);
  });
});

describe('gradle validity', () => {
  it.each(['v2.0.0', 'r09', '1.0.0-alpha01', '2.11.4+4', 'hey', '1.0_beta'])('%s is a version', (v) => {
    expect(gradleVersions.isValid(v)).toBe(true);
  });
  it.each(['', ' ', '1.+', '+', '[1.0,2.0)', 'latest.release', '$version', '$v', '1.0!!', 'a b', 'g:a'])('%j is not', (v) => {
    expect(gradleVersions.isValid(v)).toBe(false);
    expect(() => gradleVersions.compare(v, '1.0')).toThrow(/not a valid Gradle version/);
  });
});

describe('gradle version order properties (fast-check)', () => {
  const token = fc.oneof(
    fc.nat(30).map(String),
    fc.constantFrom('0', '00', '01', '10'),
    fc.constantFrom(
      'dev',
      'rc',
      'RC',
      'snapshot',
      'SNAPSHOT',
      'final',
      'Final',
      'ga',
      'release',
      'sp',
      'alpha',
      'beta',
      'jre',
      'a',
      'B',
      'v',
    ),
  );
  const separator = fc.constantFrom('.', '-', '_', '+', '');
  const version = fc
    .tuple(token, fc.array(fc.tuple(separator, token), { maxLength: 5 }))
    .map(([first, rest]) => first + rest.map(([s, t]) => s + t).join(''));
  const compare = gradleVersions.compare;

  it('is antisymmetric and reflexive', () => {
    fc.assert(
      fc.property(version, version, (a, b) => {
        expect(sign(compare(a, a))).toBe(0);
        expect(sign(compare(a, b)) + sign(compare(b, a))).toBe(0);
      }),
      { numRuns: 1000 },
    );
  });
  it('is transitive, equality included', () => {
    fc.assert(
      fc.property(version, version, version, (a, b, c) => {
        const [x, y, z] = [a, b, c].sort(compare) as [string, string, string];
        expect(compare(x, y)).toBeLessThanOrEqual(0);
        expect(compare(y, z)).toBeLessThanOrEqual(0);
        expect(compare(x, z)).toBeLessThanOrEqual(0);
        if (compare(a, b) === 0 && compare(b, c) === 0) expect(compare(a, c)).toBe(0);
        if (compare(a, b) === 0) expect(sign(compare(a, c))).toBe(sign(compare(b, c)));
      }),
      { numRuns: 1000 },
    );
  });
  it('agrees with satisfies: plain versions, strict versions and ranges by their bounds', () => {
    fc.assert(
      fc.property(version, version, version, (v, a, b) => {
        const [low, high] = compare(a, b) <= 0 ? [a, b] : [b, a];
        expect(gradleVersions.satisfies(v, a)).toBe(compare(v, a) >= 0);
        expect(gradleVersions.satisfies(v, `${a}!!`)).toBe(compare(v, a) === 0);
        const afterLow = compare(v, low);
        const beforeHigh = compare(v, high);
        expect(gradleVersions.satisfies(v, `[${low},${high}]`)).toBe(afterLow >= 0 && beforeHigh <= 0);
        expect(gradleVersions.satisfies(v, `]${low},${high}]`)).toBe(afterLow > 0 && beforeHigh <= 0);
        expect(gradleVersions.satisfies(v, `(${low},)`)).toBe(afterLow > 0);
        expect(gradleVersions.satisfies(v, `[${low},${high})`)).toBe(afterLow >= 0 && beforeHigh < 0 && !v.startsWith(high));
        expect(gradleVersions.satisfies(v, `(,${high}[`)).toBe(beforeHigh < 0 && !v.startsWith(high));
      }),
      { numRuns: 1000 },
    );
  });
  it('sorts the same whatever the input order', () => {
    fc.assert(
      fc.property(fc.array(version, { maxLength: 12 }), (versions) => {
        const once = [...versions].sort(compare);
        const again = [...versions].reverse().sort(compare);
        expect(once.map((v, i) => compare(v, again[i] as string))).toEqual(once.map(() => 0));
      }),
      { numRuns: 300 },
    );
  });
});

describe('gradle lockfile entries are exported through the ecosystem', () => {
  it('declares the lockfiles it reads and updates', () => {
    for (const file of ['gradle.lockfile', 'buildscript-gradle.lockfile', '*/gradle.lockfile', 'gradle/dependency-locks/*.lockfile']) {
      expect(gradle.files.optional).toContain(file);
      expect(gradle.files.lockfiles).toContain(file);
    }
    expect(gradle.updateLockfiles).toBeDefined();
    expect(typeof updateGradleLockfiles).toBe('function');
  });
});
