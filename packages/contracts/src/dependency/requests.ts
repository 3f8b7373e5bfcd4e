import { z } from 'zod';
import { ACCOUNT_TYPES, AUTOMERGE_RULES, PACKAGE_MANAGERS, UPDATE_SCHEDULES, WEEKDAYS } from './resources.ts';

/**
 * Request bodies and queries of the dependency update API. Bodies are flat dasherized JSON objects (not
 * JSON:API documents) and are read as leniently as the original's real clients need (their bodies, e.g.
 * ianwremmel/create `src/lib/dependabot.js`, mergermarket/dependabot-access): ids as numbers or numeric strings,
 * the automerge values of before 2019-04 mapped to today's, unknown members ignored.
 */

const requiredMessage = (kind: string) => (issue: { input: unknown }) => (issue.input === undefined ? 'is required' : `must be ${kind}`);

const MAX_GITHUB_ID = Number.MAX_SAFE_INTEGER;

/** A code-host id given as a JSON number or a string of digits (clients send both). */
export const GitHubId = z.preprocess(
  (value) => (typeof value === 'string' && /^\d{1,16}$/.test(value) ? Number(value) : value),
  z
    .int({ error: requiredMessage('a positive integer or a string of digits') })
    .min(1, 'must be a positive integer')
    .max(MAX_GITHUB_ID, 'is too large'),
);

/** Automerge values renamed on 2019-04-09 (api-docs commit 883f6e5) that old clients still send. */
export const LEGACY_AUTOMERGE: Readonly<Record<string, (typeof AUTOMERGE_RULES)[number]>> = {
  security: 'security:patch',
  patch: 'semver:patch',
  minor: 'semver:minor',
};

const automergeRule = z
  .string({ error: requiredMessage(`one of ${AUTOMERGE_RULES.join(', ')}`) })
  .transform((value) => LEGACY_AUTOMERGE[value] ?? value)
  .pipe(z.enum(AUTOMERGE_RULES, { error: `must be one of ${AUTOMERGE_RULES.join(', ')}` }));

/** Whether `value` holds a C0 control character or DEL (never valid in a path or a branch name). */
const hasControlCharacter = (value: string) => [...value].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);

const enumOf = <T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: (issue) => (issue.input === undefined ? 'is required' : `must be one of ${values.join(', ')}`) });

/**
 * A dependency directory inside the repo: `/` or `/path/to/dir`. A missing leading slash is added and a
 * trailing one removed, so `helpers/npm/` and `/helpers/npm` are the same directory; `.` and `..`
 * segments, backslashes and control characters are refused.
 */
export const Directory = z
  .string({ error: requiredMessage('a string') })
  .max(255, 'must be at most 255 characters')
  .refine((value) => value.isWellFormed(), 'must be well-formed Unicode text')
  .refine((value) => !value.includes('\\') && !hasControlCharacter(value), 'must not contain backslashes or control characters')
  .transform((value) => `/${value.split('/').filter(Boolean).join('/')}`)
  .refine((value) => !value.split('/').some((segment) => segment === '.' || segment === '..'), 'must not contain . or .. segments');

