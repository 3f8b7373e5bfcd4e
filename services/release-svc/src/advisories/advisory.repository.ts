import { OSV_ECOSYSTEMS } from '@switchyard/contracts';
import type { Ecosystem } from '@switchyard/ecosystems';
import type { Kysely } from 'kysely';
import type { ReleaseDatabase } from '../db/schema.ts';
import type {} from './advisory.table.ts';
import type { AffectedPackage, OsvRange } from './advisory-match.policy.ts';

/**
 * The stored affected entries of advisories about package `name` of `ecosystem` (the name normalised as the
 * ecosystem compares names); none for an ecosystem OSV does not name.
 */
export async function findAffectedPackages(db: Kysely<ReleaseDatabase>, ecosystem: Ecosystem, name: string): Promise<AffectedPackage[]> {
  const osv: string | undefined = OSV_ECOSYSTEMS[ecosystem.packageManager as keyof typeof OSV_ECOSYSTEMS];
  if (!osv) return [];
  const rows = await db
    .selectFrom('advisory_affected')
    .select(['advisory_id', 'ranges', 'versions'])
    .where('ecosystem', '=', osv)
    .where('package_name', '=', ecosystem.normaliseName(name))
    .execute();
  return rows.map((row) => ({ advisoryId: row.advisory_id, ranges: row.ranges, versions: row.versions }));
}

/** One affected package of an advisory, as stored: the OSV ecosystem, the name as its ecosystem compares names, ranges, versions. */
export interface StoredAffectedPackage {
  ecosystem: string;
  packageName: string;
  ranges: readonly OsvRange[];
  versions: readonly string[];
}

/**
 * Replaces the stored copy of advisory `id` (if any) by this one and its affected packages, in the caller's
 * transaction; `advisory` undefined only deletes it (a withdrawn advisory).
 */
export async function replaceAdvisory(
  trx: Kysely<ReleaseDatabase>,
  id: string,
  advisory: { summary: string | null; modified: Date; aliases: readonly string[]; affected: readonly StoredAffectedPackage[] } | undefined,
): Promise<void> {
  await trx.deleteFrom('advisory').where('id', '=', id).execute();
  if (!advisory) return;
  await trx
    .insertInto('advisory')
    .values({ id, summary: advisory.summary, modified: advisory.modified, aliases: [...advisory.aliases] })
    .execute();
  if (advisory.affected.length === 0) return;
  await trx
    .insertInto('advisory_affected')
    .values(
      advisory.affected.map((a) => ({
        advisory_id: id,
        ecosystem: a.ecosystem,
        package_name: a.packageName,
        ranges: JSON.stringify(a.ranges),
        versions: [...a.versions],
      })),
    )
    .execute();
}
