/**
 * Which dependencies a config's rules name: `*` wildcards in dependency names, and the allow rules (SchemaStore's v1
 * schema; https://docs.github.com/en/code-security/dependabot/working-with-dependabot/dependabot-options-reference). Names and patterns come from repository files, so matching builds no regular expression from them and runs in
 * time linear in the lengths of the name and the pattern.
 */
import type { AllowDependencyType, AllowRule } from './model.ts';

/**
 * Does `name` match `pattern`, where `*` stands for any run of characters (none included) and letters match in either
 * case? (dependabot-core's `WildcardMatcher`: `react*` matches `react-dom`, `*eslint*` matches `@typescript-eslint/parser`.)
 * The pattern's literal pieces are found left to right, each with a Knuth–Morris–Pratt search that starts where the
 * previous piece ended: O(name + pattern) however many `*` the pattern holds.
 */
export function matchesDependencyName(pattern: string, name: string): boolean {
  const pieces = pattern.toLowerCase().split('*');
  const text = name.toLowerCase();
  const first = pieces[0] ?? '';
  if (pieces.length === 1) return first === text;
  const last = pieces[pieces.length - 1] ?? '';
  if (first.length + last.length > text.length || !text.startsWith(first) || !text.endsWith(last)) return false;
  let from = first.length;
  const end = text.length - last.length;
  for (let index = 1; index < pieces.length - 1; index++) {
    const piece = pieces[index] ?? '';
    if (piece === '') continue;
    const at = findFrom(text, piece, from, end);
    if (at < 0) return false;
    from = at + piece.length;
  }
  return true;
}

/** Where `piece` first occurs in `text` between `from` and `end` (exclusive), or -1; Knuth–Morris–Pratt, O(end − from + piece). */
function findFrom(text: string, piece: string, from: number, end: number): number {
  if (end - from < piece.length) return -1;
  const fallback = new Int32Array(piece.length);
  for (let index = 1, matched = 0; index < piece.length; index++) {
    while (matched > 0 && piece[index] !== piece[matched]) matched = fallback[matched - 1] ?? 0;
    if (piece[index] === piece[matched]) matched++;
    fallback[index] = matched;
  }
  for (let index = from, matched = 0; index < end; index++) {
    while (matched > 0 && text[index] !== piece[matched]) matched = fallback[matched - 1] ?? 0;
    if (text[index] === piece[matched]) matched++;
    if (matched === piece.length) return index - piece.length + 1;
  }
  return -1;
}

/** A dependency as the allow rules see it: its name, its group (`production` or `development`) and whether it is direct. */
export interface DependencyFacts {
  name: string;
  type: 'production' | 'development';
  direct: boolean;
}

/** Does a rule's `dependencyType` (absent: every type) take the dependency? */
function typeMatches(type: AllowDependencyType | undefined, dependency: DependencyFacts): boolean {
  switch (type ?? 'all') {
    case 'direct':
      return dependency.direct;
    case 'indirect':
      return !dependency.direct;
    case 'production':
      return dependency.type === 'production';
    case 'development':
      return dependency.type === 'development';
    default:
      return true;
  }
}

/**
 * May the config's version updates touch `dependency`? Without allow rules, the direct dependencies only ("all
 * direct/top-level dependencies are kept up to date", SchemaStore's v1 description; the same default in v2). With
 * rules, when any rule matches it (their union): the name by {@link matchesDependencyName}, the type by
 * `dependencyType`. A rule with `updateType: 'security'` allows security updates only, so it allows no version update
 * here; whether a security update may go ahead is the caller's decision.
 */
export function allowsDependency(config: { allow: readonly AllowRule[] }, dependency: DependencyFacts): boolean {
  if (config.allow.length === 0) return dependency.direct;
  return config.allow.some(
    (rule) =>
      rule.updateType !== 'security' &&
      (rule.dependencyName === undefined || matchesDependencyName(rule.dependencyName, dependency.name)) &&
      typeMatches(rule.dependencyType, dependency),
  );
}
