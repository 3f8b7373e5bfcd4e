/**
 * Maven's version order, after the algorithm of `org.apache.maven.artifact.versioning.ComparableVersion`
 * (https://github.com/apache/maven/blob/maven-3.9.x/maven-artifact/src/main/java/org/apache/maven/artifact/versioning/ComparableVersion.java,
 * https://maven.apache.org/pom.html#version-order-specification), checked against the vectors of its
 * `ComparableVersionTest`:
 * - the version is lowercased and cut into items at `.`, at `-` and at digit/letter transitions; a `-` or a
 *   transition opens a nested list (`1.0-rc-1` → `[1, [rc1]]`), so a hyphen is less important than a dot;
 * - letters directly followed by digits form one "combination" item (`rc1`, `alpha-1`, `.RC2` ≡ `-RC2`), which sorts
 *   after the same letters as an item of their own: `2.0.0-rc.1` (`[2, [rc, 1]]`) < `2.0.0-rc-1` (`[2, [rc1]]`);
 * - numbers compare numerically (any size); missing items count as 0 / release: `1.0 == 1.0.0 == 1`;
 * - qualifiers order alpha (`a1`) < beta (`b1`) < milestone (`m1`) < rc = cr < snapshot < "" = ga = final =
 *   release < sp, and unknown qualifiers come after all of them, alphabetically;
 * - a number beats a qualifier or a list at the same position (`1.0.1 > 1.0-sp > 1.0`).
 * Trailing zeros and empty qualifiers are dropped before comparing (the "normalisation" step).
 */

/** One parsed item. */
export type MavenItem =
  | { kind: 'number'; value: bigint }
  | { kind: 'qualifier'; value: string }
  | { kind: 'combination'; qualifier: string; value: bigint }
  | { kind: 'list'; items: MavenItem[] };

const QUALIFIERS = ['alpha', 'beta', 'milestone', 'rc', 'snapshot', '', 'sp'];
const RELEASE_RANK = QUALIFIERS.indexOf('');
const SAME_AS_RELEASE = new Set(['ga', 'final', 'release']);

/** A qualifier as Maven reads it: `a`/`b`/`m` directly before a number mean alpha/beta/milestone; `cr` means rc. */
function qualifier(text: string, followedByDigit: boolean): string {
  if (followedByDigit && text.length === 1) {
    const expanded = { a: 'alpha', b: 'beta', m: 'milestone' }[text];
    if (expanded) return expanded;
  }
  return text === 'cr' ? 'rc' : text;
}

/** Rank of a qualifier: its index among the known ones, release-likes as "", unknown ones after all (then by text). */
function rank(value: string): [number, string] {
  if (SAME_AS_RELEASE.has(value)) return [RELEASE_RANK, ''];
  const index = QUALIFIERS.indexOf(value);
  return index === -1 ? [QUALIFIERS.length, value] : [index, ''];
}

function compareQualifiers(a: string, b: string): number {
  const [ra, ta] = rank(a);
  const [rb, tb] = rank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  return ta === tb ? 0 : ta < tb ? -1 : 1;
}

const sign = (a: bigint, b: bigint) => (a === b ? 0 : a < b ? -1 : 1);

function isNull(item: MavenItem): boolean {
  switch (item.kind) {
    case 'number':
      return item.value === 0n;
    case 'qualifier':
      return item.value === '';
    case 'combination':
      return false;
    case 'list':
      return item.items.length === 0;
  }
}

/** Compares `a` with `b`; `b` undefined stands for "nothing at this position" (padding). */
function compareItems(a: MavenItem, b: MavenItem | undefined): number {
  switch (a.kind) {
    case 'number':
      if (!b) return a.value === 0n ? 0 : 1;
      return b.kind === 'number' ? sign(a.value, b.value) : 1;
    case 'qualifier':
      if (!b) return compareQualifiers(a.value, '');
      if (b.kind === 'qualifier') return compareQualifiers(a.value, b.value);
      if (b.kind === 'combination') return compareQualifiers(a.value, b.qualifier) || -1; // X < X1
      return -1;
    case 'combination':
      if (!b) return compareQualifiers(a.qualifier, '');
      if (b.kind === 'qualifier') return compareQualifiers(a.qualifier, b.value) || 1; // X1 > X
      if (b.kind === 'combination') return compareQualifiers(a.qualifier, b.qualifier) || sign(a.value, b.value);
      return -1;
    case 'list': {
      if (!b) {
        for (const item of a.items) {
          const result = compareItems(item, undefined);
          if (result !== 0) return result;
        }
        return 0;
      }
      if (b.kind === 'number') return -1;
      if (b.kind !== 'list') return 1;
      for (let i = 0; i < Math.max(a.items.length, b.items.length); i++) {
        const left = a.items[i];
        const right = b.items[i];
        const result = left ? compareItems(left, right) : right ? -compareItems(right, undefined) : 0;
        if (result !== 0) return result;
      }
      return 0;
    }
  }
}

