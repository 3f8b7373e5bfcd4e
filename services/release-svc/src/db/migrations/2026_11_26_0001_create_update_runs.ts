import type { Kysely } from 'kysely';
import { sql } from 'kysely';

// Frozen in time: this file never imports application code.

/**
 * Update runs: the read model learns what schedules need (the config's `update_schedule`, when it was first seen and
 * its next slot; the account's run time, day, time zone and initial-run limit); `update_run` and its
 * `update_run_dependency` rows record each run; `config_dependency` lists what each config's last run found (the
 * packages the registry watch polls for `live` configs); `watched_package` what the watch saw last; jobs may come from
 * a run rather than a notification, and may be `unverified`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema.withSchema('release');
  await s
    .alterTable('account')
    .addColumn('update_run_time', 'text', (c) => c.notNull().defaultTo('05:00'))
    .addColumn('weekly_update_run_day', 'text', (c) => c.notNull().defaultTo('monday'))
    .addColumn('time_zone', 'text', (c) => c.notNull().defaultTo('UTC'))
    .addColumn('limit_initial_update_runs', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await s
    .alterTable('update_config')
    .addColumn('update_schedule', 'text', (c) => c.notNull().defaultTo('daily'))
    .addColumn('first_seen_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('next_run_at', 'timestamptz')
    .execute();
  await sql`create index update_config_next_run_idx on release.update_config (next_run_at) where not deleted and next_run_at is not null`.execute(
    db,
  );
  await s
    .createTable('update_run')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('update_config_id', 'integer', (c) => c.notNull())
    .addColumn('repo_id', 'bigint', (c) => c.notNull())
    .addColumn('account_id', 'bigint', (c) => c.notNull())
    .addColumn('trigger', 'text', (c) => c.notNull())
    .addColumn('trigger_key', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('queued'))
    .addColumn('slot', 'timestamptz')
    .addColumn('notification_id', 'uuid')
    .addColumn('requested_by', 'bigint')
    .addColumn('job_limit', 'integer')
    .addColumn('dependencies_total', 'integer')
    .addColumn('dependencies_checked', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('jobs_recorded', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .addColumn('error_kind', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('started_at', 'timestamptz')
    .addColumn('finished_at', 'timestamptz')
    .addUniqueConstraint('update_run_once_key', ['update_config_id', 'trigger_key'])
    .execute();
  await s.createIndex('update_run_config_idx').on('update_run').columns(['update_config_id', 'created_at']).execute();
  await s.createIndex('update_run_created_idx').on('update_run').column('created_at').execute();
  await s
    .createTable('update_run_dependency')
    .addColumn('run_id', 'uuid', (c) => c.notNull().references('update_run.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('dependency_type', 'text', (c) => c.notNull())
    .addColumn('requirement', 'text')
    .addColumn('version_in_use', 'text')
    .addColumn('latest_version', 'text')
    .addColumn('latest_allowed_version', 'text')
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('error_kind', 'text')
    .addColumn('registry', 'text')
    .addColumn('job_id', 'integer')
    .addPrimaryKeyConstraint('update_run_dependency_pkey', ['run_id', 'name'])
    .execute();
  await s
    .createTable('config_dependency')
    .addColumn('update_config_id', 'integer', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('config_dependency_pkey', ['update_config_id', 'name'])
    .execute();
  await s.createIndex('config_dependency_name_idx').on('config_dependency').column('name').execute();
  await s
    .createTable('watched_package')
    .addColumn('account_id', 'bigint', (c) => c.notNull())
    .addColumn('package_manager', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('latest_version', 'text')
    .addColumn('checked_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('watched_package_pkey', ['account_id', 'package_manager', 'name'])
    .execute();
  await s
    .createTable('registry_credential')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('account_id', 'bigint', (c) => c.notNull())
    .addColumn('package_manager', 'text', (c) => c.notNull())
    .addColumn('base_url', 'text', (c) => c.notNull())
    .addColumn('auth_type', 'text', (c) => c.notNull())
    .addColumn('username', 'text')
    .addColumn('sealed_secret', 'text', (c) => c.notNull())
    .addColumn('deleted', 'boolean', (c) => c.notNull())
    .addColumn('revision', 'integer', (c) => c.notNull())
    .execute();
  await s.createIndex('registry_credential_account_idx').on('registry_credential').columns(['account_id', 'package_manager']).execute();
  await s
    .alterTable('pull_request_job')
    .alterColumn('notification_id', (c) => c.dropNotNull())
    .execute();
  await s
    .alterTable('pull_request_job')
    .addColumn('update_run_id', 'uuid')
    .addColumn('unverified', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await s.createIndex('pull_request_job_run_idx').on('pull_request_job').column('update_run_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const s = db.schema.withSchema('release');
  await s.dropIndex('release.pull_request_job_run_idx').execute();
  await s.alterTable('pull_request_job').dropColumn('update_run_id').dropColumn('unverified').execute();
  for (const table of ['registry_credential', 'watched_package', 'config_dependency', 'update_run_dependency', 'update_run'])
    await s.dropTable(table).execute();
  await sql`drop index release.update_config_next_run_idx`.execute(db);
  await s.alterTable('update_config').dropColumn('update_schedule').dropColumn('first_seen_at').dropColumn('next_run_at').execute();
  await s
    .alterTable('account')
    .dropColumn('update_run_time')
    .dropColumn('weekly_update_run_day')
    .dropColumn('time_zone')
    .dropColumn('limit_initial_update_runs')
    .execute();
}
