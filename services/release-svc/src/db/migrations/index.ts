import { outboxMigration, outboxVersionMigration, processedMessageMigration } from '@switchyard/messaging';
import type { Migration } from '@switchyard/service-kit';
import * as createTables from './2026_11_21_0001_create_release_tables.ts';
import * as addNotificationRejection from './2026_11_23_0002_add_notification_rejection.ts';
import * as indexQueuedNotifications from './2026_11_25_0001_index_queued_notifications.ts';
import * as createUpdateRuns from './2026_11_26_0001_create_update_runs.ts';
import * as trackPullRequests from './2026_11_26_0002_track_pull_requests.ts';
import * as pullRequestSettings from './2026_11_26_0003_pull_request_settings.ts';
import * as maintainPullRequests from './2026_11_26_0004_maintain_pull_requests.ts';
import * as pullRequestIdentity from './2026_11_29_0001_pull_request_identity.ts';
import * as waitForPullRequest from './2026_11_29_0002_wait_for_pull_request.ts';
import * as skippedDeclarations from './2026_11_29_0003_skipped_declarations.ts';
import * as repoPrivate from './2026_11_29_0004_repo_private.ts';
import * as configFiles from './2026_11_29_0005_config_files.ts';
import * as repoUpgrades from './2026_11_29_0006_repo_upgrades.ts';
import * as configIgnoreVersions from './2026_11_29_0007_config_ignore_versions.ts';
import * as configFileReads from './2026_11_29_0008_config_file_reads.ts';
import * as groupedUpdates from './2026_11_29_0009_grouped_updates.ts';
import * as earlyCommands from './2026_11_29_0010_early_commands.ts';
import * as appInstallations from './2026_11_29_0011_app_installations.ts';
import * as writeBudget from './2026_11_29_0012_write_budget.ts';
import * as botAccount from './2026_11_29_0013_bot_account.ts';
import * as repoLabels from './2026_11_29_0014_repo_labels.ts';
import * as mergeClaim from './2026_11_29_0015_merge_claim.ts';

/** Every migration of the `release` schema by name; names sort in the order they apply. */
export const releaseMigrations: Record<string, Migration> = {
  '2026_11_21_0001_create_release_tables': createTables,
  '2026_11_21_0002_create_outbox': outboxMigration('release'),
  '2026_11_21_0003_create_processed_message': processedMessageMigration('release'),
  '2026_11_23_0001_add_outbox_version': outboxVersionMigration('release'),
  '2026_11_23_0002_add_notification_rejection': addNotificationRejection,
  '2026_11_25_0001_index_queued_notifications': indexQueuedNotifications,
  '2026_11_26_0001_create_update_runs': createUpdateRuns,
  '2026_11_26_0002_track_pull_requests': trackPullRequests,
  '2026_11_26_0003_pull_request_settings': pullRequestSettings,
  '2026_11_26_0004_maintain_pull_requests': maintainPullRequests,
  '2026_11_29_0001_pull_request_identity': pullRequestIdentity,
  '2026_11_29_0002_wait_for_pull_request': waitForPullRequest,
  '2026_11_29_0003_skipped_declarations': skippedDeclarations,
  '2026_11_29_0004_repo_private': repoPrivate,
  '2026_11_29_0005_config_files': configFiles,
  '2026_11_29_0006_repo_upgrades': repoUpgrades,
  '2026_11_29_0007_config_ignore_versions': configIgnoreVersions,
  '2026_11_29_0008_config_file_reads': configFileReads,
  '2026_11_29_0009_grouped_updates': groupedUpdates,
  '2026_11_29_0010_early_commands': earlyCommands,
  '2026_11_29_0011_app_installations': appInstallations,
  '2026_11_29_0012_write_budget': writeBudget,
  '2026_11_29_0013_bot_account': botAccount,
  '2026_11_29_0014_repo_labels': repoLabels,
  '2026_11_29_0015_merge_claim': mergeClaim,
};
