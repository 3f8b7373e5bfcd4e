import { describe, expect, it } from 'vitest';
import { type DependencyUse, maven, relatedFiles } from '../src/index.ts';
import { fixtureTree } from './fixtures.ts';
import { listChecked, rows } from './invariant.ts';
import { checkedUpdate } from './update-check.ts';

/**
 * Multi-module builds (Maven's reactor): modules and in-repository parents read through `files.related`, as
 * dependabot-core's Maven file fetcher fetched them (`child_poms`, `relative_path_parents`), with Maven's inheritance of
 * `<properties>`, `<dependencyManagement>` and `<pluginManagement>`.
 */
const tree = fixtureTree('maven-multimodule');
const root = tree['pom.xml'] ?? '';
const core = tree['core/pom.xml'] ?? '';
const web = tree['web/pom.xml'] ?? '';
/** The build as the worker reads it for `directory: /`. */
const reactor = { 'pom.xml': root, 'core/pom.xml': core, 'web/pom.xml': web, 'tools/cli.xml': tree['tools/cli.xml'] ?? '' };
/** The core module configured on its own (`directory: /core`), reading its parent at `../pom.xml`. */
const child = { 'pom.xml': core, '../pom.xml': root };
const use = (files: Record<string, string>, name: string) => maven.findDependency(files, name) as DependencyUse;

describe('maven files.related', () => {
  it('names each module POM (a module naming an .xml file also that file) and the parent at its relativePath', () => {
    expect(relatedFiles(maven.files, { 'pom.xml': root }, '/')).toEqual([
      'core/pom.xml',
      'web/pom.xml',
      'tools/cli.xml/pom.xml',
      'tools/cli.xml',
    ]);
    expect(relatedFiles(maven.files, reactor, '/')).toEqual(['tools/cli.xml/pom.xml']);
    expect(relatedFiles(maven.files, { 'pom.xml': core }, '/core')).toEqual(['../pom.xml']);
    expect(relatedFiles(maven.files, { 'pom.xml': web }, '/web')).toEqual(['../pom.xml']);
    // the parent's own modules are not followed (they are this directory's siblings)
    expect(relatedFiles(maven.files, child, '/core')).toEqual([]);
  });
  it('follows a relativePath naming a file or a directory, and none for an empty relativePath', () => {
    const pom = (relative: string) =>
      `<project><parent><groupId>g</groupId><artifactId>p</artifactId><version>1</version>${relative}</parent><artifactId>a</artifactId></project>`;
    expect(maven.files.related?.({ 'pom.xml': pom('<relativePath>../build/parent.xml</relativePath>') })).toEqual(['../build/parent.xml']);
    expect(maven.files.related?.({ 'pom.xml': pom('<relativePath>../../bom</relativePath>') })).toEqual(['../../bom/pom.xml']);
    expect(maven.files.related?.({ 'pom.xml': pom('<relativePath/>') })).toEqual([]);
    expect(maven.files.related?.({ 'pom.xml': '<project><dependencies></project>' })).toEqual([]);
  });
});

describe('maven multi-module reading', () => {
  it('lists the root, then the modules in order, with versions managed by the parent or set by its properties', () => {
    expect(listChecked(maven, reactor).map((use) => [use.name, use.type, use.requirement, use.version, use.manifest])).toEqual([
      ['org.slf4j:slf4j-api', 'runtime', '2.0.7', '2.0.7', 'pom.xml'],
      ['org.springframework:spring-core', 'runtime', '6.0.11', '6.0.11', 'core/pom.xml'],
      ['org.springframework:spring-context', 'runtime', '6.0.11', '6.0.11', 'web/pom.xml'],
      // web overrides the parent's jackson.version, which the parent's dependencyManagement refers to
      ['com.fasterxml.jackson.core:jackson-databind', 'runtime', '2.16.0', '2.16.0', 'web/pom.xml'],
      ['org.assertj:assertj-core', 'development', '3.24.2', '3.24.2', 'core/pom.xml'],
      ['org.junit:junit-bom', 'runtime', '5.10.0', '5.10.0', 'pom.xml'],
      ['org.apache.maven.plugins:maven-surefire-plugin', 'development', '3.1.2', '3.1.2', 'core/pom.xml'],
      ['com.google.guava:guava', 'runtime', '32.1.2-jre', '32.1.2-jre', 'core/pom.xml'],
      // managed by the imported junit-bom, which is in the registry, not the repository
      ['org.junit.jupiter:junit-jupiter', 'development', null, null, 'core/pom.xml'],
      ['info.picocli:picocli', 'runtime', '4.7.4', '4.7.4', 'tools/cli.xml'],
    ]);
  });
  it("leaves out the build's own modules (Dependabot's internal dependencies), also as parent", () => {
    expect(maven.findDependency(reactor, 'org.example.shop:shop-core')).toBeUndefined();
    expect(maven.findDependency(child, 'org.example.shop:shop-parent')).toBeUndefined();
  });
  it("reads a module directory's parent at ../pom.xml: its properties and dependencyManagement, and its own dependencies", () => {
    expect(rows(listChecked(maven, child))).toEqual([
      ['org.springframework:spring-core', 'runtime', '6.0.11', '6.0.11'],
      ['com.google.guava:guava', 'runtime', '32.1.2-jre', '32.1.2-jre'],
      ['org.assertj:assertj-core', 'development', '3.24.2', '3.24.2'],
      ['org.junit.jupiter:junit-jupiter', 'development', null, null],
      ['org.apache.maven.plugins:maven-surefire-plugin', 'development', '3.1.2', '3.1.2'],
      ['org.slf4j:slf4j-api', 'runtime', '2.0.7', '2.0.7'],
      ['org.springframework:spring-context', 'runtime', '6.0.11', '6.0.11'],
      ['com.fasterxml.jackson.core:jackson-databind', 'runtime', '2.15.2', '2.15.2'],
      ['org.junit:junit-bom', 'runtime', '5.10.0', '5.10.0'],
    ]);
    expect(maven.findDependency(child, 'org.slf4j:slf4j-api')).toMatchObject({ manifest: '../pom.xml' });
  });
  it('overrides a parent property with the child’s, and ignores a POM at the relativePath that is not the parent', () => {
    const own = {
      'pom.xml': core.replace('<dependencies>', '<properties><guava.version>33.0.0-jre</guava.version></properties>\n  <dependencies>'),
    };
    expect(maven.findDependency({ ...own, '../pom.xml': root }, 'com.google.guava:guava')).toMatchObject({ version: '33.0.0-jre' });
    const stranger = root.replace('<artifactId>shop-parent</artifactId>', '<artifactId>other-parent</artifactId>');
    expect(maven.findDependency({ 'pom.xml': core, '../pom.xml': stranger }, 'com.google.guava:guava')).toMatchObject({
      requirement: null,
      version: null,
    });
    expect(maven.findDependency({ 'pom.xml': core, '../pom.xml': stranger }, 'org.springframework:spring-core')).toMatchObject({
      requirement: null,
    });
  });
  it('names the module file that does not parse', () => {
    expect(() => maven.listDependencies({ ...reactor, 'web/pom.xml': '<project><dependencies></project>' })).toThrow(
      expect.objectContaining({ file: 'web/pom.xml' }),
    );
  });
});

