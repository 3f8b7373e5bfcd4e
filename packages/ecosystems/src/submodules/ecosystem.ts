import type { DependencyUse, Ecosystem } from '../ecosystem.ts';
import { requiredFilesOf } from '../required-files.ts';
import { readGitlink } from '../shared/files.ts';
import { type GithubSubmodule, readGithubSubmodules, submoduleDependencyName } from './gitmodules.ts';
import { updateGitlinks } from './update.ts';
import { submoduleVersions } from './versions.ts';

type Files = Readonly<Record<string, string>>;

const GITMODULES = '.gitmodules';

/** The submodules of `.gitmodules` on GitHub, in file order; [] without the file. */
function submodulesOf(files: Files): GithubSubmodule[] {
  const text = files[GITMODULES];
  return text === undefined ? [] : readGithubSubmodules(GITMODULES, text);
}

/**
 * A submodule's dependency name for comparison: a GitHub URL's name ({@link submoduleDependencyName}: so
 * `https://github.com/Acme/Lib.git` and `git@github.com:acme/lib.git` name `github.com/acme/lib` too), else the name
 * lower-cased, without a scheme, `www.`, trailing `/` or `.git`.
 */
function normaliseSubmoduleName(name: string): string {
  const fromUrl = submoduleDependencyName(name);
  if (fromUrl !== undefined) return fromUrl;
  return name
    .trim()
    .toLowerCase()
    .replace(/^[a-z+]+:\/\//, '')
    .replace(/^www\./, '')
    .replace(/\/+$/, '')
    .replace(/\.git$/, '');
}

/**
 * The use of one repository from its submodules (file order): the first gives the branch (`requirement`, null for the
 * default branch; `branch = .`, the superproject's current branch, reads as null too); the first with a gitlink in the files
 * gives the commit.
 */
function useOf(files: Files, submodules: readonly GithubSubmodule[]): DependencyUse | undefined {
  const first = submodules[0];
  if (!first) return undefined;
  const branch = first.branch === null || first.branch === '.' || first.branch === '' ? null : first.branch;
  const version = submodules.map((submodule) => readGitlink(files[submodule.path] ?? '')).find((sha) => sha !== undefined) ?? null;
  return { name: first.dependency, type: 'runtime', requirement: branch, version, manifest: GITMODULES };
}

/**
 * Git submodules (Dependabot's `submodules`, https://github.com/dependabot/dependabot-core/tree/main/git_submodules): the
 * submodules `.gitmodules` declares (https://git-scm.com/docs/gitmodules, read by {@link readGitmodules}) whose URL is a
 * GitHub repository, named `github.com/<owner>/<repo>` (lower-cased; the name the registry adapter lists the branch heads
 * of); submodules on other hosts and relative URLs are left out. The requirement is the `branch` the submodule follows
 * (null: the remote's default branch); the version is the commit its gitlink pins, read from the gitlink the files map
 * holds under the submodule's `path` (`files.gitlinks`; null when the map has none there). Every submodule is `runtime`
 * (Dependabot gives them no groups). Versions are commit ids ({@link submoduleVersions}); `updateManifest` moves gitlinks
 * (see {@link updateGitlinks}) and never edits `.gitmodules`; there is no lockfile.
 */
export const submodules: Ecosystem = {
  packageManager: 'submodules',
  files: { required: requiredFilesOf('submodules'), optional: [], lockfiles: [], gitlinks: true },
  versions: submoduleVersions,
  normaliseName: normaliseSubmoduleName,
  findDependency(files, name) {
    const wanted = normaliseSubmoduleName(name);
    return useOf(
      files,
      submodulesOf(files).filter((submodule) => submodule.dependency === wanted),
    );
  },
  listDependencies(files) {
    const byName = new Map<string, GithubSubmodule[]>();
    for (const submodule of submodulesOf(files)) {
      const list = byName.get(submodule.dependency);
      if (list) list.push(submodule);
      else byName.set(submodule.dependency, [submodule]);
    }
    return [...byName.values()].flatMap((list) => useOf(files, list) ?? []);
  },
  updateManifest(files, use, targetVersion) {
    return updateGitlinks(files, submodulesOf(files), { ...use, name: normaliseSubmoduleName(use.name) }, targetVersion);
  },
};
