import type { DependencyUse, Ecosystem } from '../ecosystem.ts';
import { requiredFilesOf } from '../required-files.ts';
import { groupBy } from '../shared/group.ts';
import { updateDeclarations } from '../update/declarations.ts';
import { type PomDependency, pomDependencyType } from './pom.ts';
import { internalNames, mavenRelated, reactorDeclarations, reactorPoms } from './reactor.ts';
import { locateMaven, mavenAllows } from './update.ts';
import { mavenPinnedVersion, mavenVersions } from './versions.ts';

/**
 * The use of one `groupId:artifactId` from its declarations (in {@link reactorDeclarations}' order: the directory's
 * pom.xml, its modules, its in-repository parents): the first `<dependencies>` one, taking a missing version and scope
 * from the `<dependencyManagement>` that manages it (its POM's or an in-repository parent's); else the first managed
 * one; else a plugin, taking a missing version from `<pluginManagement>`; else the managed plugin; else the first (a
 * plugin's dependency, an annotation processor or the parent). `manifest` is the file of the declaration chosen.
 */
function useOf(all: readonly PomDependency[]): DependencyUse | undefined {
  const direct = all.find((d) => d.section === 'dependencies');
  const managed = all.find((d) => d.section === 'dependencyManagement');
  const plugin = all.find((d) => d.section === 'plugins');
  const managedPlugin = all.find((d) => d.section === 'pluginManagement');
  const chosen = direct ?? managed ?? plugin ?? managedPlugin ?? all[0];
  if (!chosen) return undefined;
  const fallback = chosen === direct || chosen === plugin ? chosen.managed : undefined;
  const requirement = chosen.requirement ?? fallback?.requirement ?? null;
  const scope = chosen.scope ?? (chosen === direct ? (fallback?.scope ?? null) : null);
  return {
    name: chosen.name,
    type: pomDependencyType({ ...chosen, scope }),
    requirement,
    version: requirement === null ? null : mavenPinnedVersion(requirement),
    manifest: chosen.file,
  };
}

/** The declarations of the build's POMs without the build's own modules (Dependabot's `internal_dependency_names`). */
function externalDeclarations(files: Readonly<Record<string, string>>): PomDependency[] {
  const internal = internalNames(reactorPoms(files));
  return reactorDeclarations(files).filter((d) => !internal.has(d.name));
}

/**
 * Maven: pom.xml (Maven has no lockfile), and through `files.related` ({@link mavenRelated}) the POMs of its modules and
 * its in-repository parents, read as one build ({@link reactorPoms}): root first, then modules, then parents. A
 * dependency declared in `<dependencies>` takes a missing version and scope from the `<dependencyManagement>` of its
 * POM or of an in-repository parent, and a plugin a missing version from `<pluginManagement>`, with Maven's property
 * inheritance (a module's properties override its parent's); one only in `<dependencyManagement>`, a build or reporting
 * plugin, a plugin's dependency, an annotation processor path or a remote `<parent>` counts as used too (it is what an
 * update would change); profiles' sections count as the project's. The build's own modules are not dependencies. The
 * version in use is the requirement's exact version (a soft `1.2.3` or `[1.2.3]`), else null. Names are
 * `groupId:artifactId`, compared as written (Maven coordinates are case-sensitive); `manifest` is the POM of the
 * declaration chosen (`core/pom.xml`). `listDependencies` leaves out coordinates that keep an unresolvable `${...}`
 * (e.g. a property of a parent POM in the registry, which is not fetched). `updateManifest` edits each `<version>`
 * naming the coordinate, or the `<properties>` entry it refers to, in whichever POM defines it (see
 * {@link locateMaven}); a soft version counts as allowing only itself, so it is replaced unless it is the target.
 */
export const maven: Ecosystem = {
  packageManager: 'maven',
  files: { required: requiredFilesOf('maven'), optional: [], lockfiles: [], related: mavenRelated },
  versions: mavenVersions,
  normaliseName: (name) => name.trim(),
  findDependency(files, name) {
    const wanted = name.trim();
    return useOf(externalDeclarations(files).filter((d) => d.name === wanted));
  },
  listDependencies(files) {
    return [...groupBy(externalDeclarations(files), (d) => d.name)]
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
