import { type Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

/**
 * Grouped updates (dependabot.yml `groups`): a job of a group (`group_name` set; its `dependency_name` is the group's
 * name and its `target_version` a digest of its updates) opens one pull request for every update it holds
 * (`pull_request_job_update`, in the manifests' order); a run's dependency decided into a group says which
 * (`update_run_dependency.group_name`, with the update decided: `group_update`) until the run records the group's job
 * at its end.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema.withSchema('release');
  await s.alterTable('pull_request_job').addColumn('group_name', 'text').execute();
  await s
    .createTable('pull_request_job_update')
    .addColumn('job_id', 'integer', (c) => c.notNull().references('release.pull_request_job.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('dependency_name', 'text', (c) => c.notNull())
    .addColumn('dependency_type', 'text', (c) => c.notNull())
    .addColumn('version_in_use', 'text', (c) => c.notNull())
    .addColumn('target_version', 'text', (c) => c.notNull())
    .addColumn('update_kind', 'text', (c) => c.notNull())
    .addColumn('in_range', 'boolean', (c) => c.notNull().defaultTo(false))
    .addPrimaryKeyConstraint('pull_request_job_update_pkey', ['job_id', 'position'])
    .execute();
  await s.alterTable('update_run_dependency').addColumn('group_name', 'text').addColumn('group_update', 'jsonb').execute();
  await sql`comment on column release.pull_request_job.group_name is 'the dependency group whose updates the job holds, or null'`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const s = db.schema.withSchema('release');
  await s.alterTable('update_run_dependency').dropColumn('group_update').dropColumn('group_name').execute();
  await s.dropTable('pull_request_job_update').execute();
  await sql`delete from release.pull_request_job where group_name is not null`.execute(db);
  await s.alterTable('pull_request_job').dropColumn('group_name').execute();
}