describe('maven multi-module updates', () => {
  it("rewrites a property defined in the parent, in the parent's file, under its key", () => {
    expect(checkedUpdate(maven, reactor, 'com.google.guava:guava', '33.0.0-jre')).toEqual({
      files: { 'pom.xml': root.replace('<guava.version>32.1.2-jre<', '<guava.version>33.0.0-jre<') },
      requirement: '33.0.0-jre',
    });
    expect(checkedUpdate(maven, child, 'com.google.guava:guava', '33.0.0-jre')).toEqual({
      files: { '../pom.xml': root.replace('<guava.version>32.1.2-jre<', '<guava.version>33.0.0-jre<') },
      requirement: '33.0.0-jre',
    });
  });
  it("rewrites the parent's managed version through its shared property, with the note", () => {
    expect(checkedUpdate(maven, child, 'org.springframework:spring-core', '6.1.2')).toEqual({
      files: { '../pom.xml': root.replace('<spring.version>6.0.11<', '<spring.version>6.1.2<') },
      requirement: '6.1.2',
      note: "property 'spring.version' is also the version of org.springframework:spring-context, which move with it",
    });
  });
  it("rewrites the child's overriding property and the parent's own, and a plugin's managed version", () => {
    expect(checkedUpdate(maven, reactor, 'com.fasterxml.jackson.core:jackson-databind', '2.17.0')).toEqual({
      files: {
        'pom.xml': root.replace('<jackson.version>2.15.2<', '<jackson.version>2.17.0<'),
        'web/pom.xml': web.replace('<jackson.version>2.16.0<', '<jackson.version>2.17.0<'),
      },
      requirement: '2.17.0',
    });
    expect(checkedUpdate(maven, child, 'org.apache.maven.plugins:maven-surefire-plugin', '3.2.2')).toEqual({
      files: { '../pom.xml': root.replace('<version>3.1.2</version>', '<version>3.2.2</version>') },
      requirement: '3.2.2',
    });
  });
  it('leaves a version an imported BOM manages unchanged, and a property of a remote parent cannot be rewritten', () => {
    expect(maven.updateManifest(reactor, use(reactor, 'org.junit.jupiter:junit-jupiter'), '5.10.1')).toEqual({
      unchanged: expect.stringContaining('managed elsewhere'),
    });
    const orphan = { 'pom.xml': core };
    expect(maven.updateManifest(orphan, use(orphan, 'com.google.guava:guava'), '33.0.0-jre')).toEqual({
      cannot: expect.stringContaining('remote parent'),
    });
  });
});

describe('modules a repository cannot turn into patterns', () => {
  it('a <module> holding * names no file (Maven reads module paths, never globs)', () => {
    const pom = `<project><modelVersion>4.0.0</modelVersion><groupId>g</groupId><artifactId>a</artifactId><version>1</version>
  <modules><module>core</module><module>*/*</module><module>*</module></modules></project>`;
    expect(relatedFiles(maven.files, { 'pom.xml': pom }, '/')).toEqual(['core/pom.xml']);
  });
});
