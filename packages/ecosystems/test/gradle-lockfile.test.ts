import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DependencyUse, LockfileRequest } from '../src/ecosystem.ts';
import { ManifestParseError } from '../src/errors.ts';
import { gradle } from '../src/gradle/ecosystem.ts';
import { readGradleLockfile } from '../src/gradle/lockfile.ts';
import type { RegistryDependency, RegistryVersionDetails } from '../src/registry-data.ts';
import { listChecked } from './invariant.ts';

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

const locked = gradleFixture('locked');
const legacy = gradleFixture('legacy-locks');
const lockfile = locked['gradle.lockfile'] ?? '';
const appLockfile = locked['app/gradle.lockfile'] ?? '';

const dependency = (name: string, requirement: string, kind: RegistryDependency['kind'] = 'runtime'): RegistryDependency => ({
  name,
  requirement,
  kind,
});

/** The target as a registry describes it. */
const details = (name: string, version: string, dependencies: RegistryDependency[] | null = []): RegistryVersionDetails => ({
  name,
  version,
  dependencies,
  artifacts: [],
});

/** The lockfile request of an update of `name` to `version` in `files`: the manifest updated first, as the worker does. */
function request(files: Files, name: string, version: string, dependencies: RegistryDependency[] | null = []): LockfileRequest {
  const use = gradle.findDependency(files, name) as DependencyUse;
  expect(use, name).toBeDefined();
  const manifest = gradle.updateManifest(files, use, version);
  const updated = 'files' in manifest ? { ...files, ...manifest.files } : files;
  return { files, updated, use, target: details(name, version, dependencies), registries: [] };
}

const update = (r: LockfileRequest) => gradle.updateLockfiles?.(r);

describe('gradle lockfiles: files', () => {
  it('reads and updates gradle.lockfile, buildscript-gradle.lockfile and the legacy per-configuration lockfiles, root and subprojects', () => {
    for (const entry of [
      'gradle.lockfile',
      'buildscript-gradle.lockfile',
      'gradle/dependency-locks/*.lockfile',
      '*/gradle.lockfile',
      '*/buildscript-gradle.lockfile',
      '*/gradle/dependency-locks/*.lockfile',
    ]) {
      expect(gradle.files.optional).toContain(entry);
      expect(gradle.files.lockfiles).toContain(entry);
    }
  });
  it('reads module lines, skipping comments, blank lines and empty=', () => {
    expect(
      readGradleLockfile('gradle.lockfile', '# header\n\na.b:c:1.0=compileClasspath,runtimeClasspath\r\nempty=annotationProcessor\n'),
    ).toEqual({
      file: 'gradle.lockfile',
      project: '',
      entries: [{ name: 'a.b:c', version: '1.0', start: 16, end: 19, line: 3, configurations: ['compileClasspath', 'runtimeClasspath'] }],
    });
    expect(readGradleLockfile('app/gradle/dependency-locks/testRuntimeClasspath.lockfile', '# x\n  a.b:c:2.0  \n').entries).toEqual([
      { name: 'a.b:c', version: '2.0', start: 12, end: 15, line: 2, configurations: ['testRuntimeClasspath'] },
    ]);
    expect(readGradleLockfile('app/gradle/dependency-locks/x.lockfile', '').project).toBe('app/');
  });
  it.each([
    ['gradle.lockfile', 'a.b:c:1.0\n', /line 1/],
    ['gradle.lockfile', 'a.b:c=compileClasspath\n', /group:artifact:version/],
    ['gradle.lockfile', 'a.b:c:1.0=x=y\n', /line 1/],
    ['gradle/dependency-locks/compileClasspath.lockfile', '# h\na.b:c:1.0=compileClasspath\n', /line 2/],
  ])('refuses %s holding %j', (file, text, reason) => {
    expect(() => readGradleLockfile(file, text)).toThrow(ManifestParseError);
    expect(() => readGradleLockfile(file, text)).toThrow(reason);
    expect(() => gradle.findDependency({ 'build.gradle': "dependencies { implementation 'a.b:c:1.0' }", [file]: text }, 'a.b:c')).toThrow(
      expect.objectContaining({ name: 'ManifestParseError', file }),
    );
  });
});

