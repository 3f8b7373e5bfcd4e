import { type Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema.withSchema('release');
  await s
    .createTable('account')
    .addColumn('id', 'bigint', (c) => c.primaryKey())
    .addColumn('login', 'text', (c) => c.notNull())
    .addColumn('account_type', 'text', (c) => c.notNull())
    .addColumn('revision', 'integer', (c) => c.notNull())
    .execute();
  await s
    .createTable('repo')
    .addColumn('id', 'bigint', (c) => c.primaryKey())
    .addColumn('account_id', 'bigint', (c) => c.notNull())
    .addColumn('full_name', 'text', (c) => c.notNull())
    .addColumn('default_branch', 'text', (c) => c.notNull())
    .addColumn('archived', 'boolean', (c) => c.notNull())
    .addColumn('revision', 'integer', (c) => c.notNull())
    .execute();
  await s
    .createTable('update_config')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('repo_id', 'bigint', (c) => c.notNull())
    .addColumn('account_id', 'bigint', (c) => c.notNull())
    .addColumn('package_manager', 'text', (c) => c.notNull())
    .addColumn('directory', 'text', (c) => c.notNull())
    .addColumn('target_branch', 'text')
    .addColumn('automerge_rule_runtime_deps', 'text', (c) => c.notNull())
    .addColumn('automerge_rule_development_deps', 'text', (c) => c.notNull())
    .addColumn('lockfile_only', 'boolean', (c) => c.notNull())
    .addColumn('security_updates_only', 'boolean', (c) => c.notNull())
    .addColumn('deleted', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('revision', 'integer', (c) => c.notNull())
    .execute();
  await s
    .createIndex('update_config_scan_idx')
    .on('update_config')
    .columns(['package_manager', 'account_id'])
    .where(sql.ref('deleted'), '=', false)
    .execute();
  await s
    .createTable('notification')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('version', 'text', (c) => c.notNull())
    .addColumn('package_manager', 'text', (c) => c.notNull())
    .addColumn('account_ids', sql`bigint[]`, (c) => c.notNull())
    .addColumn('notifier_id', 'bigint', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('queued'))
    .addColumn('configs_total', 'integer')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('started_at', 'timestamptz')
    .addColumn('finished_at', 'timestamptz')
    .execute();
  await s
    .createTable('scan_result')
    .addColumn('notification_id', 'uuid', (c) => c.notNull().references('notification.id'))
    .addColumn('update_config_id', 'integer', (c) => c.notNull())
    .addColumn('repo_id', 'bigint', (c) => c.notNull())
    .addColumn('account_id', 'bigint', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('recorded_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('scan_result_pkey', ['notification_id', 'update_config_id'])
    .execute();
  await s
    .createTable('pull_request_job')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('notification_id', 'uuid', (c) => c.notNull())
    .addColumn('update_config_id', 'integer', (c) => c.notNull())
    .addColumn('repo_id', 'bigint', (c) => c.notNull())
    .addColumn('account_id', 'bigint', (c) => c.notNull())
    .addColumn('package_manager', 'text', (c) => c.notNull())
    .addColumn('dependency_name', 'text', (c) => c.notNull())
    .addColumn('dependency_type', 'text', (c) => c.notNull())
    .addColumn('version_in_use', 'text', (c) => c.notNull())
    .addColumn('target_version', 'text', (c) => c.notNull())
    .addColumn('update_kind', 'text', (c) => c.notNull())
    .addColumn('automerge', 'boolean', (c) => c.notNull())
    .addColumn('security_fix', 'boolean', (c) => c.notNull())
    .addColumn('target_branch', 'text', (c) => c.notNull())
    .addColumn('directory', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('pull_request_job_once_key', ['update_config_id', 'dependency_name', 'target_version'])
    .execute();
  await s.createIndex('pull_request_job_account_idx').on('pull_request_job').columns(['account_id', 'id']).execute();
  await s.createIndex('pull_request_job_notification_idx').on('pull_request_job').column('notification_id').execute();
  await s
    .createTable('advisory')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('summary', 'text')
    .addColumn('modified', 'timestamptz', (c) => c.notNull())
    .addColumn('aliases', sql`text[]`, (c) => c.notNull())
    .execute();
  await s
    .createTable('advisory_affected')
    .addColumn('advisory_id', 'text', (c) => c.notNull().references('advisory.id').onDelete('cascade'))
    .addColumn('ecosystem', 'text', (c) => c.notNull())
    .addColumn('package_name', 'text', (c) => c.notNull())
    .addColumn('ranges', 'jsonb', (c) => c.notNull())
    .addColumn('versions', sql`text[]`, (c) => c.notNull())
    .execute();
  await s.createIndex('advisory_affected_package_idx').on('advisory_affected').columns(['ecosystem', 'package_name']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const s = db.schema.withSchema('release');
  for (const table of [
    'advisory_affected',
    'advisory',
    'pull_request_job',
    'scan_result',
    'notification',
    'update_config',
    'repo',
    'account',
  ]) {
    await s.dropTable(table).execute();
  }
}
