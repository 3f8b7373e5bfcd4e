import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readGradleProperties } from '../src/gradle/properties.ts';
import { ecosystemFor, gradle, gradleVersions, InvalidRequirementError, ManifestParseError, parseGradleRequirement } from '../src/index.ts';
import { sorted } from './fixtures.ts';
import { listChecked, rows } from './invariant.ts';

/** Every file under `test/fixtures/gradle/<dir>`, keyed by its path relative to that directory. */
function gradleFixture(dir: string): Record<string, string> {
  const root = join(import.meta.dirname, 'fixtures', 'gradle', dir);
  const walk = (at: string): [string, string][] =>
    readdirSync(at).flatMap((name) => {
      const path = join(at, name);
      return statSync(path).isDirectory() ? walk(path) : [[relative(root, path).split('\\').join('/'), readFileSync(path, 'utf8')]];
    });
  return Object.fromEntries(walk(root));
}

describe('gradle findDependency', () => {
  const groovy = gradleFixture('groovy');
  const kotlin = gradleFixture('kotlin');
  const find = (name: string, files = groovy) => gradle.findDependency(files, name);

  it('reads string and map notation, in buildscript and dependencies', () => {
    expect(find('com.google.guava:guava')).toEqual({
      name: 'com.google.guava:guava',
      type: 'runtime',
      requirement: '32.1.3-jre',
      version: '32.1.3-jre',
      manifest: 'build.gradle',
    });
    expect(find('com.android.tools.build:gradle')).toMatchObject({ requirement: '8.2.2', type: 'runtime' });
    expect(find('org.apache.commons:commons-lang3')).toMatchObject({ requirement: '3.14.0', version: '3.14.0' });
    expect(find('org.springframework.boot:spring-boot-dependencies')).toMatchObject({ requirement: '3.2.2' });
    expect(find('org.springframework.boot:spring-boot-starter-web')).toMatchObject({ requirement: null, version: null });
  });
  it('follows properties: ext, ext blocks, maps, def, gradle.properties', () => {
    expect(find('org.jetbrains.kotlin:kotlin-gradle-plugin')).toMatchObject({ requirement: '1.9.22' });
    expect(find('com.squareup.okhttp3:okhttp')).toMatchObject({ requirement: '4.12.0' });
    expect(find('com.squareup.okhttp3:logging-interceptor')).toMatchObject({ requirement: '4.12.0' });
    expect(find('com.squareup.retrofit2:retrofit')).toMatchObject({ requirement: '2.9.0' });
    expect(find('com.fasterxml.jackson.core:jackson-databind')).toMatchObject({ requirement: '2.16.1' });
    expect(find('io.reactivex.rxjava3:rxjava')).toMatchObject({ requirement: '3.1.8', manifest: 'build.gradle' });
    expect(find('ch.qos.logback:logback-classic', kotlin)).toMatchObject({ requirement: '1.4.14' });
    expect(find('io.ktor:ktor-server-netty', kotlin)).toMatchObject({ requirement: '2.3.7' });
  });
  it('reads gradle.properties values followed by long blank runs', () => {
    const blanks = ' \t\f'.repeat(70_000);
    const text = `a=1.0${blanks}\r\nb : 2.0${' '.repeat(200_000)}x \t\nc 3.0\u00a0\n`;
    const properties = readGradleProperties(text);
    const a = properties.get('a');
    expect(a).toEqual({ start: 2, end: 5, text: '1.0' });
    const b = properties.get('b');
    expect(b?.text).toBe(`2.0${' '.repeat(200_000)}x`);
    expect(text.slice(b?.start, b?.end)).toBe(b?.text);
    expect(properties.get('c')?.text).toBe('3.0\u00a0');
  });
  it('reads dynamic versions and ranges as requirements without a version in use', () => {
    expect(find('org.projectlombok:lombok')).toMatchObject({ requirement: '1.18.+', version: null });
    expect(find('org.postgresql:postgresql')).toMatchObject({ requirement: '[42.6,43.0)', version: null });
    expect(find('org.junit.platform:junit-platform-launcher', kotlin)).toMatchObject({ type: 'development', requirement: '1.10.+' });
  });
  it('gives test configurations the development type, anywhere in the build', () => {
    expect(find('junit:junit')).toMatchObject({ type: 'development', requirement: '4.13.2' });
    expect(find('androidx.test.espresso:espresso-core')).toMatchObject({ type: 'development' });
    expect(find('io.kotest:kotest-runner-junit5', kotlin)).toMatchObject({ type: 'development' });
    expect(find('androidx.core:core-ktx')).toMatchObject({ type: 'runtime', manifest: 'app/build.gradle' });
  });
  it('names plugins by their marker artifact', () => {
    expect(find('com.diffplug.spotless:com.diffplug.spotless.gradle.plugin')).toMatchObject({ requirement: '6.25.0' });
    expect(find('org.jetbrains.kotlin.jvm:org.jetbrains.kotlin.jvm.gradle.plugin', kotlin)).toMatchObject({ requirement: '1.9.22' });
    expect(find('com.github.ben-manes.versions:com.github.ben-manes.versions.gradle.plugin', kotlin)).toMatchObject({
      manifest: 'settings.gradle.kts',
    });
    expect(find('java-library:java-library.gradle.plugin')).toBeUndefined();
  });
  it('reads the version catalog: version.ref, rich versions, string notation, plugins, test-only aliases', () => {
    expect(find('org.mockito:mockito-core')).toEqual({
      name: 'org.mockito:mockito-core',
      type: 'development',
      requirement: '5.10.0',
      version: '5.10.0',
      manifest: 'gradle/libs.versions.toml',
    });
    expect(find('org.jetbrains.kotlinx:kotlinx-coroutines-core')).toMatchObject({ type: 'runtime', requirement: '1.7.3' });
    expect(find('commons-io:commons-io')).toMatchObject({ requirement: '2.15.1' });
    expect(find('org.assertj:assertj-core')).toMatchObject({ requirement: '3.25.2' });
    expect(find('org.springframework:spring-framework-bom')).toMatchObject({ requirement: null });
    expect(find('org.jlleitschuh.gradle.ktlint:org.jlleitschuh.gradle.ktlint.gradle.plugin')).toMatchObject({ requirement: '12.1.0' });
  });
  it('ignores comments and leaves unresolvable versions without a requirement', () => {
    expect(find('commented.out:library')).toBeUndefined();
    expect(find('also.commented:out')).toBeUndefined();
    expect(find('org.slf4j:slf4j-api')).toMatchObject({ requirement: null });
    expect(find('org.jetbrains.exposed:exposed-core', kotlin)).toMatchObject({ requirement: null });
  });
  it('names the catalog when it does not parse', () => {
    expect(() => gradle.findDependency({ ...groovy, 'gradle/libs.versions.toml': '[libraries\nx = 1' }, 'x:y')).toThrow(
      expect.objectContaining({ name: 'ManifestParseError', file: 'gradle/libs.versions.toml' }),
    );
    expect(() =>
      gradle.findDependency({ 'build.gradle': '', 'gradle/libs.versions.toml': '[libraries]\nx = { version = "1" }' }, 'x'),
    ).toThrow(ManifestParseError);
  });
  it('is registered and reads the wildcard subproject entries', () => {
    expect(ecosystemFor('gradle')).toBe(gradle);
    expect(gradle.files.optional).toContain('*/build.gradle.kts');
  });
});

