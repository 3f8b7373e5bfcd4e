import { z } from 'zod';
import { ACCOUNT_TYPES, AUTOMERGE_RULES, LIVE_PACKAGE_MANAGERS, PACKAGE_MANAGERS, UPDATE_SCHEDULES, WEEKDAYS } from './vocabulary.ts';

export { ACCOUNT_TYPES, AUTOMERGE_RULES, LIVE_PACKAGE_MANAGERS, PACKAGE_MANAGERS, UPDATE_SCHEDULES, WEEKDAYS } from './vocabulary.ts';

/**
 * Resource objects of the dependency update API (https://github.com/dependabot/api-docs): `id` a string,
 * `type`, dasherized `attributes`, and `relationships` where the seed shows them.
 */

export const PackageManager = z.enum(PACKAGE_MANAGERS);
export type PackageManager = z.infer<typeof PackageManager>;

/** Why `live` cannot be the schedule of a `packageManager` config, or undefined when it can ({@link LIVE_PACKAGE_MANAGERS}). */
export function liveScheduleProblem(packageManager: PackageManager): string | undefined {
  if ((LIVE_PACKAGE_MANAGERS as readonly PackageManager[]).includes(packageManager)) return undefined;
  return `live is not offered for ${packageManager}: its versions cannot be watched; use daily, weekly or monthly`;
}

/**
 * The `language` attribute that goes with each package manager: the pairs the original's examples show
 * (npm_and_yarn→javascript, gradle→java, composer→php, pip→python, bundler→ruby, hex→elixir), the rest from
 * `language:manager` names of the Dependabot Preview config file (`.dependabot/config.yml`, version 1); managers without a
 * language prefix there carry their own name.
 */
export const LANGUAGE_OF: Readonly<Record<PackageManager, string>> = {
  bundler: 'ruby',
  composer: 'php',
  docker: 'docker',
  maven: 'java',
  npm_and_yarn: 'javascript',
  elm: 'elm',
  submodules: 'submodules',
  hex: 'elixir',
  cargo: 'rust',
  gradle: 'java',
  nuget: 'dotnet',
  dep: 'go',
  go_modules: 'go',
  pip: 'python',
  terraform: 'terraform',
  github_actions: 'github_actions',
};

export const UpdateSchedule = z.enum(UPDATE_SCHEDULES);
export type UpdateSchedule = z.infer<typeof UpdateSchedule>;

export const AutomergeRule = z.enum(AUTOMERGE_RULES);
export type AutomergeRule = z.infer<typeof AutomergeRule>;

export const AccountType = z.enum(ACCOUNT_TYPES);
export type AccountType = z.infer<typeof AccountType>;

const ref = <T extends string>(type: T) => z.object({ id: z.string(), type: z.literal(type) });

/** `accounts` resource: a user or organisation on the code host, with the service's settings for it. */
export const AccountResource = z.object({
  id: z.string(),
  type: z.literal('accounts'),
  attributes: z.object({
    'github-id': z.int(),
    'github-login': z.string(),
    'github-account-type': AccountType,
    'access-granted-to-all-repos': z.boolean(),
    'current-installation-id': z.int(),
    'plan-name': z.string(),
    'plan-number': z.int(),
    'free-trial-end-date': z.iso.date().nullable(),
    'automatically-rebase-prs': z.boolean(),
    'update-run-time': z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/),
    'create-merge-commits': z.boolean(),
    'weekly-update-run-day': z.enum(WEEKDAYS),
    'limit-initial-update-runs': z.boolean(),
    'limit-open-pull-requests': z.boolean(),
    /** This service's extension: the IANA time zone of `update-run-time` (`UTC` unless the account set one). */
    'time-zone': z.string(),
  }),
});
export type AccountResource = z.infer<typeof AccountResource>;

/**
 * This service's extension of `repos`: the config file read from the repository's default branch (`path`, `version`,
 * whether it is `valid`, its `problems` with JSON pointers, the entries `skipped` and why, and the other config files
 * `ignored-files`, with why), or null when it has none.
 */
export const RepoConfigFileAttribute = z.object({
  path: z.string(),
  version: z.union([z.literal(1), z.literal(2)]).nullable(),
  valid: z.boolean(),
  problems: z.array(z.object({ pointer: z.string(), message: z.string() })),
  skipped: z.array(z.object({ pointer: z.string(), reason: z.string() })),
  'ignored-files': z.array(z.object({ path: z.string(), reason: z.string() })),
});
export type RepoConfigFileAttribute = z.infer<typeof RepoConfigFileAttribute>;

