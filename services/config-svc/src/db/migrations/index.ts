import { outboxMigration, outboxVersionMigration } from '@switchyard/messaging';
import type { Migration } from '@switchyard/service-kit';
import * as createTables from './2026_11_21_0001_create_accounts_repos_update_configs.ts';
import * as addAccountTimeZone from './2026_11_25_0001_add_account_time_zone.ts';
import * as createRegistryCredentials from './2026_11_26_0001_create_registry_credentials.ts';
import * as configFiles from './2026_11_29_0001_config_files.ts';
import * as heldIgnores from './2026_11_29_0002_held_ignores.ts';
import * as appInstallations from './2026_11_29_0003_app_installations.ts';

/** Every migration of the `config` schema by name; names sort in the order they apply. */
export const configMigrations: Record<string, Migration> = {
  '2026_11_21_0001_create_accounts_repos_update_configs': createTables,
  '2026_11_21_0002_create_outbox': outboxMigration('config'),
  '2026_11_23_0001_add_outbox_version': outboxVersionMigration('config'),
  '2026_11_25_0001_add_account_time_zone': addAccountTimeZone,
  '2026_11_26_0001_create_registry_credentials': createRegistryCredentials,
  '2026_11_29_0001_config_files': configFiles,
  '2026_11_29_0002_held_ignores': heldIgnores,
  '2026_11_29_0003_app_installations': appInstallations,
};