describe('gradle listDependencies', () => {
  it('lists every declaration once, build scripts before the catalog', () => {
    expect(rows(listChecked(gradle, gradleFixture('kotlin')))).toEqual([
      ['org.jetbrains.kotlin.jvm:org.jetbrains.kotlin.jvm.gradle.plugin', 'runtime', '1.9.22', '1.9.22'],
      ['org.jetbrains.dokka:org.jetbrains.dokka.gradle.plugin', 'runtime', '1.9.10', '1.9.10'],
      ['io.ktor:ktor-server-core', 'runtime', '2.3.7', '2.3.7'],
      ['io.ktor:ktor-server-netty', 'runtime', '2.3.7', '2.3.7'],
      ['ch.qos.logback:logback-classic', 'runtime', '1.4.14', '1.4.14'],
      ['org.jetbrains.exposed:exposed-core', 'runtime', null, null],
      ['com.zaxxer:HikariCP', 'runtime', '5.1.0', '5.1.0'],
      ['io.ktor:ktor-bom', 'runtime', '2.3.7', '2.3.7'],
      ['io.kotest:kotest-runner-junit5', 'development', '5.8.0', '5.8.0'],
      ['org.junit.platform:junit-platform-launcher', 'development', '1.10.+', null],
      ['com.github.ben-manes.versions:com.github.ben-manes.versions.gradle.plugin', 'runtime', '0.51.0', '0.51.0'],
    ]);
    const groovy = listChecked(gradle, gradleFixture('groovy'));
    expect(groovy).toHaveLength(27);
    expect(groovy.at(-1)?.manifest).toBe('gradle/libs.versions.toml');
  });
  it('is empty without declarations', () => {
    expect(gradle.listDependencies({ 'build.gradle': "plugins { id 'java' }\n" })).toEqual([]);
  });
});

