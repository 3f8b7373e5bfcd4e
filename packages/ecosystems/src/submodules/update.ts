import type { DependencyUse, ManifestUpdate } from '../ecosystem.ts';
import { InvalidVersionError } from '../errors.ts';
import { gitlinkText, readGitlink } from '../shared/files.ts';
import type { GithubSubmodule } from './gitmodules.ts';

type Files = Readonly<Record<string, string>>;

/**
 * Moves the gitlinks of the submodules named `use.name` that pin `use.version` to the commit `targetVersion`, as
 * Dependabot's git_submodules file updater does (https://github.com/dependabot/dependabot-core,
 * `git_submodules/lib/dependabot/git_submodules/file_updater.rb`): each such gitlink's text in the files map becomes
 * `gitlinkText(targetVersion)` (committed as a gitlink); `.gitmodules` is not changed, so `requirement` (the branch)
 * stays. `submodules` are the `.gitmodules` entries on GitHub, as the ecosystem reads them.
 * @returns the changed gitlinks; `unchanged` when they pin the target already; `cannot` when the submodule is not declared,
 *   the version in use is unknown, or no gitlink of it pins that version
 * @throws InvalidVersionError when `targetVersion` is not a 40-hex commit id
 */
export function updateGitlinks(
  files: Files,
  submodules: readonly GithubSubmodule[],
  use: DependencyUse,
  targetVersion: string,
): ManifestUpdate {
  if (!/^[0-9a-fA-F]{40}$/.test(targetVersion)) throw new InvalidVersionError('git commit', targetVersion);
  const wanted = use.name.toLowerCase();
  const declared = submodules.filter((submodule) => submodule.dependency === wanted);
  if (declared.length === 0) return { cannot: `'${use.name}' is not a submodule in .gitmodules` };
  if (use.version === null) return { cannot: `no gitlink of '${use.name}' is in the files read, so its commit is unknown` };
  const inUse = use.version.toLowerCase();
  const pinned = declared.filter((submodule) => readGitlink(files[submodule.path] ?? '') === inUse);
  if (pinned.length === 0) return { cannot: `no gitlink of '${use.name}' pins ${use.version}` };
  const text = gitlinkText(targetVersion);
  const changed: Record<string, string> = {};
  for (const submodule of pinned) if (files[submodule.path] !== text) changed[submodule.path] = text;
  if (Object.keys(changed).length === 0) return { unchanged: `'${use.name}' pins ${targetVersion} already` };
  return { files: changed, requirement: use.requirement };
}
