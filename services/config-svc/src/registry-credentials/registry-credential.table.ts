import type { RegistryAuthType, RegistryCredentialPackageManager } from '@switchyard/contracts';
import type { Generated, Selectable } from 'kysely';

/**
 * `config.registry_credential`: an account's private registry for one package manager (unique per account and package
 * manager). The secret (the token, or the basic password) is stored only sealed (`sealSecret` of
 * `@switchyard/service-kit`, associated data `registryCredentialAad(account_id, package_manager)`); `username` is set
 * for `basic` and null for `token`.
 */
export interface RegistryCredentialTable {
  id: Generated<number>;
  account_id: number;
  package_manager: RegistryCredentialPackageManager;
  base_url: string;
  auth_type: RegistryAuthType;
  username: string | null;
  sealed_secret: string;
  revision: Generated<number>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

declare module '../db/schema.ts' {
  interface ConfigDatabase {
    registry_credential: RegistryCredentialTable;
  }
}
export type RegistryCredentialRow = Selectable<RegistryCredentialTable>;
