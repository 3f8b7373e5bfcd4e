import type { RegistryCredentialResource } from '@switchyard/contracts';
import type { RegistryCredentialRow } from '../registry-credentials/registry-credential.table.ts';

/**
 * A `registry-credentials` resource (this service's extension of https://github.com/dependabot/api-docs): string id,
 * dasherized attributes, RFC 3339 timestamps, its account as a relationship. The secret (`token`, `password`) is
 * write-only: neither it nor its sealed form is ever part of the resource.
 */
export function registryCredentialResource(row: RegistryCredentialRow): RegistryCredentialResource {
  return {
    id: String(row.id),
    type: 'registry-credentials',
    attributes: {
      'package-manager': row.package_manager,
      'base-url': row.base_url,
      'auth-type': row.auth_type,
      username: row.username,
      'created-at': row.created_at.toISOString(),
      'updated-at': row.updated_at.toISOString(),
    },
    relationships: { account: { data: { id: String(row.account_id), type: 'accounts' } } },
  };
}
