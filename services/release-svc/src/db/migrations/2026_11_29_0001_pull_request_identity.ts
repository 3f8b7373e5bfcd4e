import { type Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

/**
 * The code host is the source of truth for pull requests: a job knows its pull request by the host's global id
 * (`pull_request_node_id`, with its branch), not by its number alone; `ignored` marks the job of a pull request a person
 * closed unmerged (that version is not proposed again for the config until the pull request is reopened); `in_range`
 * keeps whether the update was within the manifest's requirement, so that a change of the config's automerge rules can
 * be applied to open pull requests. A job is unique per config, dependency, version and target branch only while it is
 * under way (`pending`, `queued-limit`, `running`, `open`): an update whose pull request vanished, was closed by this
 * service or merged without reaching the target branch can be proposed again as a new job, and so can one against a new
 * target branch while the pull request against the old one is being closed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema.withSchema('release');
  await s
    .alterTable('pull_request_job')
    .addColumn('pull_request_node_id', 'text')
    .addColumn('in_range', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('ignored', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await s.alterTable('pull_request_job').dropConstraint('pull_request_job_once_key').execute();
  await sql`create unique index pull_request_job_live_key
    on release.pull_request_job (update_config_id, dependency_name, target_version, target_branch)
    where status in ('pending', 'queued-limit', 'running', 'open')`.execute(db);
  await s.createIndex('pull_request_job_dependency_idx').on('pull_request_job').columns(['update_config_id', 'dependency_name']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const s = db.schema.withSchema('release');
  await s.dropIndex('release.pull_request_job_dependency_idx').execute();
  await s.dropIndex('release.pull_request_job_live_key').execute();
  await s
    .alterTable('pull_request_job')
    .addUniqueConstraint('pull_request_job_once_key', ['update_config_id', 'dependency_name', 'target_version'])
    .execute();
  await s.alterTable('pull_request_job').dropColumn('pull_request_node_id').dropColumn('in_range').dropColumn('ignored').execute();
}
