import { createHash } from 'node:crypto';
import type { GroupRule } from '@switchyard/contracts';
import { matchesDependencyName } from '@switchyard/repo-config';

/**
 * Grouped updates (dependabot.yml `groups`, and the API config's `groups`, this service's extension): which group an
 * update joins, and how a group's job is named. Dependabot's rules
 * (https://docs.github.com/code-security/dependabot/working-with-dependabot/dependabot-options-reference#groups):
 * a dependency joins the first group, in the config's order, whose `patterns` (every dependency when none) match its
 * name and whose `exclude-patterns` do not, of the group's `dependency-type` (`production` the runtime dependencies,
 * `development` the others) and `update-types` (every level when none); `applies-to: version-updates` (the default)
 * groups version updates, `security-updates` the updates that fix an advisory. An update no group takes gets its own
 * pull request.
 */

/** What decides an update's group: the dependency, its type, the update's semver level, whether it fixes an advisory. */
export interface GroupedUpdateFacts {
  name: string;
  dependencyType: 'runtime' | 'development';
  updateKind: 'major' | 'minor' | 'patch';
  securityFix: boolean;
}

/** The name of the first of `groups` that takes the update, or null when none does (it gets its own pull request). */
export function groupOf(groups: readonly GroupRule[], update: GroupedUpdateFacts): string | null {
  for (const group of groups) {
    if ((group.appliesTo === 'security-updates') !== update.securityFix) continue;
    const patterns = group.patterns.length === 0 ? ['*'] : group.patterns;
    if (!patterns.some((pattern) => matchesDependencyName(pattern, update.name))) continue;
    if (group.excludePatterns.some((pattern) => matchesDependencyName(pattern, update.name))) continue;
    if (group.dependencyType === 'production' && update.dependencyType !== 'runtime') continue;
    if (group.dependencyType === 'development' && update.dependencyType !== 'development') continue;
    if (group.updateTypes.length > 0 && !group.updateTypes.includes(update.updateKind)) continue;
    return group.name;
  }
  return null;
}

/**
 * A group's updates in one word: the first 10 hex digits of the SHA-256 of their `name@version` lines, sorted, as
 * Dependabot suffixes a group's branch (`dependabot/npm_and_yarn/dev-dependencies-1a2b3c4d5e`). The same updates give
 * the same digest, so a run that finds them again records no second job; a newer version of any gives another.
 */
export function groupDigest(updates: readonly { name: string; version: string }[]): string {
  const lines = updates.map((update) => `${update.name}@${update.version}`).sort();
  return createHash('sha256').update(lines.join('\n')).digest('hex').slice(0, 10);
}

const KIND_ORDER = ['patch', 'minor', 'major'] as const;

/** The largest semver level among `kinds` (`major` > `minor` > `patch`): a group's update kind. */
export function largestKind(kinds: readonly ('major' | 'minor' | 'patch')[]): 'major' | 'minor' | 'patch' {
  return kinds.reduce<'major' | 'minor' | 'patch'>(
    (largest, kind) => (KIND_ORDER.indexOf(kind) > KIND_ORDER.indexOf(largest) ? kind : largest),
    'patch',
  );
}
