import type { Ecosystem } from '@switchyard/ecosystems';
import type { Kysely } from 'kysely';
import type { ReleaseDatabase } from '../db/schema.ts';
import { type AffectedPackage, OSV_ECOSYSTEM } from './advisory-match.ts';

/**
 * The stored affected entries of advisories about package `name` of `ecosystem` (the name normalised as the
 * ecosystem compares names); none for an ecosystem OSV does not name.
 */
export async function findAffectedPackages(db: Kysely<ReleaseDatabase>, ecosystem: Ecosystem, name: string): Promise<AffectedPackage[]> {
  const osv = OSV_ECOSYSTEM[ecosystem.packageManager];
  if (!osv) return [];
  const rows = await db
    .selectFrom('advisory_affected')
    .select(['advisory_id', 'ranges', 'versions'])
    .where('ecosystem', '=', osv)
    .where('package_name', '=', ecosystem.normaliseName(name))
    .execute();
  return rows.map((row) => ({ advisoryId: row.advisory_id, ranges: row.ranges, versions: row.versions }));
}