/** A branch name (git check-ref-format rules, loosely): no spaces, `..`, `~^:?*[\`, control characters or leading `-`. */
export const BranchName = z
  .string({ error: 'must be a string or null' })
  .min(1, 'must not be empty (use null for the default branch)')
  .max(255, 'must be at most 255 characters')
  .refine((value) => value.isWellFormed(), 'must be well-formed Unicode text')
  .refine((value) => !hasControlCharacter(value) && !/[\s~^:?*[\\]|\.\.|^-|^\/|\/$|\.lock$|@\{/.test(value), 'is not a valid branch name');

const flag = z.boolean({ error: 'must be true or false' });

/** Body of `POST /update_configs` (the attribute table of https://github.com/dependabot/api-docs). Unknown members are ignored. */
export const CreateUpdateConfig = z.object(
  {
    'repo-id': GitHubId,
    'account-id': GitHubId,
    'account-type': enumOf(ACCOUNT_TYPES),
    directory: Directory,
    'update-schedule': enumOf(UPDATE_SCHEDULES),
    'package-manager': enumOf(PACKAGE_MANAGERS),
    'target-branch': BranchName.nullable().default(null),
    'lockfile-only': flag.default(false),
    'security-updates-only': flag.default(false),
    'automerge-rule-development-deps': automergeRule.default('never'),
    'automerge-rule-runtime-deps': automergeRule.default('never'),
  },
  { error: 'must be a JSON object' },
);
export type CreateUpdateConfig = z.output<typeof CreateUpdateConfig>;

/** Body of `PATCH /update_configs/:id`: any of the attributes the seed lists as changeable; others are ignored. */
export const PatchUpdateConfig = z.object(
  {
    'update-schedule': enumOf(UPDATE_SCHEDULES).optional(),
    'target-branch': BranchName.nullable().optional(),
    'lockfile-only': flag.optional(),
    'security-updates-only': flag.optional(),
    'automerge-rule-development-deps': automergeRule.optional(),
    'automerge-rule-runtime-deps': automergeRule.optional(),
  },
  { error: 'must be a JSON object' },
);
export type PatchUpdateConfig = z.output<typeof PatchUpdateConfig>;

/** `HH:MM`, 24-hour, as `update-run-time` is shown. */
export const UpdateRunTime = z
  .string({ error: 'must be a time HH:MM' })
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time HH:MM, from 00:00 to 23:59');

/** Names {@link TimeZone} accepted before (at most {@link KNOWN_ZONES_MAX}): building a formatter to check one is slow. */
const knownZones = new Set<string>();
const KNOWN_ZONES_MAX = 2_048;

/** An IANA time zone name the runtime knows (`Europe/Paris`, `America/New_York`, `UTC`), kept as given. */
export const TimeZone = z
  .string({ error: 'must be an IANA time zone name' })
  .max(64, 'must be an IANA time zone name')
  .refine((value) => {
    if (knownZones.has(value)) return true;
    try {
      new Intl.DateTimeFormat('en', { timeZone: value });
    } catch {
      return false;
    }
    if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(value)) return false;
    if (knownZones.size < KNOWN_ZONES_MAX) knownZones.add(value);
    return true;
  }, 'must be an IANA time zone name, e.g. Europe/Paris');

/**
 * Body of `PATCH /accounts/:id` (this service's extension; the original's dashboard changed these settings in its own
 * UI): any of the account's settings; unknown members (and the attributes the code host decides, such as
 * `current-installation-id`) are ignored.
 */
export const PatchAccount = z.object(
  {
    'update-run-time': UpdateRunTime.optional(),
    'weekly-update-run-day': enumOf(WEEKDAYS).optional(),
    'automatically-rebase-prs': flag.optional(),
    'create-merge-commits': flag.optional(),
    'limit-initial-update-runs': flag.optional(),
    'limit-open-pull-requests': flag.optional(),
    'time-zone': TimeZone.optional(),
  },
  { error: 'must be a JSON object' },
);
export type PatchAccount = z.output<typeof PatchAccount>;

/** The `:id` of `/accounts/:id`: the code host's numeric account id, as a string. */
export const AccountId = z
  .string()
  .regex(/^\d{1,16}$/, 'must be a numeric account id')
  .transform(Number)
  .pipe(z.number().min(1, 'must be a positive account id').max(MAX_GITHUB_ID, 'is too large'));

/** Page numbers start at 1. */
export const PageNumber = z
  .string({ error: 'must be given once' })
  .regex(/^\d{1,9}$/, 'must be a positive integer')
  .transform(Number)
  .pipe(z.number().int().min(1, 'must be a positive integer'));

/**
 * Query of `GET /repos`. `installation-state` must be `active` or `inactive` (the breaking change of
 * 2019-12-02); `page` (default 1) pages inactive repos 100 at a time and is accepted, and ignored, for
 * active ones as the original dashboard sent it. Other parameters are ignored, as the original did.
 */
export const ReposQuery = z.object({
  'account-id': z
    .string({ error: requiredMessage('given once') })
    .regex(/^\d{1,16}$/, 'must be a numeric account id')
    .transform(Number)
    .pipe(z.number().min(1, 'must be a positive account id').max(MAX_GITHUB_ID, 'is too large')),
  'account-type': enumOf(ACCOUNT_TYPES),
  'installation-state': enumOf(['active', 'inactive'] as const),
  page: PageNumber.default(1),
});
export type ReposQuery = z.output<typeof ReposQuery>;

/** The `:id` of `/update_configs/:id`: a positive integer as a string. */
export const UpdateConfigId = z
  .string()
  .regex(/^\d{1,10}$/, 'must be a numeric update config id')
  .transform(Number)
  .pipe(z.number().int().min(1).max(2_147_483_647));
