import { OSV_ECOSYSTEMS, type PackageManager } from '@switchyard/contracts';
import { ecosystemFor } from '@switchyard/ecosystems';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { ReleaseDatabase } from '../db/schema.ts';
import { replaceAdvisory } from './advisory.repository.ts';

/** The part of an OSV record (https://ossf.github.io/osv-schema/) the service uses; other fields are ignored. */
export const OsvRecord = z.object({
  id: z.string().min(1).max(200),
  modified: z.iso.datetime({ offset: true }),
  summary: z.string().optional(),
  aliases: z.array(z.string()).optional(),
  withdrawn: z.iso.datetime({ offset: true }).optional(),
  affected: z
    .array(
      z.object({
        package: z.object({ ecosystem: z.string(), name: z.string() }),
        ranges: z
          .array(
            z.object({
              type: z.string(),
              events: z.array(
                z.object({
                  introduced: z.string().optional(),
                  fixed: z.string().optional(),
                  last_affected: z.string().optional(),
                  limit: z.string().optional(),
                }),
              ),
            }),
          )
          .optional(),
        versions: z.array(z.string()).optional(),
      }),
    )
    .default([]),
});
export type OsvRecord = z.infer<typeof OsvRecord>;

const managerOf = new Map<string, PackageManager>(Object.entries(OSV_ECOSYSTEMS).map(([manager, osv]) => [osv, manager as PackageManager]));

/**
 * Stores OSV advisories (a record, or an array of them, as parsed JSON): each replaces any earlier copy
 * with the same id; withdrawn ones are removed. Package names are normalised the way their ecosystem
 * compares them; affected packages of ecosystems the service does not scan are kept as given.
 * @returns how many advisories were stored and removed
 * @throws ZodError naming what is wrong with a record
 */
export async function importOsv(db: Kysely<ReleaseDatabase>, input: unknown): Promise<{ stored: number; withdrawn: number }> {
  const records = z.array(OsvRecord).parse(Array.isArray(input) ? input : [input]);
  let stored = 0;
  let withdrawn = 0;
  await db.transaction().execute(async (trx) => {
    for (const record of records) {
      if (record.withdrawn) {
        await replaceAdvisory(trx, record.id, undefined);
        withdrawn += 1;
        continue;
      }
      const affected = record.affected.map((a) => {
        const manager = managerOf.get(a.package.ecosystem);
        const ecosystem = manager ? ecosystemFor(manager) : undefined;
        return {
          ecosystem: a.package.ecosystem,
          packageName: ecosystem ? ecosystem.normaliseName(a.package.name) : a.package.name,
          ranges: a.ranges ?? [],
          versions: a.versions ?? [],
        };
      });
      await replaceAdvisory(trx, record.id, {
        summary: record.summary ?? null,
        modified: new Date(record.modified),
        aliases: record.aliases ?? [],
        affected,
      });
      stored += 1;
    }
  });
  return { stored, withdrawn };
}
