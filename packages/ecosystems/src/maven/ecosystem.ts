import type { DependencyUse, Ecosystem } from '../ecosystem.ts';
import { requiredFilesOf } from '../required-files.ts';
import { groupBy } from '../shared/group.ts';
import { updateDeclarations } from '../update/declarations.ts';
import { type PomDependency, pomDependencyType, readPom } from './pom.ts';
import { locateMaven, mavenAllows } from './update.ts';
import { mavenPinnedVersion, mavenVersions } from './versions.ts';

/**
 * The use of one `groupId:artifactId` from its declarations (in {@link readPom}'s order): the `<dependencies>`
 * one, taking a missing version and scope from `<dependencyManagement>`; else the managed one; else a plugin, taking
 * a missing version from `<pluginManagement>`; else the managed plugin; else the first (a plugin's dependency, an
 * annotation processor or the parent).
 */
function useOf(all: readonly PomDependency[]): DependencyUse | undefined {
  const direct = all.find((d) => d.section === 'dependencies');
  const managed = all.find((d) => d.section === 'dependencyManagement');
  const plugin = all.find((d) => d.section === 'plugins');
  const managedPlugin = all.find((d) => d.section === 'pluginManagement');
  const chosen = direct ?? managed ?? plugin ?? managedPlugin ?? all[0];
  if (!chosen) return undefined;
  const fallback = chosen === direct ? managed : chosen === plugin ? managedPlugin : undefined;
  const requirement = chosen.requirement ?? fallback?.requirement ?? null;
  const scope = chosen.scope ?? (chosen === direct ? (managed?.scope ?? null) : null);
  return {
    name: chosen.name,
    type: pomDependencyType({ ...chosen, scope }),
    requirement,
    version: requirement === null ? null : mavenPinnedVersion(requirement),
    manifest: 'pom.xml',
  };
}

/**
 * Maven: pom.xml only (Maven has no lockfile). A dependency declared in `<dependencies>` takes a missing
 * version and scope from `<dependencyManagement>`, and a plugin a missing version from `<pluginManagement>`; one only
 * in `<dependencyManagement>`, a build or reporting plugin, a plugin's dependency, an annotation processor path or the
 * `<parent>` counts as used too (it is what an update would change); profiles' sections count as the project's. The version in use is the requirement's
 * exact version (a soft `1.2.3` or `[1.2.3]`), else null. Names are `groupId:artifactId`, compared as written
 * (Maven coordinates are case-sensitive). `listDependencies` leaves out coordinates that keep an unresolvable
 * `${...}` (e.g. a property of the parent POM, which is not read). `updateManifest` edits each `<version>` naming
 * the coordinate, or the `<properties>` entry it refers to (see {@link locateMaven}); a soft version counts as
 * allowing only itself, so it is replaced unless it is the target.
 */
export const maven: Ecosystem = {
  packageManager: 'maven',
  files: { required: requiredFilesOf('maven'), optional: [], lockfiles: [] },
  versions: mavenVersions,
  normaliseName: (name) => name.trim(),
  findDependency(files, name) {
    const xml = files['pom.xml'];
    if (xml === undefined) return undefined;
    const wanted = name.trim();
    return useOf(readPom('pom.xml', xml).filter((d) => d.name === wanted));
  },
  listDependencies(files) {
    const xml = files['pom.xml'];
    if (xml === undefined) return [];
    return [...groupBy(readPom('pom.xml', xml), (d) => d.name)]
      .filter(([name]) => !name.includes('${'))
      .flatMap(([, all]) => useOf(all) ?? []);
  },
  updateManifest(files, use, targetVersion) {
    return updateDeclarations(
      {
        schemeName: 'Maven',
        scheme: mavenVersions,
        find: (f, name) => maven.findDependency(f, name),
        locate: (f, name) => locateMaven(f, name.trim()),
        allows: mavenAllows,
      },
      files,
      use,
      targetVersion,
    );
  },
};
