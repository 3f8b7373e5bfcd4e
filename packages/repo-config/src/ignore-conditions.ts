/**
 * Ignore conditions written as dependabot-core writes them, whatever the ecosystem: `>= 7.a, < 8` (from the line's
 * first pre-release on, below the next line), as its pull requests' "Most Recent Ignore Conditions Applied" list them
 * (`[>= 0.128.a, < 0.129]`). The ignores people make with `@dependabot ignore this major|minor version` are written so
 * in a v2 file's `ignore[].versions`, and read back so by this service.
 */

/** What an ignore made on the code host covers: the dependency, a line of `version`, or `version` alone. */
export type IgnoredLine = 'dependency' | 'major' | 'minor' | 'patch' | 'version';

/** The numbers a version starts with (`v7.2.1-rc.1` → 7, 2, 1), at most three; empty when it starts with none. */
export function leadingNumbers(version: string): number[] {
  const match = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?/.exec(version.trim());
  return match
    ? match
        .slice(1)
        .filter((part): part is string => part !== undefined)
        .map(Number)
    : [];
}

/**
 * The condition of an ignore of `kind` made from `version`: `>= 7.a, < 8` (major), `>= 7.2.a, < 7.3` (minor), the
 * version itself for `patch` and `version` (and for a version that starts with no number); null for `dependency`
 * (every version: no condition).
 */
export function ignoreCondition(kind: IgnoredLine, version: string | null): string | null {
  if (kind === 'dependency' || version === null) return null;
  const numbers = leadingNumbers(version);
  if (kind === 'version' || kind === 'patch' || numbers.length === 0) return version;
  const major = numbers[0] ?? 0;
  if (kind === 'major') return `>= ${major}.a, < ${major + 1}`;
  const minor = numbers[1] ?? 0;
  return `>= ${major}.${minor}.a, < ${major}.${minor + 1}`;
}

/** One bound of a condition: `>= 7.a`, `< 8`. */
const BOUND = /^(>=|>|<=|<|=)\s*v?(\d+(?:\.\d+)*)(\.a)?$/;

/** -1, 0 or 1 as the numbers `a`, read left to right, come before, with or after `b` (missing places are 0). */
function compareNumbers(a: readonly number[], b: readonly number[]): number {
  for (let index = 0; index < Math.max(a.length, b.length); index++) {
    const d = (a[index] ?? 0) - (b[index] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  return 0;
}

/**
 * Whether `version` meets `condition` written in dependabot-core's notation (two or more bounds joined by commas), by
 * the numbers the version starts with; undefined when `condition` is not written so (the ecosystem's own syntax then
 * decides). Linear in the condition's length.
 */
export function meetsIgnoreCondition(condition: string, version: string): boolean | undefined {
  const parts = condition.split(',').map((part) => part.trim());
  if (parts.length < 2 || parts.length > 8) return undefined;
  const bounds = parts.map((part) => BOUND.exec(part));
  if (bounds.some((bound) => bound === null)) return undefined;
  const numbers = leadingNumbers(version);
  if (numbers.length === 0) return false;
  return bounds.every((bound) => {
    const [, op, limit = ''] = bound as RegExpExecArray;
    const order = compareNumbers(numbers, limit.split('.').map(Number));
    if (op === '>=') return order >= 0;
    if (op === '>') return order > 0;
    if (op === '<=') return order <= 0;
    if (op === '<') return order < 0;
    return order === 0;
  });
}
