import type { AdvisoryEcosystem } from '@switchyard/contracts';
import type { ParsedSeed } from './seed.ts';

/** A global security advisory of the seed. */
export type EmulatedAdvisory = ParsedSeed['advisories'][number];

/**
 * Compares two versions part by part, as most ecosystems order them closely enough for the emulator: split on `.`,
 * `-`, `+` and `_`; numeric parts compare as numbers, others as text; a numeric part ranks above a text part (so
 * `1.11.0` > `1.11.0.rc4`), and a missing part ranks below a text part and equal to `0`.
 * @returns negative when `a` < `b`, 0 when equal, positive when `a` > `b`
 */
export function compareVersions(a: string, b: string): number {
  const split = (v: string) => v.replace(/^v/i, '').split(/[.\-+_]/);
  const pa = split(a);
  const pb = split(b);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i];
    const y = pb[i];
    if (x === y) continue;
    const nx = x !== undefined && /^\d+$/.test(x);
    const ny = y !== undefined && /^\d+$/.test(y);
    if (nx && ny) {
      const diff = Number(x) - Number(y);
      if (diff !== 0) return diff;
      continue;
    }
    if (x === undefined) return ny && Number(y) === 0 ? 0 : ny ? -1 : 1;
    if (y === undefined) return nx && Number(x) === 0 ? 0 : nx ? 1 : -1;
    if (nx !== ny) return nx ? 1 : -1;
    return x < y ? -1 : 1;
  }
  return 0;
}

/**
 * Whether `version` lies in GitHub's `vulnerable_version_range` (`>= 4.0.0, < 4.17.21`: every comparator must hold).
 */
export function inVersionRange(version: string, range: string): boolean {
  return range.split(',').every((part) => {
    const match = /^\s*(<=|>=|<|>|=)\s*(\S+)\s*$/.exec(part);
    if (!match) return false;
    const order = compareVersions(version, match[2] as string);
    switch (match[1]) {
      case '<':
        return order < 0;
      case '<=':
        return order <= 0;
      case '>':
        return order > 0;
      case '>=':
        return order >= 0;
      default:
        return order === 0;
    }
  });
}

/** One entry of `affects`: a package name, optionally with a version (`lodash`, `lodash@4.17.15`, `@babel/core@7.0.0`). */
export interface AffectedPackage {
  name: string;
  version: string | undefined;
}

/** Reads `affects` (a comma-separated list of `name` or `name@version`; blank entries dropped). */
export function parseAffects(text: string): AffectedPackage[] {
  return text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry) => {
      const at = entry.lastIndexOf('@');
      return at > 0 ? { name: entry.slice(0, at), version: entry.slice(at + 1) || undefined } : { name: entry, version: undefined };
    });
}

/** The filters of `GET /advisories` the emulator applies. */
export interface AdvisoryFilter {
  type: EmulatedAdvisory['type'];
  ecosystem?: AdvisoryEcosystem | undefined;
  affects?: AffectedPackage[] | undefined;
  severity?: EmulatedAdvisory['severity'] | undefined;
  ghsaId?: string | undefined;
  cveId?: string | undefined;
  isWithdrawn?: boolean | undefined;
}

/**
 * The advisories matching `filter`, newest `published_at` first (GitHub's default sort), ties by GHSA id. With both
 * `ecosystem` and `affects`, one affected package must match both; a package name matches case-insensitively, and
 * with a version only when the version is in that package's vulnerable range.
 */
export function selectAdvisories(advisories: readonly EmulatedAdvisory[], filter: AdvisoryFilter): EmulatedAdvisory[] {
  const lower = (s: string) => s.toLowerCase();
  return advisories
    .filter((a) => a.type === filter.type)
    .filter((a) => filter.severity === undefined || a.severity === filter.severity)
    .filter((a) => filter.ghsaId === undefined || a.ghsaId === filter.ghsaId)
    .filter((a) => filter.cveId === undefined || a.cveId === filter.cveId)
    .filter((a) => filter.isWithdrawn === undefined || (a.withdrawnAt !== null) === filter.isWithdrawn)
    .filter((a) =>
      a.vulnerabilities.some(
        (v) =>
          (filter.ecosystem === undefined || v.ecosystem === filter.ecosystem) &&
          (filter.affects === undefined ||
            filter.affects.some(
              (p) => lower(p.name) === lower(v.package) && (p.version === undefined || inVersionRange(p.version, v.vulnerableVersionRange)),
            )),
      ),
    )
    .sort((a, b) => Date.parse(b.publishedAt) - Date.parse(a.publishedAt) || (a.ghsaId < b.ghsaId ? -1 : 1));
}

/** An opaque cursor naming an advisory (base64url of its GHSA id), as `after` / `before` carry it. */
export const cursorOf = (advisory: EmulatedAdvisory): string => Buffer.from(`advisory:${advisory.ghsaId}`).toString('base64url');

/** The GHSA id a cursor names, or undefined when it is not one of {@link cursorOf}'s. */
export function ghsaIdOfCursor(cursor: string): string | undefined {
  const text = /^[A-Za-z0-9_-]{1,200}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  return text.startsWith('advisory:') ? text.slice('advisory:'.length) : undefined;
}

/** One page of a cursor-paginated list: its items, and cursors for the pages before and after it (undefined at the ends). */
export interface CursorPage<T> {
  items: T[];
  before: string | undefined;
  after: string | undefined;
}

/**
 * The page of `items` after the item `after` names (or before the one `before` names; from the start when neither),
 * `perPage` long, as GitHub's cursor pagination pages it
 * (https://docs.github.com/rest/using-the-rest-api/using-pagination-in-the-rest-api).
 * @returns undefined when a cursor names no item of `items`
 */
export function cursorPage(
  items: readonly EmulatedAdvisory[],
  cursors: { after?: string | undefined; before?: string | undefined },
  perPage: number,
): CursorPage<EmulatedAdvisory> | undefined {
  const indexOf = (cursor: string) => {
    const ghsaId = ghsaIdOfCursor(cursor);
    const index = items.findIndex((a) => a.ghsaId === ghsaId);
    return index === -1 ? undefined : index;
  };
  let start = 0;
  let end = Math.min(perPage, items.length);
  if (cursors.after !== undefined) {
    const index = indexOf(cursors.after);
    if (index === undefined) return undefined;
    start = index + 1;
    end = Math.min(start + perPage, items.length);
  } else if (cursors.before !== undefined) {
    const index = indexOf(cursors.before);
    if (index === undefined) return undefined;
    end = index;
    start = Math.max(0, end - perPage);
  }
  const page = items.slice(start, end);
  const first = page[0];
  const last = page[page.length - 1];
  return {
    items: page,
    before: start > 0 && first ? cursorOf(first) : undefined,
    after: end < items.length && last ? cursorOf(last) : undefined,
  };
}
