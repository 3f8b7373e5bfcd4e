import type { DependencyUse, Ecosystem } from '../ecosystem.ts';
import { requiredFilesOf } from '../required-files.ts';
import { useOfDeclarations } from '../shared/declared-use.ts';
import { groupBy } from '../shared/group.ts';
import { updateDeclarations } from '../update/declarations.ts';
import { BUILD_SCRIPTS, CATALOG, type GradleDeclaration, readGradle } from './declarations.ts';
import { gradleAllows, locateGradle } from './update.ts';
import { gradlePinnedVersion, gradleVersions } from './versions.ts';

/** The requirement a declaration stands for: its version's text, null without a version or when it cannot be resolved. */
const requirementOf = (d: GradleDeclaration) => (d.version !== null && 'file' in d.version ? d.version.text : null);

/** The use of one dependency from its declarations (see {@link useOfDeclarations}). */
const useOf = (all: readonly GradleDeclaration[]): DependencyUse | undefined => useOfDeclarations(all, requirementOf, gradlePinnedVersion);

/**
 * Gradle (after Dependabot's gradle ecosystem, https://github.com/dependabot/dependabot-core/tree/main/gradle): the
 * build scripts `build.gradle`/`build.gradle.kts` (one is required), `settings.gradle(.kts)`, the subprojects' one
 * level down (`app/build.gradle`), the version catalog `gradle/libs.versions.toml` and `gradle.properties`. Names are
 * `groupId:artifactId` (as Maven's, compared as written); a plugin is `id:id.gradle.plugin`, its marker artifact.
 * Versions follow Maven's order ({@link gradleVersions}); the version in use is the declaration's exact version (a
 * plain `1.2.3`, `1.2.3!!` or `[1.2.3]`), else null (dynamic versions `1.+`, `latest.release` and ranges are
 * requirements). `test*`/`androidTest*` configurations are `development`, everything else `runtime`.
 * `updateManifest` edits the version where it is written: inline, the property it refers to, or the catalog's
 * `[versions]` entry (see {@link locateGradle}); a property or catalog version shared by other dependencies moves them
 * too, which the update's note says. Gradle's dependency lockfiles (`gradle.lockfile`) are not read or updated.
 */
export const gradle: Ecosystem = {
  packageManager: 'gradle',
  files: {
    required: requiredFilesOf('gradle'),
    optional: [...BUILD_SCRIPTS.filter((f) => !['build.gradle', 'build.gradle.kts'].includes(f)), CATALOG, 'gradle.properties'],
    lockfiles: [],
  },
  versions: gradleVersions,
  normaliseName: (name) => name.trim(),
  findDependency(files, name) {
    const wanted = name.trim();
    return useOf(readGradle(files).filter((d) => d.name === wanted));
  },
  listDependencies(files) {
    return [...groupBy(readGradle(files), (d) => d.name).values()].flatMap((all) => useOf(all) ?? []);
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
};
