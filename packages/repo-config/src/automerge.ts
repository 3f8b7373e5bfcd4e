/**
 * v1 `automerged_updates` → the API's two automerge rules, `automerge-rule-runtime-deps` and
 * `automerge-rule-development-deps` (`never`, `security:patch`, `semver:patch`, `semver:minor`, `in_range`, `all`;
 * https://github.com/dependabot/api-docs; the v1 values in https://github.com/taiki-e/dependabot-config `src/v1.rs`).
 */
import type { AutomergeRule } from '@switchyard/contracts';
import type { SkippedEntry } from './model.ts';

/** The rules read from `automerged_updates`, and the entries they could not express. */
export interface AutomergeReading {
  runtime: AutomergeRule;
  development: AutomergeRule;
  skipped: SkippedEntry[];
}

/** The rules nested by what they let through: `security:patch` ⊂ `semver:patch` ⊂ `semver:minor` ⊂ `all`. */
const RANK: Readonly<Record<AutomergeRule, number>> = {
  never: 0,
  'security:patch': 1,
  'semver:patch': 2,
  'semver:minor': 3,
  in_range: 4,
  all: 5,
};

/**
 * Does rule `wider` let through every update `narrower` lets through? `in_range` (within the manifest's requirement)
 * sits beside the semver rules, neither wider nor narrower, and under `all`.
 */
export function automergeIncludes(wider: AutomergeRule, narrower: AutomergeRule): boolean {
  if (wider === narrower || narrower === 'never' || wider === 'all') return true;
  if (wider === 'in_range' || narrower === 'in_range') return false;
  return RANK[wider] >= RANK[narrower];
}

/** A rule read from a file: `match.update_type` when it is one of the API's rules (absent: `all`). */
function ruleOf(updateType: unknown): AutomergeRule | undefined {
  if (updateType === undefined) return 'all';
  return typeof updateType === 'string' && updateType !== 'never' && updateType in RANK ? (updateType as AutomergeRule) : undefined;
}

/**
 * The API's rules for the `automerged_updates` of the v1 entry at `pointer` (`#/update_configs/0`). Each item's
 * `match.dependency_type` (`production`, `development`, `all`; absent: `all`) says which rule it widens, its
 * `update_type` to what (absent: `all`). Several items for one dependency type combine into the widest, when one includes
 * the others; an item that cannot combine (`in_range` beside `semver:minor`) keeps the earlier rule and is skipped, as is
 * an item naming a dependency (the API's rules apply to every runtime or development dependency) or one without a
 * `match`.
 */
export function automergeRules(items: readonly unknown[], pointer: string): AutomergeReading {
  const reading: AutomergeReading = { runtime: 'never', development: 'never', skipped: [] };
  items.forEach((item, index) => {
    const at = `${pointer}/automerged_updates/${index}`;
    const match = (item as { match?: unknown } | null)?.match;
    if (match === null || typeof match !== 'object' || Array.isArray(match)) {
      reading.skipped.push({ pointer: at, reason: 'an automerged update without a match object names no updates' });
      return;
    }
    const { dependency_name: name, dependency_type: type, update_type: updateType } = match as Record<string, unknown>;
    if (name !== undefined) {
      reading.skipped.push({
        pointer: at,
        reason: `automerging by dependency name (${JSON.stringify(name)}) cannot be expressed: the API's automerge rules apply to every runtime or development dependency`,
      });
      return;
    }
    const rule = ruleOf(updateType);
    if (!rule) {
      reading.skipped.push({
        pointer: at,
        reason: `automerge update type ${JSON.stringify(updateType)} is not one of the API's automerge rules`,
      });
      return;
    }
    const sides: Array<'runtime' | 'development'> =
      type === 'production' ? ['runtime'] : type === 'development' ? ['development'] : ['runtime', 'development'];
    for (const side of sides) {
      const current = reading[side];
      if (automergeIncludes(current, rule)) continue;
      if (automergeIncludes(rule, current)) reading[side] = rule;
      else {
        reading.skipped.push({
          pointer: at,
          reason: `automerge rule ${rule} for ${side} dependencies cannot be combined with the earlier ${current}: the API holds one rule per dependency type, ${current} is kept`,
        });
      }
    }
  });
  return reading;
}
