import { describe, expect, it } from 'vitest';
import { compareMavenVersions, maven } from '../src/index.ts';
import { fixture } from './fixtures.ts';

/**
 * Test vectors of maven-artifact's ComparableVersionTest (maven-3.9.x,
 * https://github.com/apache/maven/blob/maven-3.9.x/maven-artifact/src/test/java/org/apache/maven/artifact/versioning/ComparableVersionTest.java):
 * `checkVersionsEqual`, `checkVersionsOrder` (pairs and ascending lists) and the MNG-xxxx cases.
 */
const EQUAL: Array<[string, string]> = [
  ['1', '1'],
  ['1', '1.0'],
  ['1', '1.0.0'],
  ['1.0', '1.0.0'],
  ['1', '1-0'],
  ['1', '1.0-0'],
  ['1.0', '1.0-0'],
  // no separator between number and character
  ['1a', '1-a'],
  ['1a', '1.0-a'],
  ['1a', '1.0.0-a'],
  ['1.0a', '1-a'],
  ['1.0.0a', '1-a'],
  ['1x', '1-x'],
  ['1x', '1.0-x'],
  ['1x', '1.0.0-x'],
  ['1.0x', '1-x'],
  ['1.0.0x', '1-x'],
  // aliases
  ['1ga', '1'],
  ['1release', '1'],
  ['1final', '1'],
  ['1cr', '1rc'],
  // a, b and m before a digit stand for alpha, beta and milestone
  ['1a1', '1-alpha-1'],
  ['1b2', '1-beta-2'],
  ['1m3', '1-milestone-3'],
  // case insensitive
  ['1X', '1x'],
  ['1A', '1a'],
  ['1B', '1b'],
  ['1M', '1m'],
  ['1Ga', '1'],
  ['1GA', '1'],
  ['1RELEASE', '1'],
  ['1release', '1'],
  ['1RELeaSE', '1'],
  ['1Final', '1'],
  ['1FinaL', '1'],
  ['1FINAL', '1'],
  ['1Cr', '1Rc'],
  ['1cR', '1rC'],
  ['1m3', '1Milestone3'],
  ['1m3', '1MileStone3'],
  ['1m3', '1MILESTONE3'],
  // testLocaleIndependent
  ['1-abcdefghijklmnopqrstuvwxyz', '1-ABCDEFGHIJKLMNOPQRSTUVWXYZ'],
  // MNG-7644: 2.0.X == 2-X == 2.0.0.X for any string X
  ...['abc', 'alpha', 'a', 'beta', 'b', 'def', 'milestone', 'm', 'RC'].flatMap(
    (x): Array<[string, string]> => [
      [`2-${x}`, `2.0.${x}`],
      [`2-${x}`, `2.0.0.${x}`],
      [`2.0.${x}`, `2.0.0.${x}`],
    ],
  ),
];

/** `[a, b]`: a < b. */
const ORDERED: Array<[string, string]> = [
  // testVersionComparing
  ['1', '2'],
  ['1.5', '2'],
  ['1', '2.5'],
  ['1.0', '1.1'],
  ['1.1', '1.2'],
  ['1.0.0', '1.1'],
  ['1.0.1', '1.1'],
  ['1.1', '1.2.0'],
  ['1.0-alpha-1', '1.0'],
  ['1.0-alpha-1', '1.0-alpha-2'],
  ['1.0-alpha-1', '1.0-beta-1'],
  ['1.0-beta-1', '1.0-SNAPSHOT'],
  ['1.0-SNAPSHOT', '1.0'],
  ['1.0-alpha-1-SNAPSHOT', '1.0-alpha-1'],
  ['1.0', '1.0-1'],
  ['1.0-1', '1.0-2'],
  ['1.0.0', '1.0-1'],
  ['2.0-1', '2.0.1'],
  ['2.0.1-klm', '2.0.1-lmn'],
  ['2.0.1', '2.0.1-123'],
  ['2.0.1-xyz', '2.0.1-123'],
  // MNG-5568 (transitivity)
  ['6.1.0rc3', '6.1.0'],
  // MNG-6572 (numbers of any size)
  ['20190126.230843', '1234567890.12345'],
  ['1234567890.12345', '123456789012345.1H.5-beta'],
  ['20190126.230843', '123456789012345.1H.5-beta'],
  ['123456789012345.1H.5-beta', '12345678901234567890.1H.5-beta'],
  ['1234567890.12345', '12345678901234567890.1H.5-beta'],
  ['20190126.230843', '12345678901234567890.1H.5-beta'],
  // MNG-6964: a sublist starting with 0 is compared as a whole with padding
  ['1-0.alpha', '1'],
  ['1-0.beta', '1'],
  ['1-0.alpha', '1-0.beta'],
  // MNG-7644: 1.0.0.X1 < 1.0.0-X2 for any string X
  ...['abc', 'alpha', 'a', 'beta', 'b', 'def', 'milestone', 'm', 'RC'].map((x): [string, string] => [`1.0.0.${x}1`, `1.0.0-${x}2`]),
  // mixed separators inside a qualifier (maven-artifact 3.9.6, as its jar answers): a number joined to the letters
  // directly or by `-` opens a sublist (`rc-2` ≡ `rc2` → [rc, [2]]), one after a `.` stays an item (`rc.1` → [rc, 1]),
  // and a list sorts below a number: `rc-2` < `rc.1`
  ['2.0.0-rc-2', '2.0.0-rc.1'],
  ['2.0.0-rc.1', '2.0.0-rc.2'],
  ['2.0.0-rc-1', '2.0.0-rc-2'],
  ['1.0-alpha-1', '1.0.0-alpha.1'],
  ['1.0-alpha-2', '1.0.0-alpha.1'],
  ['1.0-alpha-1', '1.0.0-alpha-2'],
];

