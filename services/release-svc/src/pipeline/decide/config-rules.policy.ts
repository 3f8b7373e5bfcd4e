import type { IgnoreRule, UpdateConfigSettings } from '@switchyard/contracts';
import type { DependencyUse, Ecosystem } from '@switchyard/ecosystems';
import { allowsDependency, ignoreCondition, leadingNumbers, matchesDependencyName, meetsIgnoreCondition } from '@switchyard/repo-config';
import type { HeldIgnore } from '../../read-model/scan-target.model.ts';

/**
 * What bears on which updates a config proposes: its allow and ignore rules (settings), and the ignores people made on
 * the code host (`held`: commands, closed pull requests).
 */
export type UpdateRules = Pick<UpdateConfigSettings, 'allow' | 'ignore'> & { held?: readonly HeldIgnore[] };

/**
 * Whether `candidate` is on the line of `version` an ignore names: the same major (`major`: 7.x.x), major and minor
 * (`minor`: 0.23.x), major, minor and patch (`patch`), or the version itself (`version`, by the ecosystem's order when
 * it reads both). A version without leading numbers (a Docker tag like `alpine`) is on no line but its own.
 */
export function onIgnoredLine(ecosystem: Ecosystem, ignore: HeldIgnore, candidate: string): boolean {
  if (ignore.kind === 'dependency') return true;
  const version = ignore.version;
  if (version === null) return false;
  if (candidate === version) return true;
  if (ignore.kind === 'version') {
    const scheme = ecosystem.versions;
    return scheme.isValid(candidate) && scheme.isValid(version) && scheme.compare(candidate, version) === 0;
  }
  if (ignore.kind === 'patch') {
    const a = leadingNumbers(version);
    const b = leadingNumbers(candidate);
    return a.length > 0 && b.length > 0 && [0, 1, 2].every((index) => (a[index] ?? 0) === (b[index] ?? 0));
  }
  // A major or minor line: dependabot-core's condition for it (`>= 7.a, < 8`).
  const condition = ignoreCondition(ignore.kind, version);
  return condition !== null && meetsIgnoreCondition(condition, candidate) === true;
}

/** How an ignore a person made reads in a reason: `express`, `express 7.x.x`, `express 4.18.2`. */
export function heldIgnoreText(ignore: HeldIgnore): string {
  if (ignore.kind === 'dependency' || ignore.version === null) return ignore.dependencyName;
  if (ignore.kind === 'version') return `${ignore.dependencyName} ${ignore.version}`;
  const numbers = leadingNumbers(ignore.version);
  const width = ignore.kind === 'major' ? 1 : ignore.kind === 'minor' ? 2 : 3;
  const kept = numbers.slice(0, width);
  while (kept.length < width) kept.push(0);
  return `${ignore.dependencyName} ${[...kept, ...Array(3 - width).fill('x')].join('.')}`;
}

/** The update-type names of an ignore rule, by the kind of update they name. */
const IGNORED_KIND = {
  major: 'version-update:semver-major',
  minor: 'version-update:semver-minor',
  patch: 'version-update:semver-patch',
} as const;

/**
 * Why the config's allow rules leave `use` out of its version updates, or null when they take it (`allowsDependency`
 * of `@switchyard/repo-config`: without rules, every direct dependency, which every dependency a manifest declares is).
 * Security fixes are not subject to allow rules (GitHub's docs: "allow has no effect on security updates"); the caller
 * asks only for version updates.
 */
export function notAllowed(rules: UpdateRules, use: DependencyUse): string | null {
  const facts = { name: use.name, type: use.type === 'development' ? ('development' as const) : ('production' as const), direct: true };
  return allowsDependency(rules, facts) ? null : `${use.name} is not among the dependencies the config's allow rules take`;
}

/** Does `version` fall in the ignore rule's `versions` (ranges in the ecosystem's syntax, or exact versions)? */
function inIgnoredVersions(ecosystem: Ecosystem, rule: IgnoreRule, version: string): string | undefined {
  const scheme = ecosystem.versions;
  return rule.versions.find((range) => {
    if (range.trim() === version) return true;
    const core = meetsIgnoreCondition(range, version);
    if (core !== undefined) return core;
    try {
      return scheme.satisfies(version, range);
    } catch {
      // A range the ecosystem cannot read ignores nothing (the file's author sees it was not applied in the run).
      return false;
    }
  });
}

/**
 * Why the config ignores updating `use` to `version`, or null: an ignore a person made on the code host
 * ({@link onIgnoredLine}), or the first ignore rule of its settings naming the dependency (a pattern
 * with `*`, as {@link matchesDependencyName}) that ignores every version (no `versions` nor `updateTypes`), a range of
 * `versions` holding it, or an `updateTypes` entry naming its kind relative to the version in use (dependabot-core's
 * `IgnoreCondition`: `version-update:semver-major` ignores every new major, and so on). The kind comes from the
 * ecosystem (`updateKind`), so `0.7 → 0.8` of npm and Cargo counts as major, as their requirements treat it.
 */
export function ignoredBy(rules: UpdateRules, ecosystem: Ecosystem, use: DependencyUse, version: string): string | null {
  for (const held of rules.held ?? []) {
    if (ecosystem.normaliseName(held.dependencyName) !== ecosystem.normaliseName(use.name)) continue;
    if (onIgnoredLine(ecosystem, held, version)) return `ignored on the code host: ${heldIgnoreText(held)}`;
  }
  for (const rule of rules.ignore) {
    if (!matchesDependencyName(rule.dependencyName, use.name)) continue;
    if (rule.versions.length === 0 && rule.updateTypes.length === 0) return `the config ignores ${rule.dependencyName}`;
    const range = inIgnoredVersions(ecosystem, rule, version);
    if (range !== undefined) return `the config ignores ${rule.dependencyName} ${range}`;
    if (use.version !== null && rule.updateTypes.length > 0) {
      let kind: keyof typeof IGNORED_KIND | undefined;
      try {
        kind = ecosystem.versions.updateKind(use.version, version);
      } catch {
        kind = undefined;
      }
      if (kind && rule.updateTypes.includes(IGNORED_KIND[kind]))
        return `the config ignores ${rule.dependencyName} ${IGNORED_KIND[kind]} updates`;
    }
  }
  return null;
}
