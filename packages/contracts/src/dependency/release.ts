import { z } from 'zod';
import { defineEvent } from '../events.ts';
import { RepoConfigFileReadEvent, UpdateConfigIgnoresChangedEvent } from './config-files.ts';
import { AppInstallationChangedEvent } from './installations.ts';
import { PageNumber } from './requests.ts';
import { PACKAGE_MANAGERS } from './resources.ts';
import { UpdateRunRequestedEvent } from './update-runs.ts';
import { PULL_REQUEST_JOB_STATUSES } from './vocabulary.ts';

export { OPEN_PULL_REQUEST_LIMIT, PULL_REQUEST_JOB_STATUSES } from './vocabulary.ts';

/**
 * Wire schemas of private release notifications and the pull-request jobs they lead to (the dependency update
 * API's `POST /release_notifications/private`, https://github.com/dependabot/api-docs; the status and job views
 * answer what the original users could not see: it answered 204 whatever happened, dependabot/api-docs#18).
 */

const text = () => z.string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') }).trim();

/**
 * Body of `POST /release_notifications/private`: a JSON object with the three strings `name` (Maven
 * `groupId:artifactId`, Docker the full image path), `version` and `package-manager`, trimmed. Unknown members are
 * ignored. Only this shape is refused (400); whether the values make sense is release-svc's decision: a notification
 * it cannot use is recorded `rejected` with a reason and still answered 204, as the original answered "even if I pass a
 * bunch of nonsense data" (https://github.com/dependabot/api-docs/issues/18), and as the scripts that call it
 * expect.
 */
export const ReleaseNotificationBody = z.object(
  {
    name: text(),
    version: text(),
    'package-manager': text(),
  },
  { error: 'must be a JSON object' },
);
export type ReleaseNotificationBody = z.output<typeof ReleaseNotificationBody>;

/**
 * A notification's status: `queued` until planned, `scanning`, then `done` (or `failed`); `rejected` when it was
 * recorded but not scanned (an unknown package manager, a name or version the ecosystem cannot have), with a reason.
 */
export const NOTIFICATION_STATUSES = ['queued', 'scanning', 'done', 'failed', 'rejected'] as const;
export type NotificationStatus = (typeof NOTIFICATION_STATUSES)[number];

/** What happened to one update config during a notification's scan. */
export const SCAN_OUTCOMES = ['job-recorded', 'up-to-date', 'not-used', 'skipped', 'failed'] as const;
export type ScanOutcome = (typeof SCAN_OUTCOMES)[number];

export type PullRequestJobStatus = (typeof PULL_REQUEST_JOB_STATUSES)[number];

/** `release-notifications` resource: a notification and what its scan has done so far. */
export const ReleaseNotificationResource = z.object({
  id: z.string(),
  type: z.literal('release-notifications'),
  attributes: z.object({
    name: z.string(),
    version: z.string(),
    /** One of `PACKAGE_MANAGERS` (an alias sent is shown canonical), except for a `rejected` notification whose package manager is unknown: then as sent. */
    'package-manager': z.string(),
    status: z.enum(NOTIFICATION_STATUSES),
    /** Why a `rejected` notification was not scanned; null for every other status. */
    reason: z.string().nullable(),
    'configs-total': z.int().nullable(),
    'repos-scanned': z.int(),
    'jobs-recorded': z.int(),
    'repos-skipped': z.int(),
    'repos-failed': z.int(),
    'created-at': z.string(),
    'finished-at': z.string().nullable(),
    /** Skipped and failed configs with the reason (at most 100; the counts are complete). */
    outcomes: z.array(
      z.object({
        'repo-id': z.string(),
        'update-config-id': z.string(),
        outcome: z.enum(SCAN_OUTCOMES),
        reason: z.string(),
      }),
    ),
    /**
     * The pull-request jobs the notification caused and their pull requests, as they stand (at most 100, oldest
     * first): `pull-request-number` and `pull-request-url` are null until the pull request is opened.
     */
    'pull-requests': z.array(
      z.object({
        'repo-id': z.string(),
        'update-config-id': z.string(),
        'pull-request-job-id': z.string(),
        status: z.enum(PULL_REQUEST_JOB_STATUSES),
        'pull-request-number': z.number().int().nullable(),
        'pull-request-url': z.string().nullable(),
      }),
    ),
  }),
});
export type ReleaseNotificationResource = z.infer<typeof ReleaseNotificationResource>;

const ref = <T extends string>(type: T) => z.object({ data: z.object({ id: z.string(), type: z.literal(type) }) });