describe('gradle lockfiles: the version in use', () => {
  it('comes from the lockfile of the declaring project when one locks the module', () => {
    expect(gradle.findDependency(locked, 'com.google.guava:guava')).toEqual({
      name: 'com.google.guava:guava',
      type: 'runtime',
      requirement: '31.1-jre',
      version: '31.1-jre',
      manifest: 'build.gradle',
    });
    // a dynamic version has no version of its own: the lockfile gives it
    expect(gradle.findDependency(locked, 'org.apache.commons:commons-text')).toMatchObject({ requirement: '1.+', version: '1.10.0' });
    // the buildscript classpath is locked in buildscript-gradle.lockfile
    expect(gradle.findDependency(locked, 'org.jfrog.buildinfo:build-info-extractor-gradle')).toMatchObject({ version: '5.1.10' });
    // a subproject's own lockfile (CRLF, no final newline)
    expect(gradle.findDependency(locked, 'com.squareup.okio:okio')).toMatchObject({ manifest: 'app/build.gradle', version: '3.4.0' });
  });
  it('is the locked version where conflict resolution raised it above the declaration (a catalog entry, any project)', () => {
    expect(gradle.findDependency(locked, 'org.slf4j:slf4j-api')).toMatchObject({
      requirement: '2.0.7',
      version: '2.0.9',
      manifest: 'gradle/libs.versions.toml',
    });
  });
  it('reads the legacy gradle/dependency-locks files', () => {
    expect(gradle.findDependency(legacy, 'org.postgresql:postgresql')).toMatchObject({ requirement: '42.5.1', version: '42.5.1' });
    const withLock = { ...legacy, 'gradle/dependency-locks/runtimeClasspath.lockfile': 'org.postgresql:postgresql:42.6.0\n' };
    expect(gradle.findDependency(withLock, 'org.postgresql:postgresql')).toMatchObject({ requirement: '42.5.1', version: '42.6.0' });
  });
  it('is the declaration’s own exact version when no lockfile locks the module, and lockfile-only modules are not dependencies', () => {
    const { 'gradle.lockfile': _gone, ...unlocked } = locked;
    expect(gradle.findDependency(unlocked, 'org.apache.commons:commons-text')).toMatchObject({ requirement: '1.+', version: null });
    expect(gradle.findDependency(locked, 'com.google.guava:failureaccess')).toBeUndefined();
  });
  it('lists every declared dependency with its locked version, as findDependency gives it', () => {
    const listed = listChecked(gradle, locked);
    expect(listed.map((u) => [u.name, u.version])).toEqual([
      ['org.jfrog.buildinfo:build-info-extractor-gradle', '5.1.10'],
      ['com.fasterxml.jackson.core:jackson-databind', '2.15.2'],
      ['com.fasterxml.jackson.core:jackson-annotations', '2.15.2'],
      ['com.google.guava:guava', '31.1-jre'],
      ['org.apache.commons:commons-text', '1.10.0'],
      ['io.micrometer:micrometer-core', '1.11.0'],
      ['junit:junit', '4.13.2'],
      ['com.squareup.okio:okio', '3.4.0'],
      ['org.slf4j:slf4j-api', '2.0.9'],
    ]);
  });
});

