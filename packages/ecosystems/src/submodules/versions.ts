import type { VersionScheme } from '../ecosystem.ts';
import { InvalidVersionError } from '../errors.ts';

const COMMIT = /^[0-9a-fA-F]{40}$/;

/** The id of a valid commit, lower-cased. @throws InvalidVersionError when `version` is not 40 hexadecimal digits */
function commitId(version: string): string {
  if (!COMMIT.test(version)) throw new InvalidVersionError('git commit', version);
  return version.toLowerCase();
}

/**
 * The versions of a git submodule: the commit its gitlink pins, 40 hexadecimal digits (SHA-1 object ids; any case, read
 * lower-cased). Commits have no order a version number would give ({@link VersionScheme.unordered}): `compare` is the
 * string order of the lower-cased ids, a total order that only tells equal ids from different ones, and the update
 * decision is made from the registry's head of the branch the submodule follows, as Dependabot's git_submodules update
 * checker does (https://github.com/dependabot/dependabot-core, `git_submodules/lib/dependabot/git_submodules/update_checker.rb`).
 * The requirement is a branch name, which every commit satisfies (the registry says which commit is its head); no commit is
 * a pre-release; `updateKind` is `major` for any move, since a move between commits says nothing of compatibility (the most
 * cautious kind for automerge rules). `lowestAllowed` is null (a branch names no lowest commit) and no requirement asks for
 * pre-releases.
 */
export const submoduleVersions: VersionScheme = {
  unordered: true,
  isValid: (version) => COMMIT.test(version),
  compare(a, b) {
    const x = commitId(a);
    const y = commitId(b);
    return x < y ? -1 : x > y ? 1 : 0;
  },
  satisfies(version) {
    commitId(version);
    return true;
  },
  isPrerelease: () => false,
  updateKind(from, to) {
    commitId(from);
    commitId(to);
    return 'major';
  },
  lowestAllowed: () => null,
  allowsPrereleases: () => false,
};
