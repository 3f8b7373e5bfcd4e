/**
 * Maven's version order: a port of `org.apache.maven.artifact.versioning.ComparableVersion` as maven-artifact 3.9.6 has
 * it (https://github.com/apache/maven/blob/maven-3.9.6/maven-artifact/src/main/java/org/apache/maven/artifact/versioning/ComparableVersion.java,
 * https://maven.apache.org/pom.html#version-order-specification), checked against the vectors of its
 * `ComparableVersionTest` and against the jar itself (`test/maven-comparable-version.test.ts`):
 * - the version is lowercased and cut into items at `.`, at `-` and at digit/letter transitions; a `-` opens a sublist
 *   (`1.0-rc-1` → `[1, [rc, [1]]]`), a transition from digits to letters opens one, and letters followed by digits
 *   stand in a sublist of their own, the digits in a further one (`1.0.0.RC1` ≡ `1-RC-1` → `[1, [rc, [1]]]`: MNG-7644,
 *   a `.X` qualifier is read like `-X`); letters after a `.` at the end are read like `-X` too (`2.0.a` ≡ `2-a`);
 * - so a number separated by `.` stays in the qualifier's list while one joined directly or by `-` opens a sublist:
 *   `1.0-alpha-1` (`[1, [alpha, [1]]]`) < `1.0.0-alpha.1` (`[1, [alpha, 1]]`), because a list sorts below a number;
 * - numbers compare numerically (any size); a missing item counts as "nothing", which a 0, an empty list and the release
 *   qualifier equal: `1.0 == 1.0.0 == 1 == 1-0`;
 * - qualifiers order alpha (`a` before a digit) < beta (`b`) < milestone (`m`) < rc = cr < snapshot < "" = ga = final =
 *   release < sp, and unknown qualifiers come after all of them, by their text (UTF-16 code units);
 * - at one position a number beats a list, which beats a qualifier (`1.0.1 > 1.0-1 > 1.0-sp`);
 * - trailing nulls (0, "", empty lists) are dropped from each list before comparing ("normalisation"), looking past
 *   sublists: `1.0-0.0` ≡ `1`.
 * There is no "combination" item that would make `rc-2` one token sorting after `rc.1`: that is Maven 4's
 * `ComparableVersion` (MNG-7714), which maven-artifact 3.9.x does not have; here `rc-2` ≡ `rc2` → `[rc, [2]]` < `rc.1`.
 */

/**
 * One parsed item, as maven-artifact's `Item` classes: a number (`IntItem`, `LongItem` or `BigIntegerItem`, which
 * `width` names: the class is chosen by the number of digits after leading ASCII zeros, ≤ 9, ≤ 18 or more, and items of
 * different classes compare by class first), a qualifier (`StringItem`, aliases applied: `cr` → `rc`, `ga`/`final`/
 * `release` → `""`, `a`/`b`/`m` before a digit → alpha/beta/milestone) or a sublist (`ListItem`).
 */
export type MavenItem =
  | { kind: 'number'; value: bigint; width: 'int' | 'long' | 'big' }
  | { kind: 'qualifier'; value: string }
  | { kind: 'list'; items: MavenItem[] };

const QUALIFIERS = ['alpha', 'beta', 'milestone', 'rc', 'snapshot', '', 'sp'];
const ALIASES: ReadonlyMap<string, string> = new Map([
  ['ga', ''],
  ['final', ''],
  ['release', ''],
  ['cr', 'rc'],
]);
const RELEASE_INDEX = String(QUALIFIERS.indexOf(''));
const MAX_INT_LENGTH = 9;
const MAX_LONG_LENGTH = 18;
const WIDTHS = { int: 0, long: 1, big: 2 } as const;

/** Java's `Character.isDigit(char)`: a Unicode decimal digit (general category Nd) in one UTF-16 unit. */
const DIGIT = /^\p{Nd}$/u;
const isDigit = (c: string): boolean => DIGIT.test(c);

/**
 * The value of a run of digits, whatever their script (`Integer.parseInt`, `Long.parseLong` and `new BigInteger` read
 * any Unicode decimal digit): Unicode lays each script's digits out as 0..9 in a row, so a digit's value is the number
 * of digits just before it in its row.
 */
