import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gradleAllows, locateGradle } from '../src/gradle/update.ts';
import { type DependencyUse, gradle, type ManifestUpdate } from '../src/index.ts';
import type { Located } from '../src/update/declarations.ts';

type Files = Record<string, string>;

/** Every file under `test/fixtures/gradle/<dir>`, keyed by its path relative to that directory. */
function gradleFixture(dir: string): Files {
  const root = join(import.meta.dirname, 'fixtures', 'gradle', dir);
  const walk = (at: string): [string, string][] =>
    readdirSync(at).flatMap((name) => {
      const path = join(at, name);
      return statSync(path).isDirectory() ? walk(path) : [[relative(root, path).split('\\').join('/'), readFileSync(path, 'utf8')]];
    });
  return Object.fromEntries(walk(root));
}

/** The text of `file` outside the spans `located` gives for it. */
function outside(located: Located, file: string, text: string): string[] {
  if ('cannot' in located) throw new Error(located.cannot);
  const spans = [...new Map(located.declarations.filter((d) => d.file === file).flatMap((d) => d.parts.map((p) => [p.start, p]))).values()];
  spans.sort((a, b) => a.start - b.start);
  const pieces: string[] = [];
  let at = 0;
  for (const span of spans) {
    pieces.push(text.slice(at, span.start));
    at = span.end;
  }
  return [...pieces, text.slice(at)];
}

/**
 * `updateManifest` for `name` and `target`, checking its guarantees: the new files read back with a requirement the
 * target satisfies, every declaration allows the target, and only the requirement spans changed.
 */
function checked(files: Files, name: string, target: string): ManifestUpdate {
  const use = gradle.findDependency(files, name) as DependencyUse;
  expect(use, name).toBeDefined();
  const result = gradle.updateManifest(files, use, target);
  if (!('files' in result)) return result;
  const merged = { ...files, ...result.files };
  const after = gradle.findDependency(merged, name);
  expect(after?.requirement).toBe(result.requirement);
  const again = locateGradle(merged, name);
  if ('cannot' in again) throw new Error(again.cannot);
  for (const declaration of again.declarations) expect(gradleAllows(target, declaration.requirement ?? '')).toBe(true);
  const before = locateGradle(files, name);
  for (const [file, text] of Object.entries(result.files))
    expect(outside(again, file, text)).toEqual(outside(before, file, files[file] ?? ''));
  return result;
}

const groovy = gradleFixture('groovy');
const kotlin = gradleFixture('kotlin');
const build = groovy['build.gradle'] ?? '';
const catalog = groovy['gradle/libs.versions.toml'] ?? '';

