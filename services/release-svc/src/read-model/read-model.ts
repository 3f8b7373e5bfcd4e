import { AccountState, type EventEnvelope, RepoState, UpdateConfigState } from '@switchyard/contracts';
import type { Kysely } from 'kysely';
import type { ReleaseDatabase } from '../db/schema.ts';

type Db = Kysely<ReleaseDatabase>;

/** The event types of config-svc this read model follows. */
export const READ_MODEL_BINDINGS = ['account.*', 'repo.*', 'update_config.*'];

/**
 * Applies one of config-svc's state events to the read model, in the caller's transaction. Each event
 * carries the full state and a `revision`: a row is written only when the event's revision is newer
 * than the stored one, so duplicates and events that arrive out of order change nothing.
 * @throws ZodError when the event's data does not have the shape of its type (the bus parks it)
 */
export async function applyConfigEvent(trx: Db, event: EventEnvelope): Promise<void> {
  const [kind] = event.type.split('.');
  if (kind === 'account') {
    const a = AccountState.parse(event.data);
    await trx
      .insertInto('account')
      .values({ id: a.id, login: a.login, account_type: a.type, revision: a.revision })
      .onConflict((oc) =>
        oc
          .column('id')
          .doUpdateSet({ login: a.login, account_type: a.type, revision: a.revision })
          .where('account.revision', '<', a.revision),
      )
      .execute();
    return;
  }
  if (kind === 'repo') {
    const r = RepoState.parse(event.data);
    const values = {
      account_id: r.accountId,
      full_name: r.fullName,
      default_branch: r.defaultBranch,
      archived: r.archived,
      revision: r.revision,
    };
    await trx
      .insertInto('repo')
      .values({ id: r.id, ...values })
      .onConflict((oc) => oc.column('id').doUpdateSet(values).where('repo.revision', '<', r.revision))
      .execute();
    return;
  }
  if (kind === 'update_config') {
    const c = UpdateConfigState.parse(event.data);
    const deleted = event.type === 'update_config.deleted';
    // A deletion outranks every earlier state; anything after it (a re-creation) has a new id.
    const revision = deleted ? c.revision + 1 : c.revision;
    const values = {
      repo_id: c.repoId,
      account_id: c.accountId,
      package_manager: c.packageManager,
      directory: c.directory,
      target_branch: c.targetBranch,
      automerge_rule_runtime_deps: c.automergeRuleRuntimeDeps,
      automerge_rule_development_deps: c.automergeRuleDevelopmentDeps,
      lockfile_only: c.lockfileOnly,
      security_updates_only: c.securityUpdatesOnly,
      deleted,
      revision,
    };
    await trx
      .insertInto('update_config')
      .values({ id: c.id, ...values })
      .onConflict((oc) => oc.column('id').doUpdateSet(values).where('update_config.revision', '<', revision))
      .execute();
  }
}
