import type { PackageManager } from '@switchyard/contracts';
import type { Generated } from 'kysely';

/** `release.watched_package`: the newest version the registry watch saw of a package, for an account (its registries). */
export interface WatchedPackageTable {
  account_id: number;
  package_manager: PackageManager;
  name: string;
  latest_version: string | null;
  checked_at: Generated<Date>;
}

declare module '../db/schema.ts' {
  interface ReleaseDatabase {
    watched_package: WatchedPackageTable;
  }
}