/** Ascending lists: each version is below every later one. */
const ASCENDING: string[][] = [
  // VERSIONS_QUALIFIER
  [
    '1-alpha2snapshot',
    '1-alpha2',
    '1-alpha-123',
    '1-beta-2',
    '1-beta123',
    '1-m2',
    '1-m11',
    '1-rc',
    '1-cr2',
    '1-rc123',
    '1-SNAPSHOT',
    '1',
    '1-sp',
    '1-sp2',
    '1-sp123',
    '1-abc',
    '1-def',
    '1-pom-1',
    '1-1-snapshot',
    '1-1',
    '1-2',
    '1-123',
  ],
  // VERSIONS_NUMBER
  [
    '2.0',
    '2.0.a',
    '2-1',
    '2.0.2',
    '2.0.123',
    '2.1.0',
    '2.1-a',
    '2.1b',
    '2.1-c',
    '2.1-1',
    '2.1.0.1',
    '2.2',
    '2.123',
    '11.a2',
    '11.a11',
    '11.b2',
    '11.b11',
    '11.m2',
    '11.m11',
    '11',
    '11.a',
    '11b',
    '11c',
    '11m',
  ],
];

/** testVersionEqualWithLeadingZeroes / testVersionZeroEqualWithLeadingZeroes: 1 to 19 characters. */
const LEADING_ZEROES = [Array.from({ length: 19 }, (_, i) => `${'0'.repeat(i)}1`), Array.from({ length: 19 }, (_, i) => '0'.repeat(i + 1))];

describe('Maven ComparableVersion test vectors', () => {
  it.each(EQUAL)('%s == %s', (a, b) => {
    expect(compareMavenVersions(a, b)).toBe(0);
    expect(compareMavenVersions(b, a)).toBe(0);
  });
  it.each(ORDERED)('%s < %s', (a, b) => {
    expect(compareMavenVersions(a, b)).toBeLessThan(0);
    expect(compareMavenVersions(b, a)).toBeGreaterThan(0);
  });
  it.each(ASCENDING.map((list) => [list[0], list]))('ascending list from %s', (_, list) => {
    for (let i = 0; i < list.length; i++) {
      for (let j = i + 1; j < list.length; j++) {
        expect(compareMavenVersions(list[i] as string, list[j] as string), `${list[i]} < ${list[j]}`).toBeLessThan(0);
        expect(compareMavenVersions(list[j] as string, list[i] as string), `${list[j]} > ${list[i]}`).toBeGreaterThan(0);
      }
    }
  });
  it('reads numbers with leading zeroes as the same number, at any length', () => {
    for (const list of LEADING_ZEROES)
      for (const a of list) for (const b of list) expect(compareMavenVersions(a, b), `${a} == ${b}`).toBe(0);
  });
});