/** Drops null items (0, "", empty lists) that end a list or stand before a qualifier (`1.0.0-rc1` → `[1, [rc1]]`). */
function normalise(list: MavenItem[]): void {
  for (let i = list.length - 1; i >= 0; i--) {
    const item = list[i] as MavenItem;
    if (!isNull(item)) continue;
    const next = list[i + 1];
    const nextFirst = next?.kind === 'list' ? next.items[0] : undefined;
    if (!next || next.kind === 'qualifier' || nextFirst?.kind === 'combination' || nextFirst?.kind === 'qualifier') {
      list.splice(i, 1);
    }
  }
}

function token(text: string, combination: boolean, digits: boolean): MavenItem {
  if (combination) {
    const joined = text.replaceAll('-', '');
    const at = joined.search(/[0-9]/);
    return { kind: 'combination', qualifier: qualifier(joined.slice(0, at), true), value: BigInt(joined.slice(at)) };
  }
  if (digits) return { kind: 'number', value: BigInt(text) };
  return { kind: 'qualifier', value: qualifier(text, false) };
}

/** Parses a version into Maven's item list (never fails: any string is a Maven version). */
export function parseMavenVersion(version: string): MavenItem[] {
  const text = version.toLowerCase();
  const root: MavenItem[] = [];
  const lists = [root];
  let list = root;
  const open = () => {
    const child: MavenItem[] = [];
    list.push({ kind: 'list', items: child });
    list = child;
    lists.push(child);
  };
  let digits = false;
  let combination = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charAt(i);
    const isDigit = c >= '0' && c <= '9';
    if (c === '.' || c === '-') {
      if (i === start) {
        list.push({ kind: 'number', value: 0n });
      } else {
        // letters, then '-', then a digit: one combination item (`alpha-1` ≡ `alpha1`)
        if (c === '-' && !digits && /[0-9]/.test(text.charAt(i + 1))) {
          combination = true;
          continue;
        }
        list.push(token(text.slice(start, i), combination, digits));
      }
      combination = false;
      start = i + 1;
      if (c === '-' && list.length > 0) open();
    } else if (isDigit) {
      if (!digits && i > start) {
        combination = true; // letters then digits
        if (list.length > 0) open();
      }
      digits = true;
    } else {
      if (digits && i > start) {
        list.push(token(text.slice(start, i), combination, true));
        start = i;
        open();
        combination = false;
      }
      digits = false;
    }
  }
  if (text.length > start) {
    if (!digits && list.length > 0) open(); // a trailing `.X` is read like `-X`
    list.push(token(text.slice(start), combination, digits));
  }
  for (let i = lists.length - 1; i >= 0; i--) normalise(lists[i] as MavenItem[]);
  return root;
}

/** Compares two Maven versions: < 0, 0 or > 0. Any strings are accepted, as by Maven. */
export function compareMavenVersions(a: string, b: string): number {
  return compareItems({ kind: 'list', items: parseMavenVersion(a) }, { kind: 'list', items: parseMavenVersion(b) });
}

/** Does the version carry a qualifier that sorts before the release (alpha, beta, milestone, rc/cr, snapshot)? */
export function isMavenPrerelease(version: string): boolean {
  const visit = (items: readonly MavenItem[]): boolean =>
    items.some((item) => {
      if (item.kind === 'list') return visit(item.items);
      if (item.kind === 'qualifier') return rank(item.value)[0] < RELEASE_RANK;
      if (item.kind === 'combination') return rank(item.qualifier)[0] < RELEASE_RANK;
      return false;
    });
  return visit(parseMavenVersion(version));
}

/** The leading numeric items of a version (`1.2.3-rc1` → `[1, 2, 3]`, `1.0` → `[1]` after normalisation). */
export function mavenNumericPrefix(version: string): number[] {
  const out: number[] = [];
  for (const item of parseMavenVersion(version)) {
    if (item.kind !== 'number') break;
    out.push(Number(item.value));
  }
  return out;
}
