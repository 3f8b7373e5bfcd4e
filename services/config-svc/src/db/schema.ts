import type { OutboxDatabase } from '@switchyard/messaging';
import type { AccountTable } from '../accounts/account.table.ts';
import type { RegistryCredentialTable } from '../registry-credentials/registry-credential.table.ts';
import type { RepoTable } from '../repos/repo.table.ts';
import type { UpdateConfigTable } from '../update-configs/update-config.table.ts';

/** The PostgreSQL schema config-svc owns; no other service reads it. */
export const CONFIG_SCHEMA = 'config';

/**
 * Tables of the `config` schema as Kysely sees them (queries run through `withSchema(CONFIG_SCHEMA)`): the
 * service's own and the transactional outbox (`OutboxDatabase` of `@switchyard/messaging`).
 */
export interface ConfigDatabase extends OutboxDatabase {
  account: AccountTable;
  repo: RepoTable;
  update_config: UpdateConfigTable;
  registry_credential: RegistryCredentialTable;
}
