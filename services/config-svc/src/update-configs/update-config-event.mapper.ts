import { UpdateConfigSettings, type UpdateConfigState } from '@switchyard/contracts';
import type { UpdateConfigRow } from './update-config.table.ts';

/**
 * The full state of an update config, as `update_config.*` events carry it; `accountId` is its repo's account; the
 * settings with every default filled in.
 */
export function updateConfigState(row: UpdateConfigRow, accountId: number): UpdateConfigState {
  return {
    id: row.id,
    repoId: row.repo_id,
    accountId,
    packageManager: row.package_manager,
    language: row.language,
    updateSchedule: row.update_schedule,
    directory: row.directory,
    targetBranch: row.target_branch,
    automergeRuleRuntimeDeps: row.automerge_rule_runtime_deps,
    automergeRuleDevelopmentDeps: row.automerge_rule_development_deps,
    lockfileOnly: row.lockfile_only,
    securityUpdatesOnly: row.security_updates_only,
    source: row.source,
    settings: UpdateConfigSettings.parse(row.settings),
    revision: row.revision,
  };
}