/** `repos` resource: a repository, active when it has at least one update config. */
export const RepoResource = z.object({
  id: z.string(),
  type: z.literal('repos'),
  attributes: z.object({
    'github-id': z.int(),
    name: z.string(),
    'installation-state': z.enum(['active', 'inactive']),
    private: z.boolean(),
    fork: z.boolean(),
    'github-url': z.string(),
    'primary-language': z.string().nullable(),
    'default-branch': z.string(),
    /** True when the repository has a config file on its default branch: its update configs come from there. */
    'using-config-file': z.boolean(),
    'config-file': RepoConfigFileAttribute.nullable(),
  }),
  relationships: z.object({
    'update-configs': z.object({ data: z.array(ref('update-configs')) }),
    account: z.object({ data: ref('accounts') }),
  }),
});
export type RepoResource = z.infer<typeof RepoResource>;

/**
 * This service's extension of `update-configs`: one version range the config does not propose. Those its config file
 * sets (`source` the file's path, `id` null: change the file) and those people made on the code host (`source`
 * `command` or `closed-pull-request`, `id` set: `DELETE /update_configs/{id}/ignores/{ignore-id}` undoes one).
 * `versions` in the ecosystem's syntax or dependabot-core's (`>= 7.a, < 8`); none and no `update-types`: every version.
 */
export const UpdateConfigIgnoreAttribute = z.object({
  id: z.string().nullable(),
  source: z.string(),
  'dependency-name': z.string(),
  versions: z.array(z.string()),
  'update-types': z.array(z.string()),
  'created-by': z.string().nullable(),
  'created-at': z.string().nullable(),
});
export type UpdateConfigIgnoreAttribute = z.infer<typeof UpdateConfigIgnoreAttribute>;

/**
 * This service's extension of `update-configs`: one dependency group, in the order groups are matched (a dependency joins
 * the first group it matches, as in dependabot.yml). Those of a config made through the API are its `groups` member's;
 * a config file's are the file's. `patterns` `['*']` takes every dependency; `exclude-patterns` are left out of the
 * group; `dependency-type` `production`, `development`, or null for either; `update-types` the semver levels it takes;
 * `applies-to` `version-updates` or `security-updates`.
 */
export const UpdateConfigGroupAttribute = z.object({
  name: z.string(),
  patterns: z.array(z.string()),
  'exclude-patterns': z.array(z.string()),
  'dependency-type': z.enum(['production', 'development']).nullable(),
  'update-types': z.array(z.enum(['major', 'minor', 'patch'])),
  'applies-to': z.enum(['version-updates', 'security-updates']),
});
export type UpdateConfigGroupAttribute = z.infer<typeof UpdateConfigGroupAttribute>;

/** `update-configs` resource. `target-branch` is always present, `null` meaning the repo's default branch. */
export const UpdateConfigResource = z.object({
  id: z.string(),
  type: z.literal('update-configs'),
  attributes: z.object({
    language: z.string(),
    'package-manager': PackageManager,
    'update-schedule': UpdateSchedule,
    directory: z.string(),
    'automerge-rule-runtime-deps': AutomergeRule,
    'automerge-rule-development-deps': AutomergeRule,
    'target-branch': z.string().nullable(),
    'lockfile-only': z.boolean(),
    'security-updates-only': z.boolean(),
    /**
     * This service's extension: the config's next scheduled update run (RFC 3339, UTC) by its schedule and its
     * account's `update-run-time`, `weekly-update-run-day` and `time-zone`; null for `live` (it runs when a new version
     * is seen).
     */
    'next-run-at': z.string().nullable(),
    /**
     * This service's extension: where the config comes from, `api` (this API or the dashboard) or the path of the
     * repository's config file (`.github/dependabot.yml`, `.dependabot/config.yml`), which alone may change it.
     */
    source: z.string(),
    /** This service's extension: what the config does not propose (see {@link UpdateConfigIgnoreAttribute}). */
    ignores: z.array(UpdateConfigIgnoreAttribute),
    /** This service's extension: how the config groups its updates into pull requests (see {@link UpdateConfigGroupAttribute}). */
    groups: z
      .array(UpdateConfigGroupAttribute)
      .describe(
        "This service's extension: the config's dependency groups in matching order (a dependency joins the first it matches); a config file's come from the file.",
      ),
  }),
  relationships: z.object({ repo: z.object({ data: ref('repos') }) }),
});
export type UpdateConfigResource = z.infer<typeof UpdateConfigResource>;

/** `GET /accounts`. */
export const AccountsDocument = z.object({ data: z.array(AccountResource) });
/** `PATCH /accounts/{id}` (this service's extension): the changed account. */
export const AccountDocument = z.object({ data: AccountResource });
/** `GET /repos`: `meta.pages.next` is the next page number, `null` on the last page. */
export const ReposDocument = z.object({
  data: z.array(RepoResource),
  included: z.array(UpdateConfigResource),
  meta: z.object({ pages: z.object({ next: z.int().nullable() }) }),
});
/** `POST /update_configs`, `GET`/`PATCH /update_configs/:id`. */
export const UpdateConfigDocument = z.object({ data: UpdateConfigResource });
