import { describe, expect, it } from 'vitest';
import { type DependencyUse, maven } from '../src/index.ts';
import { fixture } from './fixtures.ts';
import { checkedUpdate } from './update-check.ts';

const files = fixture('maven');
const pom = files['pom.xml'] ?? '';
const use = (f: Record<string, string>, name: string) => maven.findDependency(f, name) as DependencyUse;

describe('maven updateManifest', () => {
  it.each([
    ['org.mockito:mockito-core', '5.8.0', '<version>5.7.0</version>', '<version>5.8.0</version>', '5.8.0'],
    ['org.apache.maven.plugins:maven-compiler-plugin', '3.12.1', '<version>3.11.0</version>', '<version>3.12.1</version>', '3.12.1'],
    ['org.springframework.boot:spring-boot-starter-parent', '3.2.0', '<version>3.1.5</version>', '<version>3.2.0</version>', '3.2.0'],
    ['junit:junit', '4.13.3', '<version>[4.13.2]</version>', '<version>[4.13.3]</version>', '[4.13.3]'],
    ['org.postgresql:postgresql', '43.1.0', '[42.6.0,43.0)', '[42.6.0,44.0)', '[42.6.0,44.0)'],
    ['com.google.guava:guava', '33.0.0-jre', '<guava.version>32.1.3-jre<', '<guava.version>33.0.0-jre<', '33.0.0-jre'],
    ['com.fasterxml.jackson.core:jackson-databind', '2.16.0', '<jackson.version>2.15.3<', '<jackson.version>2.16.0<', '2.16.0'],
  ])('%s to %s edits only the version (or its property)', (name, target, before, after, requirement) => {
    expect(checkedUpdate(maven, files, name, target)).toEqual({ files: { 'pom.xml': pom.replace(before, after) }, requirement });
  });
  it('leaves a soft version that is the target and a range that holds it', () => {
    expect(maven.updateManifest(files, use(files, 'javax.servlet:javax.servlet-api'), '4.0.1')).toEqual({
      unchanged: expect.stringContaining('already 4.0.1'),
    });
    expect(maven.updateManifest(files, use(files, 'org.postgresql:postgresql'), '42.7.1')).toEqual({
      unchanged: expect.stringContaining('already allows 42.7.1'),
    });
  });
  it('cannot rewrite properties of the parent POM, mixed references or versions managed elsewhere', () => {
    expect(maven.updateManifest(files, use(files, 'com.acme.shared:acme-commons'), '2.0.0')).toEqual({
      cannot: expect.stringContaining('not defined in this pom.xml'),
    });
    expect(maven.updateManifest(files, use(files, 'org.apache.commons:commons-lang3'), '3.14.0')).toEqual({
      cannot: expect.stringContaining('mixes text'),
    });
    expect(maven.updateManifest(files, use(files, 'org.springframework.boot:spring-boot-starter-web'), '3.2.0')).toEqual({
      unchanged: expect.stringContaining('managed elsewhere'),
    });
    const sibling = {
      'pom.xml':
        '<project><groupId>g</groupId><artifactId>app</artifactId><version>1.0.0</version><dependencies>' +
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a Maven property reference, not a template
        '<dependency><groupId>g</groupId><artifactId>core</artifactId><version>${project.version}</version></dependency></dependencies></project>',
    };
    expect(maven.updateManifest(sibling, use(sibling, 'g:core'), '1.0.1')).toEqual({
      cannot: expect.stringContaining("project's own coordinate"),
    });
  });
  it('rewrites a shared property and names the other coordinates in a note; CRLF and comments stay', () => {
    const text = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<project>',
      '  <properties>',
      '    <!-- jackson family -->',
      '    <jackson.version> 2.15.3 </jackson.version>',
      '  </properties>',
      '  <dependencies>',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a Maven property reference, not a template
      '    <dependency><groupId>com.fasterxml.jackson.core</groupId><artifactId>jackson-databind</artifactId><version>${jackson.version}</version></dependency>',
      '    <dependency>',
      '      <groupId>com.fasterxml.jackson.core</groupId>',
      '      <artifactId>jackson-core</artifactId>',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a Maven property reference, not a template
      '      <version>${jackson.version}</version> <!-- same -->',
      '    </dependency>',
      '  </dependencies>',
      '</project>',
    ].join('\r\n');
    expect(checkedUpdate(maven, { 'pom.xml': text }, 'com.fasterxml.jackson.core:jackson-databind', '2.16.1')).toEqual({
      files: { 'pom.xml': text.replace(' 2.15.3 ', ' 2.16.1 ') },
      requirement: '2.16.1',
      note: "property 'jackson.version' is also the version of com.fasterxml.jackson.core:jackson-core, which move with it",
    });
  });
  it('widens an inclusive upper bound to the target and refuses unions and raised lower bounds', () => {
    const of = (range: string) => ({
      'pom.xml': `<project><dependencies><dependency><groupId>g</groupId><artifactId>a</artifactId><version>${range}</version></dependency></dependencies></project>`,
    });
    expect(checkedUpdate(maven, of('[1.0, 2.0]'), 'g:a', '2.5')).toMatchObject({ requirement: '[1.0, 2.5]' });
    expect(maven.updateManifest(of('(,1.0],[1.2,2.0)'), use(of('(,1.0],[1.2,2.0)'), 'g:a'), '3.0')).toEqual({
      cannot: expect.stringContaining('unions'),
    });
    expect(maven.updateManifest(of('[2.0,3.0)'), use(of('[2.0,3.0)'), 'g:a'), '1.0')).toEqual({
      cannot: expect.stringContaining('lower bound'),
    });
  });
});