/** `pull-request-jobs` resource: one update the service decided to open a pull request for. */
export const PullRequestJobResource = z.object({
  id: z.string(),
  type: z.literal('pull-request-jobs'),
  attributes: z.object({
    'dependency-name': z.string(),
    'dependency-type': z.enum(['runtime', 'development']),
    'version-in-use': z.string(),
    'target-version': z.string(),
    'update-kind': z.enum(['patch', 'minor', 'major']),
    automerge: z.boolean(),
    'security-fix': z.boolean(),
    'target-branch': z.string(),
    directory: z.string(),
    'package-manager': z.enum(PACKAGE_MANAGERS),
    status: z.enum(PULL_REQUEST_JOB_STATUSES),
    /** Why the status is what it is (a failure's reason, a person's close, the job that superseded it), or null. */
    'status-reason': z.string().nullable(),
    /** The job's pull request on the code host, once opened: its number and web URL. */
    'pull-request-number': z.int().nullable(),
    'pull-request-url': z.string().nullable(),
    /**
     * The target version comes from a release notification and the registry did not list it when the job was
     * recorded (a private release a registry mirror has not caught yet).
     */
    unverified: z.boolean(),
    'created-at': z.string(),
    /**
     * This service's extension: the dependency group (dependabot.yml `groups`) whose updates the job's one pull request
     * holds with its updates, or null for one dependency's job; a group's job has the group's name as `dependency-name`
     * and digests of its updates as versions.
     */
    group: z
      .object({
        name: z.string(),
        updates: z.array(
          z.object({
            'dependency-name': z.string(),
            'dependency-type': z.enum(['runtime', 'development']),
            'version-in-use': z.string(),
            'target-version': z.string(),
            'update-kind': z.enum(['patch', 'minor', 'major']),
          }),
        ),
      })
      .nullable(),
  }),
  relationships: z.object({
    repo: ref('repos'),
    'update-config': ref('update-configs'),
    /** The notification whose scan recorded the job, or null for a job of an update run. */
    'release-notification': z.object({ data: z.object({ id: z.string(), type: z.literal('release-notifications') }).nullable() }),
    /** The update run that recorded the job (a notification's scan is one too). */
    'update-run': z.object({ data: z.object({ id: z.string(), type: z.literal('update-runs') }).nullable() }),
  }),
});
export type PullRequestJobResource = z.infer<typeof PullRequestJobResource>;

/** `GET /pull_request_jobs` query: optional filters and a page (100 jobs a page, newest first). */
export const PullRequestJobsQuery = z.object({
  'repo-id': z
    .string({ error: 'must be given once' })
    .regex(/^\d{1,16}$/, 'must be a numeric repo id')
    .transform(Number)
    .optional(),
  'dependency-name': z.string({ error: 'must be given once' }).min(1).max(300).optional(),
  'notification-id': z.uuid({ error: 'must be a notification id (a UUID)' }).optional(),
  status: z.enum(PULL_REQUEST_JOB_STATUSES, { error: `must be one of ${PULL_REQUEST_JOB_STATUSES.join(', ')}` }).optional(),
  page: PageNumber.default(1),
});
export type PullRequestJobsQuery = z.output<typeof PullRequestJobsQuery>;

/** Event `release_notification.received`: a notification stored and waiting to be scanned. */
export const ReleaseNotificationReceived = z.object({
  id: z.uuid(),
  name: z.string(),
  version: z.string(),
  packageManager: z.enum(PACKAGE_MANAGERS),
  /** The organisations the notifying token reached: only their repos are scanned. */
  accountIds: z.array(z.int()),
});
export type ReleaseNotificationReceived = z.infer<typeof ReleaseNotificationReceived>;

/** Event `release_notification.scan_requested`: one batch of a notification's update configs to scan (any worker takes it). */
export const ScanRequested = z.object({
  notificationId: z.uuid(),
  batch: z.int().min(0),
  updateConfigIds: z.array(z.int()).min(1),
});
export type ScanRequested = z.infer<typeof ScanRequested>;

/**
 * Event `pull_request_job.created`: a job recorded once per update config, dependency and target version, by a
 * notification's scan (`notificationId`) or an update run (`updateRunId`; a notification's scan of a config is a run
 * too, so both may be set). Jobs recorded before update runs existed carry neither run nor `unverified`.
 */
export const PullRequestJobCreated = z.object({
  id: z.int(),
  notificationId: z.uuid().nullable(),
  updateRunId: z.uuid().nullable().default(null),
  /** The target version came from a notification and the registry did not list it (see `PullRequestJobResource`). */
  unverified: z.boolean().default(false),
  updateConfigId: z.int(),
  repoId: z.int(),
  accountId: z.int(),
  packageManager: z.enum(PACKAGE_MANAGERS),
  dependencyName: z.string(),
  dependencyType: z.enum(['runtime', 'development']),
  versionInUse: z.string(),
  targetVersion: z.string(),
  updateKind: z.enum(['patch', 'minor', 'major']),
  automerge: z.boolean(),
  securityFix: z.boolean(),
  targetBranch: z.string(),
  directory: z.string(),
  /**
   * The dependency group (dependabot.yml `groups`) whose updates the job holds in one pull request, or null for one
   * dependency's job; a group's job has the group's name as `dependencyName` and a digest of its updates as `targetVersion`.
   */
  groupName: z.string().nullable().default(null),
});
export type PullRequestJobCreated = z.infer<typeof PullRequestJobCreated>;

/** `release_notification.received`. */
export const ReleaseNotificationReceivedEvent = defineEvent('release_notification.received', ReleaseNotificationReceived);
/** `release_notification.scan_requested`. */
export const ScanRequestedEvent = defineEvent('release_notification.scan_requested', ScanRequested);
/** `pull_request_job.created`. */
export const PullRequestJobCreatedEvent = defineEvent('pull_request_job.created', PullRequestJobCreated);

/** Every event release-svc publishes. */
export const RELEASE_EVENTS = [
  ReleaseNotificationReceivedEvent,
  ScanRequestedEvent,
  PullRequestJobCreatedEvent,
  UpdateRunRequestedEvent,
  RepoConfigFileReadEvent,
  UpdateConfigIgnoresChangedEvent,
  AppInstallationChangedEvent,
] as const;