describe('gradle lockfiles: updateLockfiles', () => {
  it('moves the module line to the target, keeping its configurations, the order and every other byte', async () => {
    const result = await update(
      request(locked, 'com.google.guava:guava', '32.1.2-jre', [
        dependency('com.google.guava:failureaccess', '1.0.1'),
        dependency('com.google.code.findbugs:jsr305', '3.0.2'),
        dependency('com.google.errorprone:error_prone_annotations', '2.11.0'),
        dependency('org.checkerframework:checker-qual', '3.33.0', 'optional'),
        dependency('junit:junit', '4.13.2', 'dev'),
      ]),
    );
    expect(result).toEqual({
      files: {
        'gradle.lockfile': lockfile.replace(
          'com.google.guava:guava:31.1-jre=compileClasspath,runtimeClasspath',
          'com.google.guava:guava:32.1.2-jre=compileClasspath,runtimeClasspath',
        ),
      },
    });
  });
  it("needs resolution when the target's dependencies would move another line", async () => {
    const result = await update(
      request(locked, 'com.google.guava:guava', '32.1.2-jre', [
        dependency('com.google.guava:failureaccess', '1.0.1'),
        dependency('com.google.errorprone:error_prone_annotations', '2.18.0'),
      ]),
    );
    expect(result).toEqual({
      needsResolution:
        'com.google.guava:guava 32.1.2-jre depends on com.google.errorprone:error_prone_annotations 2.18.0; gradle.lockfile locks 2.11.0 (line 8)',
    });
  });
  it('needs resolution when the target depends on a module the lockfile does not lock', async () => {
    const result = await update(
      request(locked, 'com.google.guava:guava', '33.0.0-jre', [dependency('com.google.j2objc:j2objc-annotations', '2.8')]),
    );
    expect(result).toEqual({
      needsResolution:
        'com.google.guava:guava 33.0.0-jre depends on com.google.j2objc:j2objc-annotations 2.8, which gradle.lockfile does not lock',
    });
  });
  it('reads Maven ranges and versions without a requirement in the target’s dependencies by Gradle’s rules', async () => {
    const ok = await update(
      request(locked, 'com.google.guava:guava', '32.0.0-jre', [
        dependency('com.google.guava:failureaccess', '[1.0,2.0)'),
        dependency('com.google.code.findbugs:jsr305', '*'),
      ]),
    );
    expect(ok).toHaveProperty('files.gradle\\.lockfile');
    const outside = await update(
      request(locked, 'com.google.guava:guava', '32.0.0-jre', [dependency('com.google.guava:failureaccess', '[1.0.2,2.0)')]),
    );
    expect(outside).toEqual({ needsResolution: expect.stringContaining('gradle.lockfile locks 1.0.1') });
  });
  it('needs resolution when the registry does not publish the target’s dependencies', async () => {
    expect(await update(request(locked, 'com.google.guava:guava', '32.1.2-jre', null))).toEqual({
      needsResolution: 'the registry does not publish the dependencies of com.google.guava:guava 32.1.2-jre',
    });
  });
  it('needs resolution when a shared property moves another locked module the lockfile holds at the old version', async () => {
    const r = request(locked, 'com.fasterxml.jackson.core:jackson-databind', '2.15.3', [
      dependency('com.fasterxml.jackson.core:jackson-core', '2.15.2'),
    ]);
    expect(r.updated['build.gradle']).toContain("jacksonVersion = '2.15.3'");
    expect(await update(r)).toEqual({
      needsResolution: expect.stringMatching(/moves com\.fasterxml\.jackson\.core:jackson-annotations to '2\.15\.3'.*locks it at 2\.15\.2/),
    });
  });
  it('needs resolution when the updated declaration does not allow the target', async () => {
    const use = gradle.findDependency(locked, 'io.micrometer:micrometer-core') as DependencyUse;
    const result = await update({ files: locked, updated: locked, use, target: details(use.name, '1.12.0'), registries: [] });
    expect(result).toEqual({ needsResolution: expect.stringContaining("'1.11.0!!' does not allow 1.12.0") });
  });
  it('moves a dynamic version’s lock while the manifest stays', async () => {
    const r = request(locked, 'org.apache.commons:commons-text', '1.11.0', [dependency('org.apache.commons:commons-lang3', '3.12.0')]);
    expect(r.updated).toBe(locked);
    expect(await update(r)).toEqual({
      files: { 'gradle.lockfile': lockfile.replace('commons-text:1.10.0=', 'commons-text:1.11.0=') },
    });
  });
  it('keeps CRLF line endings and a missing final newline in a subproject’s lockfile', async () => {
    const result = await update(request(locked, 'com.squareup.okio:okio', '3.5.0', [dependency('com.squareup.okio:okio-jvm', '3.4.0')]));
    expect(result).toEqual({ files: { 'app/gradle.lockfile': appLockfile.replace('okio:okio:3.4.0=', 'okio:okio:3.5.0=') } });
    expect(appLockfile.endsWith('empty=')).toBe(true);
  });
  it('updates the buildscript lockfile for a classpath dependency', async () => {
    const result = await update(request(locked, 'org.jfrog.buildinfo:build-info-extractor-gradle', '5.2.0'));
    expect(result).toEqual({
      files: { 'buildscript-gradle.lockfile': (locked['buildscript-gradle.lockfile'] ?? '').replace(':5.1.10=', ':5.2.0=') },
    });
  });
  it('updates every legacy per-configuration lockfile that locks the module', async () => {
    const result = await update(request(legacy, 'org.yaml:snakeyaml', '2.0'));
    expect(result).toEqual({
      files: {
        'gradle/dependency-locks/compileClasspath.lockfile': legacy['gradle/dependency-locks/compileClasspath.lockfile']?.replace(
          '1.33',
          '2.0',
        ),
        'gradle/dependency-locks/runtimeClasspath.lockfile': legacy['gradle/dependency-locks/runtimeClasspath.lockfile']?.replace(
          '1.33',
          '2.0',
        ),
      },
    });
  });
  it('needs resolution when configurations lock the module at different versions', async () => {
    const files = { ...locked, 'gradle.lockfile': `${lockfile}junit:junit:4.12=legacyTest\n` };
    expect(await update(request(files, 'junit:junit', '4.13.3'))).toEqual({
      needsResolution: 'gradle.lockfile locks junit:junit at 4.13.2 and 4.12 in different configurations',
    });
  });
  it('changes nothing when no lockfile locks the module', async () => {
    const files = { ...locked, 'build.gradle': `${locked['build.gradle']}\ndependencies { runtimeOnly 'org.example:unlocked:1.0' }\n` };
    expect(await update(request(files, 'org.example:unlocked', '1.1'))).toEqual({ files: {} });
    const { 'gradle.lockfile': _a, 'buildscript-gradle.lockfile': _b, 'app/gradle.lockfile': _c, ...none } = locked;
    expect(await update(request(none, 'com.google.guava:guava', '32.1.2-jre'))).toEqual({ files: {} });
  });
});
