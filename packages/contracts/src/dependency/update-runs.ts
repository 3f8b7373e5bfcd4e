import { z } from 'zod';
import { defineEvent } from '../events.ts';
import { PageNumber } from './requests.ts';

/**
 * Update runs (this service's extension): one update config's dependencies checked against their registries, and
 * the pull-request jobs that check recorded. A run is started by the config's schedule, by the registry watch of a
 * `live` config, by a release notification, or by "bump now" (`POST /update_configs/{id}/trigger_update_job`, the
 * original's undocumented endpoint, https://github.com/dependabot/dependabot-core/issues/3080).
 */

/**
 * What started a run: the schedule's slot, the registry watch (`live`), a release notification, a person ("bump now"),
 * or a change of the config's settings that its pull requests follow (`settings`: a new target branch, whose pull
 * requests replace those against the old one).
 */
export const UPDATE_RUN_TRIGGERS = ['schedule', 'live', 'notification', 'manual', 'settings'] as const;
export type UpdateRunTrigger = (typeof UPDATE_RUN_TRIGGERS)[number];

/** `queued` until a worker takes it, `running`, then `done` (each dependency decided) or `failed` (the manifests could not be read). */
export const UPDATE_RUN_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
export type UpdateRunStatus = (typeof UPDATE_RUN_STATUSES)[number];

/**
 * What a run decided for one dependency: a job recorded; `pr-open`, the update's job recorded earlier is still under way
 * (its pull request open, or being opened: the dependency's `pull-request-job-id` names it); up to date; skipped by a
 * rule (lockfile-only, security-only, a version a person ignored, the first run's job limit…); or an error.
 */
export const DEPENDENCY_CHECK_OUTCOMES = ['job-recorded', 'pr-open', 'up-to-date', 'skipped', 'error'] as const;
export type DependencyCheckOutcome = (typeof DEPENDENCY_CHECK_OUTCOMES)[number];

/**
 * Why a dependency (or a whole run) could not be checked: the registry did not answer, refused the credentials, does
 * not know the package, or answered nonsense; the manifests could not be read.
 */
export const UPDATE_RUN_ERROR_KINDS = [
  'registry_unreachable',
  'registry_auth_failed',
  'registry_bad_response',
  'package_not_found',
  'manifest_unreadable',
] as const;
export type UpdateRunErrorKind = (typeof UPDATE_RUN_ERROR_KINDS)[number];

/** One dependency as a run checked it. */
export const DependencyCheck = z.object({
  name: z.string(),
  'dependency-type': z.enum(['runtime', 'development']),
  /** The manifest's requirement as written, or null. */
  requirement: z.string().nullable(),
  'version-in-use': z.string().nullable(),
  /** The newest version the registry lists (pre-releases, yanked and deprecated ones aside), or null when unknown. */
  'latest-version': z.string().nullable(),
  /** The version the rules allow and a job targets (newest allowed; lowest fixing for security-updates-only), or null. */
  'latest-allowed-version': z.string().nullable(),
  outcome: z.enum(DEPENDENCY_CHECK_OUTCOMES),
  /** Why, in words: the change, the rule that skipped it, or the error. */
  reason: z.string(),
  'error-kind': z.enum(UPDATE_RUN_ERROR_KINDS).nullable(),
  /** The registry asked last (base URL), or null when none was. */
  registry: z.string().nullable(),
  /** The job recorded for it (a group's job for a dependency in a group), or null. */
  'pull-request-job-id': z.string().nullable(),
  /** This service's extension: the dependency group (dependabot.yml `groups`) its update went to, or null. */
  group: z.string().nullable().default(null),
});
export type DependencyCheck = z.infer<typeof DependencyCheck>;

const ref = <T extends string>(type: T) => z.object({ id: z.string(), type: z.literal(type) });

/** `update-runs` resource. */
export const UpdateRunResource = z.object({
  id: z.string(),
  type: z.literal('update-runs'),
  attributes: z.object({
    trigger: z.enum(UPDATE_RUN_TRIGGERS),
    status: z.enum(UPDATE_RUN_STATUSES),
    /** The schedule's slot a `schedule` run is for (RFC 3339, UTC), else null. */
    slot: z.string().nullable(),
    'created-at': z.string(),
    'started-at': z.string().nullable(),
    'finished-at': z.string().nullable(),
    /** Dependencies the manifests declare, once read; null before. */
    'dependencies-total': z.int().nullable(),
    /** Dependencies decided so far: the run's progress while it is `running`. */
    'dependencies-checked': z.int(),
    'jobs-recorded': z.int(),
    /** At most this many jobs were recorded: the account's `limit-initial-update-runs` on a config's first run; else null. */
    'job-limit': z.int().nullable(),
    /**
     * Declarations the manifests hold that the run could not read and left out, each with its file (relative to the
     * config's directory), its 1-based line, its text and why; the other declarations were read. Empty before the
     * files are read.
     */
    'skipped-declarations': z.array(z.object({ file: z.string(), line: z.int(), text: z.string(), reason: z.string() })),
    /** Why a `failed` run failed (or a note on a `done` one), else null. */
    error: z.string().nullable(),
    'error-kind': z.enum(UPDATE_RUN_ERROR_KINDS).nullable(),
    dependencies: z.array(DependencyCheck),
  }),
  relationships: z.object({
    'update-config': z.object({ data: ref('update-configs') }),
    repo: z.object({ data: ref('repos') }),
    'release-notification': z.object({ data: ref('release-notifications').nullable() }),
    'pull-request-jobs': z.object({ data: z.array(ref('pull-request-jobs')) }),
  }),
});
export type UpdateRunResource = z.infer<typeof UpdateRunResource>;

/** `GET /update_runs/{id}`, `POST /update_configs/{id}/trigger_update_job`. */
export const UpdateRunDocument = z.object({ data: UpdateRunResource });
/** `GET /update_runs?update-config-id=`: newest first; `meta.pages.next` null on the last page. */
export const UpdateRunsDocument = z.object({
  data: z.array(UpdateRunResource),
  meta: z.object({ pages: z.object({ next: z.int().nullable() }) }),
});

/** `GET /update_runs` query: the config (required) and a page (25 runs a page, newest first). */
export const UpdateRunsQuery = z.object({
  'update-config-id': z
    .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be given once') })
    .regex(/^\d{1,16}$/, 'must be a numeric update config id')
    .transform(Number),
  page: PageNumber.default(1),
});
export type UpdateRunsQuery = z.output<typeof UpdateRunsQuery>;

/** Event `update_run.requested`: a run recorded and waiting for a worker (any worker takes it). */
export const UpdateRunRequested = z.object({
  id: z.uuid(),
  updateConfigId: z.int(),
  trigger: z.enum(UPDATE_RUN_TRIGGERS),
});
export type UpdateRunRequested = z.infer<typeof UpdateRunRequested>;

/** `update_run.requested`. */
export const UpdateRunRequestedEvent = defineEvent('update_run.requested', UpdateRunRequested);
