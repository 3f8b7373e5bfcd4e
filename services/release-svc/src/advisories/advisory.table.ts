import type { ColumnType } from 'kysely';
import type { OsvRange } from './advisory-match.policy.ts';

/** `release.advisory`: a security advisory imported from an OSV file. */
export interface AdvisoryTable {
  id: string;
  summary: string | null;
  modified: Date;
  aliases: string[];
}

/** `release.advisory_affected`: one affected package of an advisory, with its OSV ranges and versions. */
export interface AdvisoryAffectedTable {
  advisory_id: string;
  /** The OSV ecosystem, e.g. `npm`, `PyPI`, `Maven`, `RubyGems`, `crates.io`, `Packagist`. */
  ecosystem: string;
  /** The package name normalised as the ecosystem compares names. */
  package_name: string;
  /** OSV `ranges` (ECOSYSTEM and SEMVER types with introduced/fixed/last_affected events). */
  ranges: ColumnType<OsvRange[], string, string>;
  /** OSV `versions`: versions affected, listed one by one. */
  versions: string[];
}

declare module '../db/schema.ts' {
  interface ReleaseDatabase {
    advisory: AdvisoryTable;
    advisory_affected: AdvisoryAffectedTable;
  }
}
