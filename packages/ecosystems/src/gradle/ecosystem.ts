import type { DependencyUse, Ecosystem } from '../ecosystem.ts';
import { requiredFilesOf } from '../required-files.ts';
import { useOfDeclarations } from '../shared/declared-use.ts';
import { memoByFiles } from '../shared/files-memo.ts';
import { groupBy } from '../shared/group.ts';
import { updateDeclarations } from '../update/declarations.ts';
import { BUILD_SCRIPTS, CATALOG, type GradleDeclaration, readGradle } from './declarations.ts';
import { GRADLE_LOCKFILES, type GradleLockfile, lockedVersion, readGradleLockfiles, updateGradleLockfiles } from './lockfile.ts';
import { gradleAllows, locateGradle } from './update.ts';
import { gradlePinnedVersion, gradleVersions } from './versions.ts';

/** The requirement a declaration stands for: its version's text, null without a version or when it cannot be resolved. */
/** The lockfiles of a files map, parsed once per map (`findDependency` is asked once per dependency). */

const lockfilesOf = memoByFiles(readGradleLockfiles);

const requirementOf = (d: GradleDeclaration) => (d.version !== null && 'file' in d.version ? d.version.text : null);

/**
 * The use of one dependency from its declarations (see {@link useOfDeclarations}); the version is the lockfiles' when
 * one locks the module (see {@link lockedVersion}), else the declaration's exact version.
 */
function useOf(all: readonly GradleDeclaration[], lockfiles: readonly GradleLockfile[]): DependencyUse | undefined {
  const use = useOfDeclarations(all, requirementOf, gradlePinnedVersion);
  if (!use) return undefined;
  const locked = lockedVersion(
    lockfiles,
    use.name,
    use.manifest,
    all.map((d) => d.file),
  );
  return locked === undefined ? use : { ...use, version: locked };
}

/**
 * Gradle (after Dependabot's gradle ecosystem, https://github.com/dependabot/dependabot-core/tree/main/gradle): the
 * build scripts `build.gradle`/`build.gradle.kts` (one is required), `settings.gradle(.kts)`, the subprojects' one
 * level down (`app/build.gradle`), the version catalog `gradle/libs.versions.toml` and `gradle.properties`. Names are
 * `groupId:artifactId` (as Maven's, compared as written); a plugin is `id:id.gradle.plugin`, its marker artifact.
 * Versions follow Gradle's own order ({@link gradleVersions}); the version in use is the one Gradle's dependency
 * lockfiles lock (`gradle.lockfile`, `buildscript-gradle.lockfile`, legacy `gradle/dependency-locks/*.lockfile`, of the
 * root and the subprojects: {@link GRADLE_LOCKFILES}) when one does, else the declaration's exact version (a plain
 * `1.2.3`, `1.2.3!!` or `[1.2.3]`), else null (dynamic versions `1.+`, `latest.release` and ranges are requirements).
 * `test*`/`androidTest*` configurations are `development`, everything else `runtime`.
 * `updateManifest` edits the version where it is written: inline, the property it refers to, or the catalog's
 * `[versions]` entry (see {@link locateGradle}); a property or catalog version shared by other dependencies moves them
 * too, which the update's note says. `updateLockfiles` moves the module's lockfile lines to the target
 * ({@link updateGradleLockfiles}).
 */
export const gradle: Ecosystem = {
  packageManager: 'gradle',
  files: {
    required: requiredFilesOf('gradle'),
    optional: [
      ...BUILD_SCRIPTS.filter((f) => !['build.gradle', 'build.gradle.kts'].includes(f)),
      CATALOG,
      'gradle.properties',
      ...GRADLE_LOCKFILES,
    ],
    lockfiles: [...GRADLE_LOCKFILES],
  },
  versions: gradleVersions,
  normaliseName: (name) => name.trim(),
  findDependency(files, name) {
    const wanted = name.trim();
    const declarations = readGradle(files).filter((d) => d.name === wanted);
    return declarations.length === 0 ? undefined : useOf(declarations, lockfilesOf(files));
  },
  listDependencies(files) {
    const declarations = readGradle(files);
    const lockfiles = declarations.length === 0 ? [] : lockfilesOf(files);
    return [...groupBy(declarations, (d) => d.name).values()].flatMap((all) => useOf(all, lockfiles) ?? []);
  },
  updateManifest(files, use, targetVersion) {
    return updateDeclarations(
      {
        schemeName: 'Gradle',
        scheme: gradleVersions,
        find: (f, name) => gradle.findDependency(f, name),
        locate: (f, name) => locateGradle(f, name.trim()),
        allows: gradleAllows,
      },
      files,
      use,
      targetVersion,
    );
  },
  updateLockfiles: async (request) => updateGradleLockfiles(request),
};
