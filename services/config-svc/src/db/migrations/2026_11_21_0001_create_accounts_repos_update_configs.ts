import { type Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

export async function up(db: Kysely<unknown>): Promise<void> {
  const schema = db.schema.withSchema('config');
  await schema
    .createTable('account')
    .addColumn('id', 'bigint', (col) => col.primaryKey())
    .addColumn('login', 'text', (col) => col.notNull())
    .addColumn('account_type', 'text', (col) => col.notNull().check(sql`account_type in ('user', 'org')`))
    .addColumn('access_granted_to_all_repos', 'boolean', (col) => col.notNull().defaultTo(true))
    .addColumn('current_installation_id', 'integer', (col) => col.notNull().generatedByDefaultAsIdentity())
    .addColumn('plan_name', 'text', (col) => col.notNull().defaultTo('free'))
    .addColumn('plan_number', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('free_trial_end_date', 'date')
    .addColumn('automatically_rebase_prs', 'boolean', (col) => col.notNull().defaultTo(true))
    .addColumn('update_run_time', 'text', (col) => col.notNull().defaultTo('05:00'))
    .addColumn('create_merge_commits', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('weekly_update_run_day', 'text', (col) => col.notNull().defaultTo('monday'))
    .addColumn('limit_initial_update_runs', 'boolean', (col) => col.notNull().defaultTo(true))
    .addColumn('limit_open_pull_requests', 'boolean', (col) => col.notNull().defaultTo(true))
    .addColumn('revision', 'integer', (col) => col.notNull().defaultTo(1))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await schema
    .createTable('repo')
    .addColumn('id', 'bigint', (col) => col.primaryKey())
    .addColumn('account_id', 'bigint', (col) => col.notNull().references('account.id'))
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('full_name', 'text', (col) => col.notNull())
    .addColumn('private', 'boolean', (col) => col.notNull())
    .addColumn('fork', 'boolean', (col) => col.notNull())
    .addColumn('archived', 'boolean', (col) => col.notNull())
    .addColumn('html_url', 'text', (col) => col.notNull())
    .addColumn('language', 'text')
    .addColumn('default_branch', 'text', (col) => col.notNull())
    .addColumn('using_config_file', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('revision', 'integer', (col) => col.notNull().defaultTo(1))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await schema.createIndex('repo_account_idx').on('repo').column('account_id').execute();
  await schema
    .createTable('update_config')
    .addColumn('id', 'integer', (col) => col.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('repo_id', 'bigint', (col) => col.notNull().references('repo.id'))
    .addColumn('package_manager', 'text', (col) => col.notNull())
    .addColumn('language', 'text', (col) => col.notNull())
    .addColumn('update_schedule', 'text', (col) => col.notNull())
    .addColumn('directory', 'text', (col) => col.notNull())
    .addColumn('target_branch', 'text')
    .addColumn('automerge_rule_runtime_deps', 'text', (col) => col.notNull())
    .addColumn('automerge_rule_development_deps', 'text', (col) => col.notNull())
    .addColumn('lockfile_only', 'boolean', (col) => col.notNull())
    .addColumn('security_updates_only', 'boolean', (col) => col.notNull())
    .addColumn('revision', 'integer', (col) => col.notNull().defaultTo(1))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('update_config_identity_key', ['repo_id', 'package_manager', 'directory', 'target_branch'], (c) =>
      c.nullsNotDistinct(),
    )
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const schema = db.schema.withSchema('config');
  await schema.dropTable('update_config').execute();
  await schema.dropTable('repo').execute();
  await schema.dropTable('account').execute();
}
