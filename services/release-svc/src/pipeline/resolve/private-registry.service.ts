import { type PackageManager, REGISTRY_CREDENTIAL_PACKAGE_MANAGERS, registryCredentialAad } from '@switchyard/contracts';
import { RegistryError } from '@switchyard/registries';
import { openSecret, SecretOpenError, type SecretsKey } from '@switchyard/service-kit';
import type { Kysely } from 'kysely';
import type { ReleaseDatabase } from '../../db/schema.ts';
import { findRegistryCredential } from '../../read-model/read-model.repository.ts';
import type { PrivateRegistry, PrivateRegistryLookup } from './registry-access.client.ts';

/**
 * The private registries of accounts, from the read model of config-svc's registry credentials: the newest credential
 * of the account and package manager that is not deleted, its secret opened with `key` (the `SECRETS_KEY` config-svc
 * sealed it with, bound to the account and package manager).
 * @returns a lookup for `RegistryAccess`; it throws `RegistryError` (`auth_failed`) when the account has a credential
 * but `key` is unset or does not open it, so the dependency reports why instead of asking the public registry
 */
export function privateRegistries(db: Kysely<ReleaseDatabase>, key: SecretsKey | undefined): PrivateRegistryLookup {
  return async (accountId, packageManager): Promise<PrivateRegistry | undefined> => {
    const managers: readonly PackageManager[] = REGISTRY_CREDENTIAL_PACKAGE_MANAGERS;
    if (!managers.includes(packageManager)) return undefined;
    const row = await findRegistryCredential(db, accountId, packageManager);
    if (!row) return undefined;
    if (!key) {
      throw new RegistryError(
        'auth_failed',
        row.base_url,
        'the account has registry credentials, but this worker has no SECRETS_KEY to open them',
      );
    }
    let secret: string;
    try {
      secret = openSecret(
        key,
        row.sealed_secret,
        registryCredentialAad(accountId, row.package_manager as (typeof REGISTRY_CREDENTIAL_PACKAGE_MANAGERS)[number]),
      );
    } catch (error) {
      if (!(error instanceof SecretOpenError)) throw error;
      throw new RegistryError(
        'auth_failed',
        row.base_url,
        `the account's registry credentials do not open with this SECRETS_KEY: ${error.message}`,
      );
    }
    return {
      baseUrl: row.base_url,
      credentials: row.auth_type === 'basic' ? { username: row.username ?? '', password: secret } : { token: secret },
      fingerprint: `${row.id}:${row.revision}`,
    };
  };
}
