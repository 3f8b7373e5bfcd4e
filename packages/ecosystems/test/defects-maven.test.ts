import { describe, expect, it } from 'vitest';
import { maven } from '../src/index.ts';
import { fixture } from './fixtures.ts';

// maven-artifact's ComparableVersionTest vectors are in maven-comparable-version.test.ts.

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