function numberValue(digits: string): bigint {
  if (/^[0-9]*$/.test(digits)) return BigInt(digits);
  let value = 0n;
  for (let i = 0; i < digits.length; i++) {
    const code = digits.charCodeAt(i);
    let zero = code;
    while (isDigit(String.fromCharCode(zero - 1)) && code - (zero - 1) < 10) zero--;
    value = value * 10n + BigInt(code - zero);
  }
  return value;
}

/** `ComparableVersion.parseItem`: a number item of the class its length asks for, or a qualifier. */
function parseItem(digits: boolean, text: string): MavenItem {
  if (!digits) return qualifierItem(text, false);
  // `stripLeadingZeroes`: ASCII zeros only, and a run of zeros stays whole (`000` is an int, 19 zeros a BigInteger)
  const stripped = text === '' ? '0' : /^0*$/.test(text) ? text : text.replace(/^0+/, '');
  const width = stripped.length <= MAX_INT_LENGTH ? 'int' : stripped.length <= MAX_LONG_LENGTH ? 'long' : 'big';
  return { kind: 'number', value: numberValue(stripped), width };
}

/** `StringItem`'s constructor: `a`/`b`/`m` directly followed by a digit expand, then the aliases apply. */
function qualifierItem(text: string, followedByDigit: boolean): MavenItem {
  let value = text;
  if (followedByDigit && value.length === 1) value = { a: 'alpha', b: 'beta', m: 'milestone' }[value] ?? value;
  return { kind: 'qualifier', value: ALIASES.get(value) ?? value };
}

/** `StringItem.comparableQualifier`: the index of a known qualifier, else `7-<text>`, compared as strings. */
function comparableQualifier(value: string): string {
  const index = QUALIFIERS.indexOf(value);
  return index === -1 ? `${QUALIFIERS.length}-${value}` : String(index);
}

/** Java's `String.compareTo` sign: by UTF-16 code units. */
const compareText = (a: string, b: string): number => (a === b ? 0 : a < b ? -1 : 1);
const sign = (a: bigint, b: bigint): number => (a === b ? 0 : a < b ? -1 : 1);

function isNull(item: MavenItem): boolean {
  switch (item.kind) {
    case 'number':
      return item.value === 0n;
    case 'qualifier':
      return comparableQualifier(item.value) === RELEASE_INDEX;
    case 'list':
      return item.items.length === 0;
  }
}

