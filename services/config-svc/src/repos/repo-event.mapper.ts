import { RepoCreatedEvent, type RepoState, RepoUpdatedEvent } from '@switchyard/contracts';
import type { PendingEvent } from '@switchyard/messaging';
import { configOutbox } from '../db/outbox.ts';
import type { RepoRow } from './repo.table.ts';

/** The full state of a repo, as `repo.*` events carry it. */
export function repoState(row: RepoRow): RepoState {
  return {
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    fullName: row.full_name,
    private: row.private,
    fork: row.fork,
    archived: row.archived,
    htmlUrl: row.html_url,
    language: row.language,
    defaultBranch: row.default_branch,
    revision: row.revision,
  };
}

/** `repo.created` for rows a sync inserted (revision 1), `repo.updated` for the ones it changed. */
export function repoEvents(rows: readonly RepoRow[]): PendingEvent<typeof RepoCreatedEvent | typeof RepoUpdatedEvent>[] {
  return rows.map((row) => configOutbox.event(row.revision === 1 ? RepoCreatedEvent : RepoUpdatedEvent, repoState(row)));
}