describe('gradle versions', () => {
  it("orders versions by Gradle's rules", () => {
    expect(sorted(['1.0', '1.0-rc1', '1.0-alpha', '1.0.1', '1.0-beta', '2.0-SNAPSHOT'], gradleVersions.compare)).toEqual([
      '1.0-alpha',
      '1.0-beta',
      '1.0-rc1',
      '1.0',
      '1.0.1',
      '2.0-SNAPSHOT',
    ]);
    expect(gradleVersions.isPrerelease('33.0-jre')).toBe(false);
    expect(gradleVersions.updateKind('1.2.3', '1.3.0')).toBe('minor');
  });
  it.each([
    ['1.2.3', '1.2.3', true],
    ['1.3.0', '1.2.3', true],
    ['1.2.2', '1.2.3', false],
    ['1.2.4', '1.2.3!!', false],
    ['1.2.3', '1.2.3!!', true],
    ['1.9', '1.+', true],
    ['2.0', '1.+', false],
    ['1.18.30', '1.18.+', true],
    ['10.0', '1+', true],
    ['5.0', '+', true],
    ['2.0', 'latest.release', true],
    ['2.0-rc1', 'latest.release', false],
    ['2.0-rc1', 'latest.integration', true],
    ['1.5', '[1.0,2.0)', true],
    ['2.0', '[1.0,2.0)', false],
    ['2.0', ']1.0,2.0]', true],
    ['1.0', ']1.0,2.0]', false],
    ['1.5', '[1.0,2.0[', true],
  ])('%s satisfies %s: %s', (version, requirement, expected) => {
    expect(gradleVersions.satisfies(version, requirement)).toBe(expected);
  });
  it('reads and refuses requirements', () => {
    expect(parseGradleRequirement('1.+')).toEqual({ kind: 'prefix', prefix: '1.' });
    expect(gradleVersions.lowestAllowed?.('[1.0,2.0)')).toBe('1.0');
    expect(gradleVersions.lowestAllowed?.('1.+')).toBeNull();
    expect(gradleVersions.allowsPrereleases?.('latest.integration')).toBe(true);
    expect(() => parseGradleRequirement('$kotlinVersion')).toThrow(InvalidRequirementError);
    // as Gradle's VersionRangeSelector, a lower bound above the upper one is read, and matches nothing
    expect(gradleVersions.satisfies('1.5', '[2.0,1.0]')).toBe(false);
    expect(() => parseGradleRequirement('(,1.0],[1.2,)')).toThrow(InvalidRequirementError);
  });
});

describe('gradle version scheme properties', () => {
  const qualifier = fc.constantFrom('', '-alpha1', '-beta-2', '-rc1', '-RC2', '-SNAPSHOT', '-jre', '-android', '.Final', '-M3');
  const version = fc
    .tuple(fc.array(fc.nat(40), { minLength: 1, maxLength: 4 }), qualifier)
    .map(([numbers, suffix]) => `${numbers.join('.')}${suffix}`);
  it('ordering is total, antisymmetric and transitive', () => {
    fc.assert(
      fc.property(version, version, version, (a, b, c) => {
        expect(Math.sign(gradleVersions.compare(a, b)) + Math.sign(gradleVersions.compare(b, a))).toBe(0);
        const [x, y, z] = [a, b, c].sort(gradleVersions.compare) as [string, string, string];
        expect(gradleVersions.compare(x, z)).toBeLessThanOrEqual(0);
        expect(gradleVersions.compare(x, y)).toBeLessThanOrEqual(0);
      }),
      { numRuns: 300 },
    );
  });
  it('requirements read back as written: a plain version requires itself, a prefix matches what starts with it', () => {
    fc.assert(
      fc.property(version, fc.array(fc.nat(9), { minLength: 1, maxLength: 3 }), (v, prefix) => {
        expect(parseGradleRequirement(v)).toEqual({ kind: 'required', version: v });
        expect(gradleVersions.satisfies(v, v)).toBe(true);
        expect(gradleVersions.satisfies(v, `${v}!!`)).toBe(true);
        expect(gradleVersions.satisfies(v, `[${v}]`)).toBe(true);
        const text = `${prefix.join('.')}.+`;
        expect(parseGradleRequirement(text)).toEqual({ kind: 'prefix', prefix: text.slice(0, -1) });
        expect(gradleVersions.satisfies(v, text)).toBe(v.startsWith(text.slice(0, -1)));
      }),
      { numRuns: 300 },
    );
  });
});

describe('gradle demo directory of acme/polyglot', () => {
  it('declares the end-to-end dependency, com.squareup.okhttp3:okhttp at 4.11.0, in the catalog', () => {
    const path = join(import.meta.dirname, '../../github-emulator/src/demo-seeds/gradle.json');
    const seed = JSON.parse(readFileSync(path, 'utf8')) as { files: Record<string, Record<string, string>> };
    const files = Object.fromEntries(
      Object.entries(seed.files['acme/polyglot'] ?? {})
        .filter(([file]) => file.startsWith('gradle/'))
        .map(([file, text]) => [file.slice('gradle/'.length), text]),
    );
    expect(gradle.findDependency(files, 'com.squareup.okhttp3:okhttp')).toEqual({
      name: 'com.squareup.okhttp3:okhttp',
      type: 'runtime',
      requirement: '4.11.0',
      version: '4.11.0',
      manifest: 'gradle/libs.versions.toml',
    });
    const listed = listChecked(gradle, files);
    expect(listed.every((use) => use.requirement !== null)).toBe(true);
  });
});
