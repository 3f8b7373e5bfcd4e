import type { PackageManager } from '@switchyard/contracts';
import type { ColumnType } from 'kysely';

type Id = ColumnType<number, number, never>;

/**
 * `release.registry_credential`: read model of config-svc's `registry_credential.*` events; the secret stays sealed
 * (AES-256-GCM under `SECRETS_KEY`) until an update run opens it to ask the registry.
 */
export interface RegistryCredentialTable {
  id: Id;
  account_id: number;
  package_manager: PackageManager;
  base_url: string;
  auth_type: 'token' | 'basic';
  username: string | null;
  sealed_secret: string;
  deleted: boolean;
  revision: number;
}

declare module '../db/schema.ts' {
  interface ReleaseDatabase {
    registry_credential: RegistryCredentialTable;
  }
}