/** `Item.compareTo`: `a` against `b`, where `b` undefined is Java's `null`, "nothing at this position". */
function compareItems(a: MavenItem, b: MavenItem | undefined): number {
  switch (a.kind) {
    case 'number':
      if (!b) return a.value === 0n ? 0 : 1;
      if (b.kind !== 'number') return 1; // 1.1 > 1-sp, 1.1 > 1-1
      if (a.width !== b.width) return WIDTHS[a.width] < WIDTHS[b.width] ? -1 : 1;
      return sign(a.value, b.value);
    case 'qualifier':
      if (!b) return compareText(comparableQualifier(a.value), RELEASE_INDEX); // 1-rc < 1, 1-ga > 1
      if (b.kind === 'qualifier') return compareText(comparableQualifier(a.value), comparableQualifier(b.value));
      return -1; // 1.any < 1.1, 1.any < 1-1
    case 'list': {
      if (!b) {
        // MNG-6964: the whole list against nothing, not only its first item
        for (const item of a.items) {
          const result = compareItems(item, undefined);
          if (result !== 0) return result;
        }
        return 0;
      }
      if (b.kind === 'number') return -1; // 1-1 < 1.0.x
      if (b.kind === 'qualifier') return 1; // 1-1 > 1-sp
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

/** `ListItem.normalize`: drops null items from the end, looking past sublists (`[1, 0, [alpha]]` → `[1, [alpha]]`). */
function normalise(list: MavenItem[]): void {
  for (let i = list.length - 1; i >= 0; i--) {
    const item = list[i] as MavenItem;
    if (isNull(item)) list.splice(i, 1);
    else if (item.kind !== 'list') break;
  }
}

/** Sublists a parsed version opens at most (`-` separators and letter/digit changes each open one). */
export const MAX_MAVEN_NESTING = 64;

/**
 * Parses a version into Maven's item list, as `ComparableVersion.parseVersion` does (never fails: any string is a Maven
 * version), e.g. `1.0.0-RC1` → `[1, [rc, [1]]]` (see {@link mavenVersionTokens} for that notation). Deeper than
 * {@link MAX_MAVEN_NESTING} sublists, the rest of the items stay in the deepest one (where Maven recurses without
 * limit), so that no version a repository writes overflows the stack.
 */
export function parseMavenVersion(version: string): MavenItem[] {
  const text = version.toLowerCase();
  const root: MavenItem[] = [];
  const stack = [root];
  let list = root;
  const open = () => {
    // Past MAX_MAVEN_NESTING sublists the items stay in the deepest one: comparisons and `isMavenPrerelease` recurse
    // once per level, and a repository's 8 KB `1-a-a-a…` must not overflow the stack (real versions nest a few levels).
    if (stack.length > MAX_MAVEN_NESTING) return;
    const child: MavenItem[] = [];
    list.push({ kind: 'list', items: child });
    list = child;
    stack.push(child);
  };
  let digits = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charAt(i);
    if (c === '.' || c === '-') {
      list.push(i === start ? { kind: 'number', value: 0n, width: 'int' } : parseItem(digits, text.slice(start, i)));
      start = i + 1;
      if (c === '-') open();
    } else if (isDigit(c)) {
      if (!digits && i > start) {
        // 1.0.0.X1 < 1.0.0-X2: a `.X` qualifier is read as `-X` (MNG-7644)
        if (list.length > 0) open();
        list.push(qualifierItem(text.slice(start, i), true));
        start = i;
        open();
      }
      digits = true;
    } else {
      if (digits && i > start) {
        list.push(parseItem(true, text.slice(start, i)));
        start = i;
        open();
      }
      digits = false;
    }
  }
  if (text.length > start) {
    if (!digits && list.length > 0) open(); // a trailing `.X` is read like `-X` too
    list.push(parseItem(digits, text.slice(start)));
  }
  while (stack.length > 0) normalise(stack.pop() as MavenItem[]);
  return root;
}

/** Compares two Maven versions (`ComparableVersion.compareTo`): < 0, 0 or > 0. Any strings are accepted, as by Maven. */
export function compareMavenVersions(a: string, b: string): number {
  return compareItems({ kind: 'list', items: parseMavenVersion(a) }, { kind: 'list', items: parseMavenVersion(b) });
}

const itemText = (item: MavenItem): string =>
  item.kind === 'number' ? item.value.toString() : item.kind === 'qualifier' ? item.value : canonicalText(item.items);

function canonicalText(items: readonly MavenItem[]): string {
  let out = '';
  for (const item of items) {
    if (out.length > 0) out += item.kind === 'list' ? '-' : '.';
    out += itemText(item);
  }
  return out;
}

/**
 * The canonical form maven-artifact prints for a version (`ComparableVersion.getCanonical`: items joined by `.`, a
 * sublist by `-`), e.g. `1.0.0.RC1` → `1-rc-1`, `1.0-alpha.1` → `1-alpha.1`.
 */
export function canonicalMavenVersion(version: string): string {
  return canonicalText(parseMavenVersion(version));
}

function tokensText(items: readonly MavenItem[]): string {
  let out = '[';
  for (const item of items) {
    if (out.length > 1) out += ', ';
    out += item.kind === 'list' ? tokensText(item.items) : itemText(item);
  }
  return `${out}]`;
}

/**
 * The item list as maven-artifact's command line prints it (`ListItem.toListString`, the `tokens:` of
 * `java -jar maven-artifact.jar 1.0.0.RC1`): `[1, [rc, [1]]]`.
 */
export function mavenVersionTokens(version: string): string {
  return tokensText(parseMavenVersion(version));
}

/** Does the version carry a qualifier that sorts before the release (alpha, beta, milestone, rc/cr, snapshot)? */
export function isMavenPrerelease(version: string): boolean {
  const visit = (items: readonly MavenItem[]): boolean =>
    items.some((item) => {
      if (item.kind === 'list') return visit(item.items);
      return item.kind === 'qualifier' && compareText(comparableQualifier(item.value), RELEASE_INDEX) < 0;
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
