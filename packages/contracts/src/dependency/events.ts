import { z } from 'zod';
import { defineEvent } from '../events.ts';
import { UpdateConfigSettings } from './config-files.ts';
import { RegistryCredentialDeletedEvent, RegistryCredentialSavedEvent } from './registry-credentials.ts';
import { ACCOUNT_TYPES, AUTOMERGE_RULES, PACKAGE_MANAGERS, UPDATE_SCHEDULES, WEEKDAYS } from './resources.ts';

/**
 * Events config-svc publishes (routing key = envelope `type`), each carrying the full state of the
 * resource after the change, so a consumer keeps a read model without calling config-svc back.
 * `revision` grows by one with every change of a row: a consumer applies an event only when its
 * revision is newer than what it holds (events may arrive twice or out of order).
 */

/** `account.created` / `account.updated`: a code-host user or organisation and the service's settings for it. */
export const AccountState = z.object({
  id: z.int(),
  login: z.string(),
  type: z.enum(ACCOUNT_TYPES),
  revision: z.int(),
  settings: z.object({
    accessGrantedToAllRepos: z.boolean(),
    currentInstallationId: z.int(),
    planName: z.string(),
    planNumber: z.int(),
    freeTrialEndDate: z.iso.date().nullable(),
    automaticallyRebasePrs: z.boolean(),
    updateRunTime: z.string(),
    createMergeCommits: z.boolean(),
    weeklyUpdateRunDay: z.enum(WEEKDAYS),
    limitInitialUpdateRuns: z.boolean(),
    limitOpenPullRequests: z.boolean(),
    /** The IANA time zone of `updateRunTime`; events written before it existed carry none: UTC. */
    timeZone: z.string().default('UTC'),
  }),
});
export type AccountState = z.infer<typeof AccountState>;

/** `repo.created` / `repo.updated`: what the code host says about a repository. */
export const RepoState = z.object({
  id: z.int(),
  accountId: z.int(),
  name: z.string(),
  fullName: z.string(),
  private: z.boolean(),
  fork: z.boolean(),
  archived: z.boolean(),
  htmlUrl: z.string(),
  language: z.string().nullable(),
  defaultBranch: z.string(),
  revision: z.int(),
});
export type RepoState = z.infer<typeof RepoState>;

/** `update_config.created` / `.updated` / `.deleted` (the last state before deletion). */
export const UpdateConfigState = z.object({
  id: z.int(),
  repoId: z.int(),
  accountId: z.int(),
  packageManager: z.enum(PACKAGE_MANAGERS),
  language: z.string(),
  updateSchedule: z.enum(UPDATE_SCHEDULES),
  directory: z.string(),
  targetBranch: z.string().nullable(),
  automergeRuleRuntimeDeps: z.enum(AUTOMERGE_RULES),
  automergeRuleDevelopmentDeps: z.enum(AUTOMERGE_RULES),
  lockfileOnly: z.boolean(),
  securityUpdatesOnly: z.boolean(),
  /** Where the config comes from: `api` (this API and the dashboard), or the config file's path; `api` in events written before files were read. */
  source: z.string().default('api'),
  /** Its settings beyond the API's attributes (labels, ignores, groups …); every default in events written before them. */
  settings: UpdateConfigSettings.prefault({}),
  revision: z.int(),
});
export type UpdateConfigState = z.infer<typeof UpdateConfigState>;

/** `account.created`: an account first seen (revision 1). */
export const AccountCreatedEvent = defineEvent('account.created', AccountState);
/** `account.updated`: an account's login, type or settings changed. */
export const AccountUpdatedEvent = defineEvent('account.updated', AccountState);
/** `repo.created`: a repo first seen (revision 1). */
export const RepoCreatedEvent = defineEvent('repo.created', RepoState);
/** `repo.updated`: what the code host says about a repo changed. */
export const RepoUpdatedEvent = defineEvent('repo.updated', RepoState);
/** `update_config.created`. */
export const UpdateConfigCreatedEvent = defineEvent('update_config.created', UpdateConfigState);
/** `update_config.updated`. */
export const UpdateConfigUpdatedEvent = defineEvent('update_config.updated', UpdateConfigState);
/** `update_config.deleted`: the config's last state before deletion. */
export const UpdateConfigDeletedEvent = defineEvent('update_config.deleted', UpdateConfigState);

/**
 * `update_config.checkpoint`: config-svc's answer to `release_notification.received`, written to its outbox after
 * every change it committed before it saw the notification. `configs` lists every update config of the notified
 * package manager in the notification's organisations, as config-svc holds them then (id and revision): the
 * configs the notification must scan. A consumer that waits until its read model holds each of them at that revision
 * or later has seen every config created before the notification was accepted, without calling config-svc.
 */
export const UpdateConfigCheckpoint = z.object({
  notificationId: z.uuid(),
  configs: z.array(z.object({ id: z.int(), revision: z.int() })),
});
export type UpdateConfigCheckpoint = z.infer<typeof UpdateConfigCheckpoint>;

/** `update_config.checkpoint` (see {@link UpdateConfigCheckpoint}). */
export const UpdateConfigCheckpointEvent = defineEvent('update_config.checkpoint', UpdateConfigCheckpoint);

/** The state events of config-svc: the full state of an account, repo, update config or registry credential after a change (a read model's input). */
export const CONFIG_STATE_EVENTS = [
  AccountCreatedEvent,
  AccountUpdatedEvent,
  RepoCreatedEvent,
  RepoUpdatedEvent,
  UpdateConfigCreatedEvent,
  UpdateConfigUpdatedEvent,
  UpdateConfigDeletedEvent,
  RegistryCredentialSavedEvent,
  RegistryCredentialDeletedEvent,
] as const;

/** Every event config-svc publishes: its state events and the checkpoints it answers notifications with. */
export const CONFIG_EVENTS = [...CONFIG_STATE_EVENTS, UpdateConfigCheckpointEvent] as const;
