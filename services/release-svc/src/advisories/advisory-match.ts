import type { PackageManager } from '@switchyard/contracts';
import type { Ecosystem, VersionScheme } from '@switchyard/ecosystems';
import type { Kysely } from 'kysely';
import type { ReleaseDatabase } from '../db/schema.ts';

/** The OSV ecosystem name of each supported package manager (https://ossf.github.io/osv-schema/#affectedpackage-field). */
export const OSV_ECOSYSTEM: Partial<Record<PackageManager, string>> = {
  npm_and_yarn: 'npm',
  pip: 'PyPI',
  maven: 'Maven',
  bundler: 'RubyGems',
  cargo: 'crates.io',
  composer: 'Packagist',
};

/** One OSV range event. */
export interface OsvEvent {
  introduced?: string;
  fixed?: string;
  last_affected?: string;
  limit?: string;
}
/** One OSV range (`GIT` ranges are ignored: they speak of commits, not versions). */
export interface OsvRange {
  type: string;
  events: OsvEvent[];
}

const eventVersion = (e: OsvEvent) => e.introduced ?? e.fixed ?? e.last_affected ?? e.limit ?? '';

/**
 * Whether `version` is affected according to OSV `ranges` and the explicit `versions` list, evaluated
 * with the ecosystem's version ordering as the OSV schema describes
 * (https://ossf.github.io/osv-schema/#evaluation): walking the events in version order, `introduced`
 * (`0` meaning the first version) opens an affected span, `fixed` closes it at that version,
 * `last_affected` closes it after that version. Ranges with versions the scheme cannot read are skipped.
 */
export function isAffected(version: string, ranges: readonly OsvRange[], versions: readonly string[], scheme: VersionScheme): boolean {
  if (versions.includes(version)) return true;
  for (const range of ranges) {
    if (range.type !== 'SEMVER' && range.type !== 'ECOSYSTEM') continue;
    const events = range.events.filter((e) => e.limit === undefined);
    if (events.some((e) => eventVersion(e) !== '0' && !scheme.isValid(eventVersion(e)))) continue;
    const ordered = [...events].sort((a, b) => {
      const [x, y] = [eventVersion(a), eventVersion(b)];
      if (x === '0') return y === '0' ? 0 : -1;
      if (y === '0') return 1;
      return scheme.compare(x, y);
    });
    let affected = false;
    for (const event of ordered) {
      if (event.introduced !== undefined) {
        if (event.introduced === '0' || scheme.compare(version, event.introduced) >= 0) affected = true;
      } else if (event.fixed !== undefined) {
        if (scheme.compare(version, event.fixed) >= 0) affected = false;
      } else if (event.last_affected !== undefined) {
        if (scheme.compare(version, event.last_affected) > 0) affected = false;
      }
    }
    if (affected) return true;
  }
  return false;
}

/** Whether an update fixes a known vulnerability, and which advisories say so. */
export interface SecurityAssessment {
  fixes: boolean;
  advisories: string[];
}

/**
 * Looks up the advisories of `name` in the ecosystem of `ecosystem` and tells whether updating from `from`
 * to `to` fixes one: an advisory under which `from` is affected and `to` is not.
 */
export async function assessSecurity(
  db: Kysely<ReleaseDatabase>,
  ecosystem: Ecosystem,
  name: string,
  from: string,
  to: string,
): Promise<SecurityAssessment> {
  const osv = OSV_ECOSYSTEM[ecosystem.packageManager];
  if (!osv) return { fixes: false, advisories: [] };
  const rows = await db
    .selectFrom('advisory_affected')
    .select(['advisory_id', 'ranges', 'versions'])
    .where('ecosystem', '=', osv)
    .where('package_name', '=', ecosystem.normaliseName(name))
    .execute();
  const fixed = rows.filter((row) => {
    const ranges = row.ranges as OsvRange[];
    return isAffected(from, ranges, row.versions, ecosystem.versions) && !isAffected(to, ranges, row.versions, ecosystem.versions);
  });
  const advisories = [...new Set(fixed.map((row) => row.advisory_id))].sort();
  return { fixes: advisories.length > 0, advisories };
}
