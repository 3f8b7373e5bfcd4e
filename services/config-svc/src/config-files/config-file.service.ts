import type { CodeHostRepo } from '@switchyard/code-host';
import {
  type FileUpdateConfig,
  type RepoConfigFileRead,
  UpdateConfigCreatedEvent,
  UpdateConfigDeletedEvent,
  type UpdateConfigIgnores,
  UpdateConfigSettings,
  UpdateConfigUpdatedEvent,
} from '@switchyard/contracts';
import type { Kysely } from 'kysely';
import { configOutbox } from '../db/outbox.ts';
import type { ConfigDatabase } from '../db/schema.ts';
import { syncReposAndAccounts } from '../repos/repo.service.ts';
import type { UpdateConfigRow } from '../update-configs/update-config.table.ts';
import { updateConfigState } from '../update-configs/update-config-event.mapper.ts';
import {
  deleteConfigs,
  insertFileConfig,
  listRepoConfigs,
  lockConfigFileReadAt,
  setHeldIgnores,
  setRepoConfigFile,
  updateFromFile,
} from './config-file.repository.ts';

type Db = Kysely<ConfigDatabase>;

/** What applying one read of a repository's config file did. */
export interface ConfigFileOutcome {
  /** False when a later read had been applied already (nothing changed). */
  applied: boolean;
  created: number;
  updated: number;
  deleted: number;
}

/** A config's identity in its repo: package manager, directory, target branch (null: the default branch). */
function identity(packageManager: string, directory: string, targetBranch: string | null): string {
  return JSON.stringify([packageManager, directory, targetBranch]);
}

/** Whether `row` already is what the file's entry `config` (from file `source`) says. */
function sameAsFile(row: UpdateConfigRow, config: FileUpdateConfig, source: string): boolean {
  return (
    row.source === source &&
    row.language === config.language &&
    row.update_schedule === config.updateSchedule &&
    row.automerge_rule_runtime_deps === config.automergeRuleRuntimeDeps &&
    row.automerge_rule_development_deps === config.automergeRuleDevelopmentDeps &&
    row.lockfile_only === config.lockfileOnly &&
    row.security_updates_only === config.securityUpdatesOnly &&
    JSON.stringify(UpdateConfigSettings.parse(row.settings)) === JSON.stringify(config.settings)
  );
}

/**
 * Applies a read of a repository's config files (`repo_config_file.read`, release-svc's) in one transaction: the repo
 * and its account are recorded as the code host described them, then, unless a later read was applied already:
 * - no config file: the configs that came from a file are deleted (those made through the API stay), and the repo is
 *   no longer `using-config-file`;
 * - an invalid file: the repo's configs stay as they are (Dependabot Preview kept the previous setup,
 *   https://github.com/dependabot/feedback/issues/357); its problems are stored for the repo resource and the dashboard;
 * - a valid file: the file is the repo's whole setup: each entry updates the config of the same package manager,
 *   directory and target branch (taking over one made through the API) or creates it, and every other config of the
 *   repo is deleted.
 * Each created, changed or deleted config publishes its `update_config.*` event through the outbox, in the same
 * transaction.
 * @returns what changed
 */
export async function applyConfigFileRead(db: Db, read: RepoConfigFileRead): Promise<ConfigFileOutcome> {
  const readAt = new Date(read.readAt);
  return db.transaction().execute(async (trx) => {
    const repo: CodeHostRepo = { ...read.repo, permission: 'none' };
    const synced = await syncReposAndAccounts(trx, [repo]);
    const events: Array<Parameters<typeof configOutbox.append>[1][number]> = [...synced.events];
    const outcome: ConfigFileOutcome = { applied: false, created: 0, updated: 0, deleted: 0 };
    const stored = await lockConfigFileReadAt(trx, repo.id);
    if (stored?.readAt && stored.readAt > readAt) {
      await configOutbox.append(trx, events);
      return outcome;
    }
    outcome.applied = true;
    await setRepoConfigFile(trx, repo.id, read.file, readAt);
    const existing = await listRepoConfigs(trx, repo.id);
    const accountId = repo.owner.id;
    if (read.file === null || read.file.valid) {
      const source = read.file?.path;
      const wanted = new Map(read.configs.map((c) => [identity(c.packageManager, c.directory, c.targetBranch), c]));
      const byIdentity = new Map(existing.map((row) => [identity(row.package_manager, row.directory, row.target_branch), row]));
      const gone = existing.filter((row) =>
        source === undefined ? row.source !== 'api' : !wanted.has(identity(row.package_manager, row.directory, row.target_branch)),
      );
      const deleted = await deleteConfigs(
        trx,
        gone.map((row) => row.id),
      );
      for (const row of deleted) {
        events.push(configOutbox.event(UpdateConfigDeletedEvent, updateConfigState(row, accountId)));
        outcome.deleted += 1;
      }
      if (source !== undefined) {
        for (const [key, config] of wanted) {
          const row = byIdentity.get(key);
          if (!row) {
            const created = await insertFileConfig(trx, repo.id, config, source);
            events.push(configOutbox.event(UpdateConfigCreatedEvent, updateConfigState(created, accountId)));
            outcome.created += 1;
          } else if (!sameAsFile(row, config, source)) {
            const changed = await updateFromFile(trx, row.id, config, source);
            events.push(configOutbox.event(UpdateConfigUpdatedEvent, updateConfigState(changed, accountId)));
            outcome.updated += 1;
          }
        }
      }
    }
    await configOutbox.append(trx, events);
    return outcome;
  });
}

/**
 * Applies `update_config.ignores_changed` (release-svc's): the ignores people made for a config, stored unless those
 * held are of the same or a newer version (a redelivered or late message changes nothing); listed on the config's
 * resource (`ignores`).
 * @returns whether they were stored
 */
export function applyIgnoresChanged(db: Db, changed: UpdateConfigIgnores): Promise<boolean> {
  return setHeldIgnores(db, changed.updateConfigId, changed.version, changed.ignores);
}
