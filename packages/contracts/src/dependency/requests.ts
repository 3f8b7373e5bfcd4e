import { z } from 'zod';
import type { GroupRule } from './config-files.ts';
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

/** The most `groups` one update config takes through the API. */
export const MAX_GROUPS = 50;
/** The most `patterns` (and `exclude-patterns`) one group takes: as many as a config file's group may hold. */
const MAX_GROUP_PATTERNS = 200;
const GROUP_UPDATE_TYPES = ['major', 'minor', 'patch'] as const;

/**
 * A dependency group's name: 1 to 100 characters, letters, digits, `_`, `-`, `.` and `|`, starting and ending with a
 * letter or a digit, no `..`. GitHub documents dependabot.yml group names as letters, `|`, `_` and `-`, starting and
 * ending with a letter; its schema (SchemaStore's `dependabot-2.0.json`, which packages/repo-config validates files
 * against) takes any key. The name goes into pull request titles and branch names, so the API takes the documented set
 * widened by digits and `.` (names such as `aws-sdk-v3`, `k8s.io`), every one of which a config file may hold too.
 */
export const GroupName = z
  .string({ error: requiredMessage('a string') })
  .min(1, { error: 'must not be empty', abort: true })
  .max(100, { error: 'must be at most 100 characters', abort: true })
  .regex(
    /^[A-Za-z0-9](?:[A-Za-z0-9_.|-]*[A-Za-z0-9])?$/,
    'must hold only letters, digits, _, -, . and |, and start and end with a letter or a digit',
  )
  .refine((value) => !value.includes('..'), 'must not contain ..');

/** One dependency name pattern of a group (`*` matches any run of characters): 1 to 1000 characters, no control characters. */
const GroupPattern = z
  .string({ error: 'must be a string' })
  .min(1, 'must not be empty')
  .max(1_000, 'must be at most 1000 characters')
  .refine((value) => value.isWellFormed() && !hasControlCharacter(value), 'must be well-formed text without control characters');

/** `values` without repeats, in first-seen order. */
const distinct = <T>(values: readonly T[]): T[] => [...new Set(values)];

/**
 * One entry of `groups` (this service's extension of the API; dependabot.yml's `groups.<name>` with its name inside), as
 * a {@link GroupRule} with the defaults a config file's group gets (packages/repo-config's v2 reading): `patterns`
 * absent means every dependency (`['*']`), `update-types` absent all three, `applies-to` absent `version-updates`,
 * `exclude-patterns` absent none, `dependency-type` absent either type. `patterns` and `update-types` may not be empty
 * (leave them out instead); repeated entries are kept once; unknown members are ignored.
 * Fails with `name: is required`, `patterns: must not be empty …`, `update-types/0: must be one of major, minor, patch`, …
 */
export const DependencyGroupBody = z
  .object(
    {
      name: GroupName,
      patterns: z
        .array(GroupPattern, { error: 'must be an array of dependency name patterns' })
        .min(1, 'must not be empty: leave it out to take every dependency')
        .max(MAX_GROUP_PATTERNS, `must hold at most ${MAX_GROUP_PATTERNS} patterns`)
        .optional(),
      'exclude-patterns': z
        .array(GroupPattern, { error: 'must be an array of dependency name patterns' })
        .max(MAX_GROUP_PATTERNS, `must hold at most ${MAX_GROUP_PATTERNS} patterns`)
        .optional(),
      'dependency-type': enumOf(['production', 'development'] as const).optional(),
      'update-types': z
        .array(enumOf(GROUP_UPDATE_TYPES), { error: 'must be an array of major, minor, patch' })
        .min(1, 'must not be empty: leave it out for major, minor and patch')
        .max(10, 'must hold at most 10 entries')
        .optional(),
      'applies-to': enumOf(['version-updates', 'security-updates'] as const).optional(),
    },
    { error: 'must be an object with a name' },
  )
  .transform(
    (group): GroupRule => ({
      name: group.name,
      patterns: distinct(group.patterns ?? ['*']),
      excludePatterns: distinct(group['exclude-patterns'] ?? []),
      ...(group['dependency-type'] === undefined ? {} : { dependencyType: group['dependency-type'] }),
      updateTypes: distinct(group['update-types'] ?? GROUP_UPDATE_TYPES),
      appliesTo: group['applies-to'] ?? 'version-updates',
    }),
  );

/**
 * `groups` of `POST /update_configs` and `PATCH /update_configs/:id` (this service's extension): at most
 * {@link MAX_GROUPS} {@link DependencyGroupBody} entries, in the order they are matched (a dependency joins the first
 * group it matches, as in dependabot.yml), their names unique ignoring case (`Deps` and `deps` would share branch
 * names). `[]` means no groups. A repeated name is reported on the later entry: `groups/2/name: must be unique: group 0
 * is named deps`.
 */
export const DependencyGroups = z
  .array(DependencyGroupBody, { error: 'must be an array of groups ([] for none)' })
  .max(MAX_GROUPS, `must hold at most ${MAX_GROUPS} groups`)
  .superRefine(
    (groups, ctx) => {
      const seen = new Map<string, { index: number; name: string }>();
      groups.forEach((group, index) => {
        // Runs also when entries failed their own checks (`when`): such an entry is the value as sent, so its name is
        // compared only when it is a string.
        const name = (group as { name?: unknown } | null | undefined)?.name;
        if (typeof name !== 'string') return;
        const earlier = seen.get(name.toLowerCase());
        if (earlier) {
          ctx.addIssue({
            code: 'custom',
            path: [index, 'name'],
            message: `must be unique: group ${earlier.index} is named ${earlier.name}`,
          });
        } else {
          seen.set(name.toLowerCase(), { index, name });
        }
      });
    },
    { when: (payload) => Array.isArray(payload.value) },
  );

const GROUPS_DESCRIPTION =
  "This service's extension: dependency groups, matched in order (a dependency joins the first group it matches, as in dependabot.yml); each group's updates come in one pull request. On PATCH the list replaces the config's, [] removes them, absent leaves them.";

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
    /** This service's extension: the config's dependency groups (absent: none). */
    groups: DependencyGroups.optional().describe(GROUPS_DESCRIPTION),
  },
  { error: 'must be a JSON object' },
);
export type CreateUpdateConfig = z.output<typeof CreateUpdateConfig>;

/**
 * Body of `PATCH /update_configs/:id`: any of the attributes the seed lists as changeable, and `groups` (this service's
 * extension: the new list replaces the config's, `[]` removes them, absent leaves them); others are ignored.
 */
export const PatchUpdateConfig = z.object(
  {
    'update-schedule': enumOf(UPDATE_SCHEDULES).optional(),
    'target-branch': BranchName.nullable().optional(),
    'lockfile-only': flag.optional(),
    'security-updates-only': flag.optional(),
    'automerge-rule-development-deps': automergeRule.optional(),
    'automerge-rule-runtime-deps': automergeRule.optional(),
    groups: DependencyGroups.optional().describe(GROUPS_DESCRIPTION),
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
