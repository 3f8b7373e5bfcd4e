import type { Ecosystem } from '../ecosystem.ts';
import { pomDependencyType, readPom } from './pom.ts';
import { mavenPinnedVersion, mavenVersions } from './versions.ts';

/**
 * Maven: pom.xml only (Maven has no lockfile). A dependency declared in `<dependencies>` takes a missing
 * version and scope from `<dependencyManagement>`; one only in `<dependencyManagement>`, a build plugin or the
 * `<parent>` counts as used too (it is what an update would change). The version in use is the requirement's
 * exact version (a soft `1.2.3` or `[1.2.3]`), else null. Names are `groupId:artifactId`, compared as written
 * (Maven coordinates are case-sensitive).
 */
export const maven: Ecosystem = {
  packageManager: 'maven',
  files: { required: [['pom.xml']], optional: [] },
  versions: mavenVersions,
  normaliseName: (name) => name.trim(),
  findDependency(files, name) {
    const xml = files['pom.xml'];
    if (xml === undefined) return undefined;
    const wanted = name.trim();
    const all = readPom('pom.xml', xml).filter((d) => d.name === wanted);
    const direct = all.find((d) => d.section === 'dependencies');
    const managed = all.find((d) => d.section === 'dependencyManagement');
    const chosen = direct ?? managed ?? all[0];
    if (!chosen) return undefined;
    const requirement = chosen.requirement ?? (chosen === direct ? (managed?.requirement ?? null) : null);
    const scope = chosen.scope ?? (chosen === direct ? (managed?.scope ?? null) : null);
    return {
      name: chosen.name,
      type: pomDependencyType({ ...chosen, scope }),
      requirement,
      version: requirement === null ? null : mavenPinnedVersion(requirement),
      manifest: 'pom.xml',
    };
  },
};
