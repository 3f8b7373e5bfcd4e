import { describe, expect, it } from 'vitest';
import {
  compareMavenVersions,
  InvalidRequirementError,
  InvalidVersionError,
  ManifestParseError,
  maven,
  mavenVersions,
} from '../src/index.ts';
import { fixture, sorted } from './fixtures.ts';
import { listChecked, rows } from './invariant.ts';

describe('maven findDependency', () => {
  const files = fixture('maven');
  const find = (name: string) => maven.findDependency(files, name);

  it('resolves property references in versions, also properties referring to properties', () => {
    expect(find('com.google.guava:guava')).toEqual({
      name: 'com.google.guava:guava',
      type: 'runtime',
      requirement: '32.1.3-jre',
      version: '32.1.3-jre',
      manifest: 'pom.xml',
    });
    expect(find('org.apache.commons:commons-lang3')).toMatchObject({ requirement: '3.13.0', version: '3.13.0' });
  });
  it('takes a missing version and scope from dependencyManagement', () => {
    expect(find('com.fasterxml.jackson.core:jackson-databind')).toMatchObject({
      type: 'runtime',
      requirement: '2.15.3',
      version: '2.15.3',
    });
    expect(find('org.mockito:mockito-core')).toMatchObject({ type: 'development', requirement: '5.7.0', version: '5.7.0' });
  });
  it('maps test and provided scopes to development', () => {
    expect(find('javax.servlet:javax.servlet-api')).toMatchObject({ type: 'development', version: '4.0.1' });
    expect(find('junit:junit')).toMatchObject({ type: 'development', requirement: '[4.13.2]', version: '4.13.2' });
    expect(find('org.postgresql:postgresql')).toMatchObject({ type: 'runtime', requirement: '[42.6.0,43.0)', version: null });
  });
  it('leaves versions managed outside the file, or unresolvable, unknown', () => {
    expect(find('org.springframework.boot:spring-boot-starter-web')).toMatchObject({ requirement: null, version: null });
    expect(find('com.acme.shared:acme-commons')).toMatchObject({ requirement: null, version: null });
  });
  it('finds managed-only dependencies (BOMs), build plugins and the parent', () => {
    expect(find('org.testcontainers:testcontainers-bom')).toMatchObject({ type: 'runtime', version: '1.19.1' });
    expect(find('org.apache.maven.plugins:maven-compiler-plugin')).toMatchObject({ type: 'development', version: '3.11.0' });
    expect(find('org.springframework.boot:spring-boot-starter-parent')).toMatchObject({ version: '3.1.5' });
  });
  it('is undefined for an absent artifact, and compares coordinates as written', () => {
    expect(find('org.slf4j:slf4j-api')).toBeUndefined();
    expect(find('com.google.guava:Guava')).toBeUndefined();
  });
  it('names pom.xml when it is not well-formed XML', () => {
    const call = () => maven.findDependency({ 'pom.xml': '<project><dependencies><dependency></dependencies></project>' }, 'a:b');
    expect(call).toThrow(ManifestParseError);
    expect(call).toThrow(expect.objectContaining({ file: 'pom.xml' }));
    expect(() => maven.findDependency({ 'pom.xml': '<settings><a>1</a></settings>' }, 'a:b')).toThrow(/no <project>/);
  });
});

describe('maven listDependencies', () => {
  it('lists dependencies, then managed-only ones, plugins and the parent, each once', () => {
    const list = listChecked(maven, fixture('maven'));
    expect(list.map((use) => use.name)).toEqual([
      'org.springframework.boot:spring-boot-starter-web',
      'com.fasterxml.jackson.core:jackson-databind',
      'com.google.guava:guava',
      'org.apache.commons:commons-lang3',
      'org.mapstruct:mapstruct',
      'org.postgresql:postgresql',
      'javax.servlet:javax.servlet-api',
      'com.acme.shared:acme-commons',
      'org.springframework.boot:spring-boot-starter-test',
      'org.mockito:mockito-core',
      'org.testcontainers:postgresql',
      'junit:junit',
      'org.testcontainers:testcontainers-bom',
      'org.springframework.boot:spring-boot-maven-plugin',
      'org.apache.maven.plugins:maven-compiler-plugin',
      'org.springframework.boot:spring-boot-starter-parent',
    ]);
    expect(list.find((use) => use.name === 'org.mockito:mockito-core')).toEqual({
      name: 'org.mockito:mockito-core',
      type: 'development',
      requirement: '5.7.0',
      version: '5.7.0',
      manifest: 'pom.xml',
    });
  });
  it('leaves out coordinates holding a property reference that cannot be resolved', () => {
    const pom = `<project>
  <groupId>com.acme</groupId>
  <artifactId>app</artifactId>
  <version>1.0.0</version>
  <dependencies>
    <dependency><groupId>\${project.groupId}</groupId><artifactId>acme-core</artifactId><version>\${project.version}</version></dependency>
    <dependency><groupId>\${vendor.group}</groupId><artifactId>vendor-sdk</artifactId><version>2.0</version></dependency>
    <dependency><groupId>org.slf4j</groupId><artifactId>slf4j-api</artifactId><version>\${slf4j.version}</version></dependency>
  </dependencies>
</project>`;
    expect(rows(listChecked(maven, { 'pom.xml': pom }))).toEqual([
      ['com.acme:acme-core', 'runtime', '1.0.0', '1.0.0'],
      ['org.slf4j:slf4j-api', 'runtime', null, null],
    ]);
  });
  it('is empty without pom.xml and throws on XML that is not well-formed', () => {
    expect(maven.listDependencies({})).toEqual([]);
    expect(() => maven.listDependencies({ 'pom.xml': '<project><dependencies></project>' })).toThrow(ManifestParseError);
  });
});