describe('Maven POM sections', () => {
  const files = fixture('maven-sections');
  const find = (name: string) => maven.findDependency(files, name);

  it('takes a plugin version left out from pluginManagement, resolving its property', () => {
    expect(find('org.apache.maven.plugins:maven-surefire-plugin')).toEqual({
      name: 'org.apache.maven.plugins:maven-surefire-plugin',
      type: 'development',
      requirement: '3.2.2',
      version: '3.2.2',
      manifest: 'pom.xml',
    });
    expect(find('org.apache.maven.plugins:maven-compiler-plugin')).toMatchObject({ requirement: '3.11.0', version: '3.11.0' });
  });
  it('reads plugin dependencies, profile plugins, reporting plugins, annotation processors and profile dependencyManagement', () => {
    expect(find('org.junit.platform:junit-platform-surefire-provider')).toMatchObject({ type: 'development', version: '1.3.2' });
    expect(find('org.apache.maven.plugins:maven-gpg-plugin')).toMatchObject({ type: 'development', version: '3.1.0' });
    expect(find('org.apache.maven.plugins:maven-project-info-reports-plugin')).toMatchObject({ type: 'development', version: '3.4.5' });
    expect(find('org.mapstruct:mapstruct-processor')).toMatchObject({ type: 'development', version: '1.5.5.Final' });
    expect(find('com.fasterxml.jackson:jackson-bom')).toMatchObject({ type: 'runtime', version: '2.16.0' });
    // lombok is both a dependency (provided) and an annotation processor: the dependency gives the use
    expect(find('org.projectlombok:lombok')).toMatchObject({ type: 'development', requirement: '1.18.30' });
  });
  it('lists every coordinate once, in section order', () => {
    expect(maven.listDependencies(files).map((use) => use.name)).toEqual([
      'org.projectlombok:lombok',
      'org.mapstruct:mapstruct',
      'com.fasterxml.jackson:jackson-bom',
      'org.apache.maven.plugins:maven-surefire-plugin',
      'org.apache.maven.plugins:maven-compiler-plugin',
      'org.apache.maven.plugins:maven-gpg-plugin',
      'org.apache.maven.plugins:maven-project-info-reports-plugin',
      'org.junit.platform:junit-platform-surefire-provider',
      'org.mapstruct:mapstruct-processor',
    ]);
  });

  const update = (name: string, target: string) => {
    const use = find(name);
    if (!use) throw new Error(`${name} not found`);
    return maven.updateManifest(files, use, target);
  };
  const pom = files['pom.xml'] as string;
  it('rewrites the pluginManagement version (through its property) of a plugin that leaves its version out', () => {
    expect(update('org.apache.maven.plugins:maven-surefire-plugin', '3.2.5')).toEqual({
      files: { 'pom.xml': pom.replace('<surefire.version>3.2.2<', '<surefire.version>3.2.5<') },
      requirement: '3.2.5',
    });
    expect(update('org.apache.maven.plugins:maven-compiler-plugin', '3.12.1')).toMatchObject({
      files: { 'pom.xml': pom.replace('<version>3.11.0</version>', '<version>3.12.1</version>') },
    });
  });
  it.each([
    ['org.junit.platform:junit-platform-surefire-provider', '1.3.2', '1.3.3'],
    ['org.apache.maven.plugins:maven-gpg-plugin', '3.1.0', '3.2.0'],
    ['org.apache.maven.plugins:maven-project-info-reports-plugin', '3.4.5', '3.5.0'],
    ['com.fasterxml.jackson:jackson-bom', '2.16.0', '2.16.1'],
  ])('rewrites the version of %s', (name, from, to) => {
    const result = update(name, to);
    expect(result).toMatchObject({ requirement: to });
    const text = 'files' in result ? (result.files['pom.xml'] as string) : '';
    expect(text.replace(`<version>${to}</version>`, `<version>${from}</version>`)).toBe(pom);
  });
  it('moves the property of a dependency that is also an annotation processor once', () => {
    expect(update('org.projectlombok:lombok', '1.18.32')).toEqual({
      files: { 'pom.xml': pom.replace('<lombok.version>1.18.30<', '<lombok.version>1.18.32<') },
      requirement: '1.18.32',
    });
  });
  it('rewrites the property of an annotation processor, naming the other coordinates that move with it', () => {
    expect(update('org.mapstruct:mapstruct-processor', '1.6.0')).toEqual({
      files: { 'pom.xml': pom.replace('<mapstruct.version>1.5.5.Final<', '<mapstruct.version>1.6.0<') },
      requirement: '1.6.0',
      note: expect.stringContaining('org.mapstruct:mapstruct'),
    });
  });
});