describe('gradle updateManifest', () => {
  it.each([
    ['com.google.guava:guava', '33.0.0-jre', "'com.google.guava:guava:32.1.3-jre'", "'com.google.guava:guava:33.0.0-jre'", '33.0.0-jre'],
    ['com.android.tools.build:gradle', '8.3.0', "gradle:8.2.2'", "gradle:8.3.0'", '8.3.0'],
    ['org.apache.commons:commons-lang3', '3.15.0', "version: '3.14.0'", "version: '3.15.0'", '3.15.0'],
    ['com.diffplug.spotless:com.diffplug.spotless.gradle.plugin', '7.0.0', 'version "6.25.0"', 'version "7.0.0"', '7.0.0'],
    [
      'org.postgresql:postgresql',
      '43.1.0',
      "'org.postgresql:postgresql:[42.6,43.0)'",
      "'org.postgresql:postgresql:[42.6,44.0)'",
      '[42.6,44.0)',
    ],
    ['com.squareup.retrofit2:retrofit', '2.11.0', "retrofit: '2.9.0'", "retrofit: '2.11.0'", '2.11.0'],
    ['com.fasterxml.jackson.core:jackson-databind', '2.17.0', "def jacksonVersion = '2.16.1'", "def jacksonVersion = '2.17.0'", '2.17.0'],
    ['org.jetbrains.kotlin:kotlin-gradle-plugin', '2.0.0', "ext.kotlin_version = '1.9.22'", "ext.kotlin_version = '2.0.0'", '2.0.0'],
  ])('%s to %s edits the version in build.gradle', (name, target, before, after, requirement) => {
    const result = checked(groovy, name, target);
    expect(result).toMatchObject({ files: { 'build.gradle': build.replace(before, after) }, requirement });
  });
  it('moves a property shared by two dependencies and says so', () => {
    expect(checked(groovy, 'com.squareup.okhttp3:okhttp', '4.12.1')).toEqual({
      files: { 'build.gradle': build.replace('okhttpVersion = "4.12.0"', 'okhttpVersion = "4.12.1"') },
      requirement: '4.12.1',
      note: 'property okhttpVersion is also the version of com.squareup.okhttp3:logging-interceptor, which move with it',
    });
  });
  it('edits gradle.properties for a property defined there', () => {
    const result = checked(groovy, 'io.reactivex.rxjava3:rxjava', '3.1.9');
    expect(result).toEqual({
      files: { 'gradle.properties': groovy['gradle.properties']?.replace('rxVersion=3.1.8', 'rxVersion=3.1.9') },
      requirement: '3.1.9',
    });
  });
  it('edits a CRLF gradle.properties with spaces around the separator', () => {
    const properties = '# versions\r\nrxVersion = 3.1.8\r\nother=1\r\n';
    const files = { ...groovy, 'gradle.properties': properties };
    expect(checked(files, 'io.reactivex.rxjava3:rxjava', '3.2.0')).toEqual({
      files: { 'gradle.properties': properties.replace('3.1.8', '3.2.0') },
      requirement: '3.2.0',
    });
  });
  it('edits the catalog: [versions] entries (shared), rich versions, string notation and plugins', () => {
    expect(checked(groovy, 'org.mockito:mockito-core', '5.11.0')).toEqual({
      files: { 'gradle/libs.versions.toml': catalog.replace('mockito = "5.10.0"', 'mockito = "5.11.0"') },
      requirement: '5.11.0',
      note: '[versions] mockito is also the version of org.mockito:mockito-junit-jupiter, which move with it',
    });
    expect(checked(groovy, 'org.jetbrains.kotlinx:kotlinx-coroutines-core', '1.8.0')).toMatchObject({
      files: { 'gradle/libs.versions.toml': catalog.replace('require = "1.7.3"', 'require = "1.8.0"') },
    });
    expect(checked(groovy, 'commons-io:commons-io', '2.16.0')).toMatchObject({
      files: { 'gradle/libs.versions.toml': catalog.replace('commons-io:commons-io:2.15.1', 'commons-io:commons-io:2.16.0') },
    });
    expect(checked(groovy, 'org.assertj:assertj-core', '3.26.0')).toMatchObject({
      files: { 'gradle/libs.versions.toml': catalog.replace('strictly = "3.25.2"', 'strictly = "3.26.0"') },
    });
    expect(checked(groovy, 'org.jlleitschuh.gradle.ktlint:org.jlleitschuh.gradle.ktlint.gradle.plugin', '12.2.0')).toMatchObject({
      files: { 'gradle/libs.versions.toml': catalog.replace('ktlint:12.1.0', 'ktlint:12.2.0') },
    });
  });
  it('moves dynamic versions at their precision and leaves those that allow the target', () => {
    const lombok = checked(groovy, 'org.projectlombok:lombok', '1.20.0');
    expect(lombok).toMatchObject({
      files: { 'build.gradle': build.replace('lombok:1.18.+', 'lombok:1.20.+').replace('lombok:1.18.30', 'lombok:1.20.0') },
    });
    const files = { 'build.gradle': "dependencies {\n  implementation 'a.b:c:2.+'\n  implementation 'a.b:d:latest.release'\n}\n" };
    expect(gradle.updateManifest(files, gradle.findDependency(files, 'a.b:c') as DependencyUse, '2.5.0')).toEqual({
      unchanged: expect.stringContaining("'2.+' already allows 2.5.0"),
    });
    expect(gradle.updateManifest(files, gradle.findDependency(files, 'a.b:d') as DependencyUse, '3.0-rc1')).toEqual({
      cannot: expect.stringContaining('pre-release'),
    });
  });
  it("compares by Gradle's order: 2.5 is not 2.5.0, and ranges hold what Gradle puts in them", () => {
    const files = {
      'build.gradle':
        "dependencies {\n  implementation 'a.b:c:2.5'\n  implementation 'a.b:d:[1.0,2.0)'\n  implementation 'a.b:e:v2.0.0'\n}\n",
    };
    const text = files['build.gradle'];
    expect(checked(files, 'a.b:c', '2.5.0')).toEqual({ files: { 'build.gradle': text.replace('c:2.5', 'c:2.5.0') }, requirement: '2.5.0' });
    expect(checked(files, 'a.b:d', '1.0.0-alpha01')).toEqual({ unchanged: expect.stringContaining('already allows 1.0.0-alpha01') });
    expect(checked(files, 'a.b:d', '2.0.1')).toEqual({
      files: { 'build.gradle': text.replace('[1.0,2.0)', '[1.0,3.0)') },
      requirement: '[1.0,3.0)',
    });
    expect(checked(files, 'a.b:e', 'v2.1.0')).toEqual({
      files: { 'build.gradle': text.replace('v2.0.0', 'v2.1.0') },
      requirement: 'v2.1.0',
    });
  });
  it('keeps Kotlin DSL quoting and CRLF line endings', () => {
    const text = (kotlin['build.gradle.kts'] ?? '').replaceAll('\n', '\r\n');
    const files = { ...kotlin, 'build.gradle.kts': text };
    expect(checked(files, 'io.ktor:ktor-server-core', '2.3.8')).toMatchObject({
      files: { 'build.gradle.kts': text.replace('val ktorVersion = "2.3.7"', 'val ktorVersion = "2.3.8"') },
    });
    expect(checked(files, 'com.zaxxer:HikariCP', '5.1.1')).toMatchObject({
      files: { 'build.gradle.kts': text.replace('version = "5.1.0"', 'version = "5.1.1"') },
    });
  });
  it('cannot rewrite versions it cannot locate, and leaves platform-managed ones', () => {
    expect(gradle.updateManifest(groovy, gradle.findDependency(groovy, 'org.slf4j:slf4j-api') as DependencyUse, '2.0.0')).toEqual({
      cannot: expect.stringContaining('mixes text and property references'),
    });
    const managed = gradle.findDependency(groovy, 'org.springframework.boot:spring-boot-starter-web') as DependencyUse;
    expect(gradle.updateManifest(groovy, managed, '3.3.0')).toEqual({ unchanged: expect.stringContaining('no version') });
    expect(() => gradle.updateManifest(groovy, managed, '$x')).toThrow(/not a valid Gradle version/);
  });
});
