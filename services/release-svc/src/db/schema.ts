import type { MessagingTables } from '@switchyard/messaging';
import type { AdvisoryAffectedTable, AdvisoryTable } from '../advisories/advisory.table.ts';
import type { PullRequestJobTable } from '../jobs/job.table.ts';
import type { NotificationTable } from '../notifications/notification.table.ts';
import type { ConfigDependencyTable } from '../pipeline/record/config-dependency.table.ts';
import type { ScanResultTable } from '../pipeline/record/scan-result.table.ts';
import type { AccountTable } from '../read-model/account.table.ts';
import type { RegistryCredentialTable } from '../read-model/registry-credential.table.ts';
import type { RepoTable } from '../read-model/repo.table.ts';
import type { UpdateConfigTable } from '../read-model/update-config.table.ts';
import type { WatchedPackageTable } from '../registry-watch/watched-package.table.ts';
import type { UpdateRunDependencyTable, UpdateRunTable } from '../runs/update-run.table.ts';
import type { WebhookDeliveryTable } from '../webhooks/webhook-delivery.table.ts';

/** The PostgreSQL schema release-svc owns; no other service reads it. */
export const RELEASE_SCHEMA = 'release';

/**
 * The `release` schema: release-svc's tables, each typed beside the repository that owns it, and the outbox and
 * processed-message tables of `@switchyard/messaging`.
 */
export interface ReleaseDatabase extends MessagingTables {
  account: AccountTable;
  repo: RepoTable;
  update_config: UpdateConfigTable;
  notification: NotificationTable;
  scan_result: ScanResultTable;
  pull_request_job: PullRequestJobTable;
  advisory: AdvisoryTable;
  advisory_affected: AdvisoryAffectedTable;
  update_run: UpdateRunTable;
  update_run_dependency: UpdateRunDependencyTable;
  config_dependency: ConfigDependencyTable;
  watched_package: WatchedPackageTable;
  registry_credential: RegistryCredentialTable;
  webhook_delivery: WebhookDeliveryTable;
}
