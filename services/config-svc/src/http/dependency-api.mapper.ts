import type { CodeHostRepo } from '@switchyard/code-host';
import {
  type AccountResource,
  type ConfigFileState,
  type GroupRule,
  type RepoResource,
  type ReposDocument,
  type UpdateConfigGroupAttribute,
  type UpdateConfigIgnoreAttribute,
  type UpdateConfigResource,
  UpdateConfigSettings,
} from '@switchyard/contracts';
import { ignoreCondition } from '@switchyard/repo-config';
import type { z } from 'zod';
import type { AccountRow } from '../accounts/account.table.ts';
import type { RepoPage } from '../repo-listing/repo-listing.service.ts';
import type { ScheduledUpdateConfig } from '../update-configs/next-run.service.ts';

/*
 * What the services return, as the API's JSON:API resource objects (https://github.com/dependabot/api-docs, "Endpoints"):
 * string ids, numeric `github-id`, dasherized attributes.
 */

/** An `accounts` resource. */
export function accountResource(row: AccountRow): AccountResource {
  return {
    id: String(row.id),
    type: 'accounts',
    attributes: {
      'github-id': row.id,
      'github-login': row.login,
      'github-account-type': row.account_type,
      'access-granted-to-all-repos': row.access_granted_to_all_repos,
      'current-installation-id': row.current_installation_id,
      'plan-name': row.plan_name,
      'plan-number': row.plan_number,
      'free-trial-end-date': row.free_trial_end_date,
      'automatically-rebase-prs': row.automatically_rebase_prs,
      'update-run-time': row.update_run_time,
      'create-merge-commits': row.create_merge_commits,
      'weekly-update-run-day': row.weekly_update_run_day,
      'limit-initial-update-runs': row.limit_initial_update_runs,
      'limit-open-pull-requests': row.limit_open_pull_requests,
      'time-zone': row.time_zone,
    },
  };
}

/**
 * A `repos` resource: `installation-state` active when `active` (default: when it has at least one update config; the
 * listing also asks that the App covers it); `primary-language` lower-cased as the original showed it;
 * `using-config-file` when the repo has a config file (`configFile`), which `config-file` describes.
 */
export function repoResource(
  repo: CodeHostRepo,
  configIds: readonly number[],
  configFile: ConfigFileState | null = null,
  active = configIds.length > 0,
): RepoResource {
  return {
    id: String(repo.id),
    type: 'repos',
    attributes: {
      'github-id': repo.id,
      name: repo.name,
      'installation-state': active ? 'active' : 'inactive',
      private: repo.private,
      fork: repo.fork,
      'github-url': repo.htmlUrl,
      'primary-language': repo.language === null ? null : repo.language.toLowerCase(),
      'default-branch': repo.defaultBranch,
      'using-config-file': configFile !== null,
      'config-file':
        configFile === null
          ? null
          : {
              path: configFile.path,
              version: configFile.version,
              valid: configFile.valid,
              problems: configFile.problems,
              skipped: configFile.skipped,
              'ignored-files': configFile.ignoredFiles,
            },
    },
    relationships: {
      'update-configs': { data: configIds.map((id) => ({ id: String(id), type: 'update-configs' as const })) },
      account: { data: { id: String(repo.owner.id), type: 'accounts' } },
    },
  };
}

/**
 * An `update-configs` resource; `target-branch` is `null` when unset, never omitted; `next-run-at` (this service's
 * extension) is `nextRunAt` in RFC 3339, UTC, or `null`; `ignores` and `groups` (this service's extensions) from its
 * settings and held ignores.
 */
export function updateConfigResource({ row, nextRunAt }: ScheduledUpdateConfig): UpdateConfigResource {
  const settings = UpdateConfigSettings.parse(row.settings);
  return {
    id: String(row.id),
    type: 'update-configs',
    attributes: {
      language: row.language,
      'package-manager': row.package_manager,
      'update-schedule': row.update_schedule,
      directory: row.directory,
      'automerge-rule-runtime-deps': row.automerge_rule_runtime_deps,
      'automerge-rule-development-deps': row.automerge_rule_development_deps,
      'target-branch': row.target_branch,
      'lockfile-only': row.lockfile_only,
      'security-updates-only': row.security_updates_only,
      'next-run-at': nextRunAt ? nextRunAt.toISOString() : null,
      source: row.source,
      ignores: ignoresOf(row, settings),
      groups: settings.groups.map(groupAttribute),
    },
    relationships: { repo: { data: { id: String(row.repo_id), type: 'repos' } } },
  };
}

/**
 * What the config does not propose: its config file's ignore rules (`source` the file, no id), then the ignores people
 * made on the code host (`command`, `closed-pull-request`: an id to remove them by), each version line written as
 * dependabot-core writes its conditions (`ignoreCondition`).
 */
function ignoresOf(row: ScheduledUpdateConfig['row'], settings: UpdateConfigSettings): UpdateConfigIgnoreAttribute[] {
  const fromFile = row.source === 'api' ? [] : settings.ignore;
  return [
    ...fromFile.map((rule) => ({
      id: null,
      source: row.source,
      'dependency-name': rule.dependencyName,
      versions: rule.versions,
      'update-types': rule.updateTypes,
      'created-by': null,
      'created-at': null,
    })),
    ...row.held_ignores.map((held) => {
      const condition = ignoreCondition(held.kind, held.version);
      return {
        id: String(held.id),
        source: held.source,
        'dependency-name': held.dependencyName,
        versions: condition === null ? [] : [condition],
        'update-types': [],
        'created-by': held.createdBy,
        'created-at': held.createdAt,
      };
    }),
  ];
}

/**
 * One dependency group as the `groups` attribute shows it: dasherized, `dependency-type` null for either type. The same
 * for a group made through the API (its `groups` member) and one of a config file (the file's `groups`).
 */
function groupAttribute(group: GroupRule): UpdateConfigGroupAttribute {
  return {
    name: group.name,
    patterns: group.patterns,
    'exclude-patterns': group.excludePatterns,
    'dependency-type': group.dependencyType ?? null,
    'update-types': group.updateTypes,
    'applies-to': group.appliesTo,
  };
}

/** A `GET /repos` document: the page's repos, the update configs of the active ones in `included`, and the next page in `meta`. */
export function reposDocument(page: RepoPage): z.infer<typeof ReposDocument> {
  return {
    data: page.repos.map(({ repo, active, configIds, configFile }) => repoResource(repo, configIds, configFile, active)),
    included: page.configs.map(updateConfigResource),
    meta: { pages: { next: page.next } },
  };
}
