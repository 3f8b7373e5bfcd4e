import type { DependencyUse, Ecosystem } from '../ecosystem.ts';
import { requiredFilesOf } from '../required-files.ts';
import { lazy } from '../shared/lazy.ts';
import { updateDeclarations } from '../update/declarations.ts';
import { type DepLockedProject, type DepRule, readGopkgLock, readGopkgToml } from './gopkg.ts';
import { updateGopkgLock } from './gopkg-lock-update.ts';
import { locateDep } from './update.ts';
import { depVersions } from './versions.ts';

type Files = Readonly<Record<string, string>>;

/** Project roots the GitHub adapter answers for: `github.com/<owner>/<repo>`. */
const GITHUB_PROJECT = /^github\.com\/[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;

/** The rule that decides a project's version: an `[[override]]` supersedes every `[[constraint]]` (dep's rule). */
const ruling = (rules: readonly DepRule[]) => rules.find((rule) => rule.kind === 'override') ?? rules[0];

/** Is the project taken from its GitHub repository's tags (no branch, revision or other source)? */
const fromTags = (rule: DepRule) => rule.branch === null && rule.revision === null && rule.source === null;

/** The use of a project from its rules, with the lock's version when the rule follows tags. */
function useOf(rules: readonly DepRule[], locked: () => Map<string, DepLockedProject>): DependencyUse | undefined {
  const rule = ruling(rules);
  if (!rule) return undefined;
  const tags = fromTags(rule);
  const lockedVersion = tags ? (locked().get(rule.name)?.version ?? null) : null;
  return {
    name: rule.name,
    type: 'runtime',
    requirement: tags ? (rule.version?.trim() ?? null) : null,
    version: lockedVersion,
    manifest: 'Gopkg.toml',
  };
}

/** Gopkg.lock's projects by name (parsed on first use, once); empty without a Gopkg.lock. */
function lockedProjects(files: Files): () => Map<string, DepLockedProject> {
  return lazy(() => {
    const lock = files['Gopkg.lock'];
    return new Map(lock === undefined ? [] : readGopkgLock('Gopkg.lock', lock).map((p) => [p.name, p]));
  });
}

/**
 * dep (https://golang.github.io/dep/): Gopkg.toml plus Gopkg.lock. A dependency is a project root import path named by a
 * `[[constraint]]` or `[[override]]` (an override supersedes the constraints, as in dep); its requirement is the rule's
 * `version` constraint as written (read by {@link depVersions}: `1.2.3` is `^1.2.3`), its version the tag Gopkg.lock locks
 * (`v0.8.0`). Versions come from the project's GitHub tags, so only `github.com/<owner>/<repo>` projects that follow tags
 * are listed; a rule pinning a `branch` or `revision`, or taking the project from another `source`, is found with no
 * requirement and no version (it is not a version: not updated), and left out of `listDependencies`, as are projects on
 * other hosts. Projects only in Gopkg.lock (transitive, or imported without a rule) are not direct dependencies here.
 * `updateManifest` rewrites the rules' `version` when it does not allow the target, keeping operator and precision
 * ({@link locateDep}); `updateLockfiles` rewrites the project's Gopkg.lock entry ({@link updateGopkgLock}).
 */
export const dep: Ecosystem = {
  packageManager: 'dep',
  files: { required: requiredFilesOf('dep'), optional: ['Gopkg.lock'], lockfiles: ['Gopkg.lock'] },
  versions: depVersions,
  normaliseName: (name) => name.trim(),
  findDependency(files, name) {
    const manifest = files['Gopkg.toml'];
    if (manifest === undefined) return undefined;
    const rules = readGopkgToml('Gopkg.toml', manifest).filter((rule) => rule.name === name.trim());
    return useOf(rules, lockedProjects(files));
  },
  listDependencies(files) {
    const manifest = files['Gopkg.toml'];
    if (manifest === undefined) return [];
    const locked = lockedProjects(files);
    const byName = new Map<string, DepRule[]>();
    for (const rule of readGopkgToml('Gopkg.toml', manifest)) byName.set(rule.name, [...(byName.get(rule.name) ?? []), rule]);
    return [...byName.values()]
      .filter((rules) => {
        const rule = ruling(rules);
        return rule !== undefined && fromTags(rule) && GITHUB_PROJECT.test(rule.name);
      })
      .flatMap((rules) => useOf(rules, locked) ?? []);
  },
  updateManifest(files, use, targetVersion) {
    return updateDeclarations(
      {
        schemeName: 'dep',
        scheme: depVersions,
        find: (f, name) => dep.findDependency(f, name),
        locate: locateDep,
        written: (target) => target.replace(/^v/, ''),
      },
      files,
      use,
      targetVersion,
    );
  },
  updateLockfiles: async (request) => updateGopkgLock(request),
};