describe('Maven versions (ComparableVersion)', () => {
  it('orders qualifiers alpha < beta < milestone < rc < snapshot < release < sp', () => {
    const order = [
      '1.0-alpha-1',
      '1.0-alpha-2',
      '1.0-beta',
      '1.0-beta-2',
      '1.0-M1',
      '1.0-rc1',
      '1.0-SNAPSHOT',
      '1.0',
      '1.0-sp1',
      '1.0.1',
      '1.1',
      '2',
    ];
    expect(sorted(order, mavenVersions.compare)).toEqual(order);
  });
  it.each([
    ['1.0', '1.0.0', 0],
    ['1', '1.0.0.0', 0],
    ['1.0-ga', '1.0', 0],
    ['1.0.Final', '1.0', 0],
    ['1.0a1', '1.0-alpha-1', 0],
    ['1.0-CR1', '1.0-rc1', 0],
    ['1.0.0-RC1', '1.0.0.RC1', 0],
    ['1.0.RC2', '1.0-RC3', -1],
    ['1.0-RC3', '1.0.1', -1],
    ['1.0-jre', '1.0', 1],
    ['1.0-SNAPSHOT', '1.0-rc1', 1],
    ['1.10', '1.9', 1],
    ['1.0-alpha-10', '1.0-alpha-9', 1],
    ['2.0.0.20230101', '2.0.0', 1],
  ])('%s vs %s: %i', (a, b, expected) => {
    expect(Math.sign(compareMavenVersions(a, b))).toBe(expected);
  });
  it.each([
    ['1.5', '[1.0,2.0)', true],
    ['2.0', '[1.0,2.0)', false],
    ['1.0', '(1.0,2.0]', false],
    ['0.5', '(,1.0]', true],
    ['1.2', '[1.2]', true],
    ['1.2.1', '[1.2]', false],
    ['3.0', '(,1.0],[1.2,)', true],
    ['1.1', '(,1.0],[1.2,)', false],
    ['9.9', '1.0', true],
  ])('%s satisfies %s: %s', (version, requirement, expected) => {
    expect(mavenVersions.satisfies(version, requirement)).toBe(expected);
  });
  it('throws on malformed ranges and versions it does not accept', () => {
    expect(() => mavenVersions.satisfies('1.0', '[1.0,2.0')).toThrow(InvalidRequirementError);
    expect(() => mavenVersions.satisfies('1.0', '[2.0,1.0]')).toThrow(InvalidRequirementError);
    expect(() => mavenVersions.satisfies('1.0', '(1.0)')).toThrow(InvalidRequirementError);
    expect(() => mavenVersions.compare('LATEST', '1.0')).toThrow(InvalidVersionError);
    expect(mavenVersions.isValid('$' + '{jackson.version}')).toBe(false);
  });
  it('tells pre-releases, update kinds and lowest versions', () => {
    expect(['1.0-SNAPSHOT', '1.0-rc1', '2.0.0-M3', '1.0-alpha-1'].map(mavenVersions.isPrerelease)).toEqual([true, true, true, true]);
    expect(['1.0', '32.1.3-jre', '1.5.5.Final', '1.0-sp1'].map(mavenVersions.isPrerelease)).toEqual([false, false, false, false]);
    expect(mavenVersions.updateKind('1.2', '1.2.1')).toBe('patch');
    expect(mavenVersions.updateKind('32.1.3-jre', '32.2.0-jre')).toBe('minor');
    expect(mavenVersions.updateKind('1.9', '2.0')).toBe('major');
    expect(mavenVersions.updateKind('1.0-rc1', '1.0')).toBe('patch');
    expect(mavenVersions.lowestAllowed?.('[42.6.0,43.0)')).toBe('42.6.0');
    expect(mavenVersions.lowestAllowed?.('2.15.3')).toBe('2.15.3');
    expect(mavenVersions.lowestAllowed?.('(1.0,2.0)')).toBeNull();
  });
});
