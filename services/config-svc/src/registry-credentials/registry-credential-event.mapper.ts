import type { RegistryCredentialState } from '@switchyard/contracts';
import type { RegistryCredentialRow } from './registry-credential.table.ts';

/** The full state of a registry credential, as `registry_credential.*` events carry it: its secret only sealed. */
export function registryCredentialState(row: RegistryCredentialRow): RegistryCredentialState {
  return {
    id: row.id,
    accountId: row.account_id,
    packageManager: row.package_manager,
    baseUrl: row.base_url,
    authType: row.auth_type,
    username: row.username,
    sealedSecret: row.sealed_secret,
    revision: row.revision,
  };
}
