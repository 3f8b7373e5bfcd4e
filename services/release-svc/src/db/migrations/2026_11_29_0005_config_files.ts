import { type Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

/**
 * Repositories steering the service: the read model keeps where each update config comes from and its settings; a
 * push to a default branch that touches a config file leaves a request to read it (`config_file_check`, one per repo,
 * kept until a worker has read it); the issue opened about an invalid file is remembered (`config_file_issue`) to
 * close it once the file is valid; `@dependabot` commands in pull-request comments wait for a worker
 * (`pull_request_command`, one per delivery); the versions a config ignores because of a command or a closed pull
 * request (`config_ignore`); a merge a person asked for, or automerging they blocked (`pull_request_job.merge_request`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const schema = db.schema.withSchema('release');
  await schema
    .alterTable('update_config')
    .addColumn('source', 'text', (c) => c.notNull().defaultTo('api'))
    .addColumn('settings', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .execute();
  await schema
    .createTable('config_file_check')
    .addColumn('repo_id', 'bigint', (c) => c.primaryKey())
    .addColumn('repository', 'jsonb', (c) => c.notNull())
    .addColumn('requested_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('due_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .execute();
  await schema.createIndex('config_file_check_due_idx').on('config_file_check').column('due_at').execute();
  await schema
    .createTable('pull_request_command')
    .addColumn('delivery_id', 'text', (c) => c.primaryKey())
    .addColumn('job_id', 'integer', (c) => c.notNull())
    .addColumn('comment_id', 'bigint', (c) => c.notNull())
    .addColumn('author', 'text', (c) => c.notNull())
    .addColumn('author_is_app', 'boolean', (c) => c.notNull())
    .addColumn('command', 'text', (c) => c.notNull())
    .addColumn('received_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('due_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('outcome', 'text')
    .addColumn('answer', 'text')
    .addColumn('handled_at', 'timestamptz')
    .execute();
  await schema
    .createIndex('pull_request_command_due_idx')
    .on('pull_request_command')
    .column('due_at')
    .where(sql.ref('outcome'), 'is', null)
    .execute();
  await schema
    .createTable('config_ignore')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('update_config_id', 'integer', (c) => c.notNull())
    .addColumn('dependency_name', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('dependency', 'major', 'minor', 'patch', 'version')`))
    .addColumn('version', 'text')
    .addColumn('source', 'text', (c) => c.notNull().check(sql`source in ('command', 'closed-pull-request')`))
    .addColumn('job_id', 'integer')
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await schema.createIndex('config_ignore_config_idx').on('config_ignore').column('update_config_id').execute();
  await schema.alterTable('pull_request_job').addColumn('merge_request', 'text').execute();
  await schema
    .createTable('config_file_issue')
    .addColumn('repo_id', 'bigint', (c) => c.primaryKey())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('issue_number', 'integer', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('open', 'boolean', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const schema = db.schema.withSchema('release');
  await schema.dropTable('config_file_issue').execute();
  await schema.alterTable('pull_request_job').dropColumn('merge_request').execute();
  await schema.dropTable('config_ignore').execute();
  await schema.dropTable('pull_request_command').execute();
  await schema.dropTable('config_file_check').execute();
  await schema.alterTable('update_config').dropColumn('source').dropColumn('settings').execute();
}
