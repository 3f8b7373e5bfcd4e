import { fileURLToPath } from 'node:url';
import { issueLines, jsonFilesIn, seedFormat } from '@switchyard/service-kit';
import { z } from 'zod';
import { SeedFile } from './files.ts';
import { SeedAdvisory } from './seed-advisories.ts';
import { appKeyProblems, botUserIdOf, clientIdOf, type PermissionLevel, SeedApp } from './seed-apps.ts';
import { SeedInstallation } from './seed-installations.ts';
import { SeedRelease, TagName, tagProblems } from './seed-releases.ts';

/** GitHub's login rules: 1–39 letters, digits or single hyphens, not starting with a hyphen. */
const Login = z.string().regex(/^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/, 'must be a GitHub login (letters, digits, hyphens; at most 39)');
const AccountId = z.number().int().positive();
const Timestamp = z.iso.datetime({ offset: true });

/** A role a collaborator can hold on a repository (GitHub's role names, lowest first). */
export const RepoRole = z.enum(['read', 'triage', 'write', 'maintain', 'admin']);
export type RepoRole = z.output<typeof RepoRole>;

const TokenText = z.string().regex(/^[\x21-\x7e]+$/, 'must be visible ASCII without spaces');

/**
 * What a token itself may do, as GitHub models it:
 * - `classic`: a personal access token (classic) or OAuth token with OAuth `scopes` (`repo`, `public_repo`, `read:org`,
 *   ...), sent back in `X-OAuth-Scopes` on every answer. Without `repo` it cannot see private repositories; the
 *   `permissions` object of a repository still shows the user's role
 *   (https://docs.github.com/apps/oauth-apps/building-oauth-apps/scopes-for-oauth-apps).
 * - `fine-grained`: a fine-grained personal access token with the repository permission `contents` (`read` or `write`),
 *   on every repository the user reaches. No `X-OAuth-Scopes`; what it may do on a repository shows in that
 *   repository's `permissions` as seen through it (read-only contents caps the role at read)
 *   (https://docs.github.com/rest/authentication/permissions-required-for-fine-grained-personal-access-tokens).
 */
export const TokenGrant = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('classic'), scopes: z.array(z.string().regex(/^[a-z_:]+$/, 'must be an OAuth scope name')) }),
  z.strictObject({ kind: z.literal('fine-grained'), contents: z.enum(['read', 'write']) }),
]);
export type TokenGrant = z.output<typeof TokenGrant>;

/** The grant of a user's main `token` when the seed gives none: a classic token with `repo` and `read:org`. */
export const DEFAULT_TOKEN_GRANT: TokenGrant = Object.freeze({ kind: 'classic', scopes: Object.freeze(['repo', 'read:org']) as string[] });

/**
 * A user with a personal access token (`token`, with `grant`, by default {@link DEFAULT_TOKEN_GRANT}) the emulator
 * accepts as `Authorization: token <token>` or `Bearer <token>`, and optionally more `tokens` with their own grants.
 */
export const SeedUser = z.strictObject({
  id: AccountId,
  login: Login,
  token: TokenText,
  grant: TokenGrant.default(DEFAULT_TOKEN_GRANT),
  tokens: z.array(z.strictObject({ token: TokenText, grant: TokenGrant })).default([]),
  name: z.string().min(1).optional(),
  email: z.email().optional(),
  createdAt: Timestamp.optional(),
});

/**
 * An organisation. `defaultRepoPermission` is GitHub's base permission of members on every repo of the org
 * (`none` means members see only public repos and those they were granted); org admins are admin everywhere.
 */
export const SeedOrganization = z.strictObject({
  id: AccountId,
  login: Login,
  name: z.string().min(1).optional(),
  description: z.string().nullable().optional(),
  members: z.array(z.strictObject({ login: Login, role: z.enum(['admin', 'member']) })),
  defaultRepoPermission: z.enum(['none', 'read', 'write', 'admin']),
  createdAt: Timestamp.optional(),
});

/**
 * A repository owned by a user or an organisation (`owner` is its login). `collaborators` grants users a role.
 *
 * `files` holds file contents by ref then by path (`src/app.ts`, no leading slash): the text, a generated file
 * (`{ size, pattern }`, see `GeneratedFile` in `files.ts`) made on request and never held in memory whole, or a
 * submodule (`{ "gitlink": "<commit id>" }`, see `SeedGitlink` in `files.ts`: a tree entry of mode `160000`; name its
 * URL in a `.gitmodules` file as git does). Each key of `files` is a branch whose head is one root commit of those
 * files ("Initial commit"), except a key `tags/<name>`: the tag `<name>`, a lightweight ref `refs/tags/<name>` to a root
 * commit of those files (message "Release <name>"), on no branch.
 *
 * `tags` adds lightweight tags at the commit of another key of `files`: `{ "v4": "tags/v4.1.0", "nightly": "main" }`.
 * `releases` are GitHub releases of the repo's tags (see `SeedRelease`). Every commit is by the owner, dated the
 * repository's creation, so the same seed always gives the same commit ids.
 */
export const SeedRepo = z.strictObject({
  id: z.number().int().positive(),
  owner: Login,
  name: z.string().regex(/^[A-Za-z0-9._-]{1,100}$/, 'must be a repository name (letters, digits, `.`, `_`, `-`)'),
  private: z.boolean(),
  fork: z.boolean(),
  archived: z.boolean().default(false),
  defaultBranch: z.string().min(1),
  language: z.string().min(1).nullable(),
  description: z.string().nullable().optional(),
  collaborators: z.record(Login, RepoRole).default({}),
  files: z
    .record(
      z.string().min(1),
      z.record(z.string().regex(/^(?!\/)(?!.*\/\/)(?!.*\/$).+$/, 'must be a relative file path without empty segments'), SeedFile),
    )
    .default({}),
  tags: z.record(TagName, z.string().min(1)).default({}),
  releases: z.array(SeedRelease).default([]),
  createdAt: Timestamp.optional(),
});

/**
 * The emulator's rate limit per user: `limit` requests per `windowSeconds` (GitHub: 5 000 per hour). Once used up,
 * requests answer 403 `API rate limit exceeded` with `x-ratelimit-remaining: 0` until the window resets.
 */
export const SeedRateLimit = z.strictObject({
  limit: z.number().int().positive().default(5_000),
  windowSeconds: z.number().int().positive().default(3_600),
});

const levelRank: Record<PermissionLevel, number> = { read: 1, write: 2, admin: 3 };

/**
 * The whole seed: users, organisations, repositories, GitHub Apps and their installations, global security advisories
 * and the rate limit, cross-checked (see {@link parseSeed}).
 */
export const Seed = z
  .strictObject({
    users: z.array(SeedUser),
    organizations: z.array(SeedOrganization).default([]),
    repos: z.array(SeedRepo).default([]),
    apps: z.array(SeedApp).default([]),
    installations: z.array(SeedInstallation).default([]),
    advisories: z.array(SeedAdvisory).default([]),
    rateLimit: SeedRateLimit.default({ limit: 5_000, windowSeconds: 3_600 }),
  })
  .superRefine((seed, ctx) => {
    const issue = (path: (string | number)[], message: string) => ctx.addIssue({ code: 'custom', path, message });
    const accountIds = new Set<number>();
    const logins = new Map<string, 'user' | 'org'>();
    const tokens = new Set<string>();
    seed.users.forEach((user, i) => {
      if (accountIds.has(user.id)) issue(['users', i, 'id'], `duplicate account id ${user.id}`);
      if (logins.has(user.login.toLowerCase())) issue(['users', i, 'login'], `duplicate login ${user.login}`);
      if (tokens.has(user.token)) issue(['users', i, 'token'], 'duplicate token');
      accountIds.add(user.id);
      logins.set(user.login.toLowerCase(), 'user');
      tokens.add(user.token);
      user.tokens.forEach(({ token }, j) => {
        if (tokens.has(token)) issue(['users', i, 'tokens', j, 'token'], 'duplicate token');
        tokens.add(token);
      });
    });
    seed.organizations.forEach((org, i) => {
      if (accountIds.has(org.id)) issue(['organizations', i, 'id'], `duplicate account id ${org.id}`);
      if (logins.has(org.login.toLowerCase())) issue(['organizations', i, 'login'], `duplicate login ${org.login}`);
      accountIds.add(org.id);
      logins.set(org.login.toLowerCase(), 'org');
      org.members.forEach((member, j) => {
        if (logins.get(member.login.toLowerCase()) !== 'user')
          issue(['organizations', i, 'members', j, 'login'], `no user ${member.login}`);
      });
    });
    const repoIds = new Set<number>();
    const fullNames = new Set<string>();
    seed.repos.forEach((repo, i) => {
      const fullName = `${repo.owner}/${repo.name}`.toLowerCase();
      if (repoIds.has(repo.id)) issue(['repos', i, 'id'], `duplicate repository id ${repo.id}`);
      if (fullNames.has(fullName)) issue(['repos', i, 'name'], `duplicate repository ${repo.owner}/${repo.name}`);
      if (!logins.has(repo.owner.toLowerCase())) issue(['repos', i, 'owner'], `no user or organisation ${repo.owner}`);
      for (const login of Object.keys(repo.collaborators)) {
        if (logins.get(login.toLowerCase()) !== 'user') issue(['repos', i, 'collaborators', login], `no user ${login}`);
      }
      for (const [path, message] of tagProblems(repo)) issue(['repos', i, ...path], message);
      repoIds.add(repo.id);
      fullNames.add(fullName);
    });
    const apps = new Map<number, (typeof seed.apps)[number]>();
    const slugs = new Set<string>();
    const clientIds = new Set<string>();
    const botIds = new Set<number>();
    seed.apps.forEach((app, i) => {
      if (apps.has(app.id)) issue(['apps', i, 'id'], `duplicate app id ${app.id}`);
      if (slugs.has(app.slug)) issue(['apps', i, 'slug'], `duplicate app slug ${app.slug}`);
      if (clientIds.has(clientIdOf(app))) issue(['apps', i, 'clientId'], `duplicate client id ${clientIdOf(app)}`);
      const botId = botUserIdOf(app);
      if (accountIds.has(botId) || botIds.has(botId)) issue(['apps', i, 'botUserId'], `bot user id ${botId} is taken by another account`);
      if (!logins.has(app.owner.toLowerCase())) issue(['apps', i, 'owner'], `no user or organisation ${app.owner}`);
      for (const [field, message] of appKeyProblems(app)) issue(['apps', i, field], message);
      apps.set(app.id, app);
      slugs.add(app.slug);
      clientIds.add(clientIdOf(app));
      botIds.add(botId);
    });
    const installationIds = new Set<number>();
    const installed = new Set<string>();
    seed.installations.forEach((installation, i) => {
      if (installationIds.has(installation.id)) issue(['installations', i, 'id'], `duplicate installation id ${installation.id}`);
      installationIds.add(installation.id);
      if (!logins.has(installation.account.toLowerCase()))
        issue(['installations', i, 'account'], `no user or organisation ${installation.account}`);
      const app = apps.get(installation.appId);
      if (seed.apps.length > 0 && !app) issue(['installations', i, 'appId'], `no app ${installation.appId} in apps`);
      if (app && installation.appSlug !== undefined && installation.appSlug !== app.slug) {
        issue(['installations', i, 'appSlug'], `must be ${app.slug}, the slug of app ${app.id} (or left out)`);
      }
      const key = `${installation.appId}/${installation.account.toLowerCase()}`;
      if (installed.has(key))
        issue(['installations', i, 'account'], `app ${installation.appId} is already installed on ${installation.account}`);
      installed.add(key);
      for (const [name, level] of Object.entries(installation.permissions ?? {})) {
        const asked = app?.permissions[name];
        if (app && (asked === undefined || levelRank[level] > levelRank[asked])) {
          issue(['installations', i, 'permissions', name], `app ${app.id} asks for no ${name}: ${level} permission`);
        }
      }
      if (installation.repositorySelection === 'all' && installation.repositories.length > 0) {
        issue(['installations', i, 'repositories'], 'must be empty when repositorySelection is all');
      }
      installation.repositories.forEach((name, j) => {
        if (!fullNames.has(`${installation.account}/${name}`.toLowerCase())) {
          issue(['installations', i, 'repositories', j], `no repository ${installation.account}/${name}`);
        }
      });
    });
    const ghsaIds = new Set<string>();
    seed.advisories.forEach((advisory, i) => {
      if (ghsaIds.has(advisory.ghsaId)) issue(['advisories', i, 'ghsaId'], `duplicate advisory ${advisory.ghsaId}`);
      ghsaIds.add(advisory.ghsaId);
      if (Date.parse(advisory.updatedAt) < Date.parse(advisory.publishedAt)) {
        issue(['advisories', i, 'updatedAt'], 'must not be before publishedAt');
      }
    });
  });

/** A seed as written (defaults not applied yet), e.g. the JSON of a seed file. */
export type SeedInput = z.input<typeof Seed>;
/** A validated seed with defaults applied. */
export type ParsedSeed = z.output<typeof Seed>;
/** A user entry as written in a seed. */
export type SeedUserInput = z.input<typeof SeedUser>;
/** An organisation entry as written in a seed. */
export type SeedOrganizationInput = z.input<typeof SeedOrganization>;
export type { SeedAdvisoryInput } from './seed-advisories.ts';
export type { SeedAppInput } from './seed-apps.ts';
export type { SeedInstallationInput } from './seed-installations.ts';
export type { SeedReleaseInput } from './seed-releases.ts';
/** A repository entry as written in a seed (what {@link generateRepos} returns). */
export type SeedRepoInput = z.input<typeof SeedRepo>;

const format = seedFormat('GitHub emulator seed', Seed);

/** Thrown by {@link parseSeed} when a seed is invalid (service-kit's); `problems` lists every problem as `path: reason`. */
export { SeedError } from '@switchyard/service-kit';

/**
 * Validates a seed: shapes, and that account ids, logins (case-insensitively), tokens, repository ids and full names,
 * app ids, slugs, client ids and bot user ids, installation ids and GHSA ids are unique, that every member,
 * collaborator, owner, app owner and installation account exists, that an App's keys are RSA (2,048 bits or more) and
 * match, that an installation names an App of `apps` (when the seed has any), is the only one of its App on its account
 * and grants no permission its App does not ask for, that its selected repositories belong to its account, and that a
 * repo's tags and releases name what it has (see `tagProblems` in `seed-releases.ts`).
 * @throws SeedError listing every problem
 */
export function parseSeed(input: unknown, source = 'seed'): ParsedSeed {
  return format.parse(input, source);
}

/**
 * Reads and validates a JSON seed file.
 * @throws SeedError when the file is not valid JSON or not a valid seed; the fs error when it cannot be read
 */
export function loadSeedFile(path: string): ParsedSeed {
  return format.loadFile(path);
}

/** Absolute path of the bundled demo seed's main file (`demo-seed.json`: users alice and bob, orgs acme, globex and initech). */
export const DEMO_SEED_PATH = fileURLToPath(new URL('./demo-seed.json', import.meta.url));

/**
 * The directory of the demo seed's further parts (`demo-seeds/*.json`), each an object with any of `organizations` and
 * `repos` (entries added to the seed's) and `files` (`{ "<owner>/<repo>": { "<path>": <file> } }`: files added to that
 * repository's default branch, e.g. one package manager's directory of the `acme/polyglot` demo repo).
 */
export const DEMO_SEEDS_DIR = fileURLToPath(new URL('./demo-seeds/', import.meta.url));

/** A part of the demo seed as {@link DEMO_SEEDS_DIR} holds it. */
const DemoSeedPart = z.strictObject({
  organizations: z.array(z.unknown()).default([]),
  repos: z.array(z.unknown()).default([]),
  files: z.record(z.string(), z.record(z.string(), z.unknown())).default({}),
});

/**
 * The demo seed as written: `demo-seed.json` with every part of {@link DEMO_SEEDS_DIR} merged in (in file name order).
 * @throws SeedError when a file is not valid JSON, a part is not of the shape above, or its `files` name a repository
 *   the seed does not have
 */
export function demoSeedInput(): SeedInput {
  const seed = format.readJson(DEMO_SEED_PATH) as SeedInput & { repos: SeedRepoInput[] };
  for (const path of jsonFilesIn(DEMO_SEEDS_DIR)) {
    const read = DemoSeedPart.safeParse(format.readJson(path));
    if (!read.success) throw format.error(path, issueLines(read.error, '(part)'));
    seed.organizations = [...(seed.organizations ?? []), ...(read.data.organizations as SeedOrganizationInput[])];
    seed.repos = [...(seed.repos ?? []), ...(read.data.repos as SeedRepoInput[])];
    for (const [fullName, files] of Object.entries(read.data.files)) {
      const repo = seed.repos.find((r) => `${r.owner}/${r.name}`.toLowerCase() === fullName.toLowerCase());
      if (!repo) throw format.error(path, [`files: no repository ${fullName} in the demo seed`]);
      const branch = repo.defaultBranch;
      repo.files = { ...(repo.files ?? {}), [branch]: { ...(repo.files?.[branch] ?? {}), ...(files as Record<string, never>) } };
    }
  }
  return seed;
}

/** The bundled demo seed ({@link demoSeedInput}), validated. @throws SeedError as {@link parseSeed} does */
export function loadDemoSeed(): ParsedSeed {
  return parseSeed(demoSeedInput(), `${DEMO_SEED_PATH} and ${DEMO_SEEDS_DIR}*.json`);
}

const generatedLanguages = ['TypeScript', 'JavaScript', 'Python', 'Ruby', 'Go', 'Java', 'Rust', 'PHP', null] as const;

/** Options of {@link generateRepos}. */
export interface GenerateReposOptions {
  /** Repository names are `<namePrefix>-<n>` with n zero-padded from 1; default `repo`. */
  namePrefix?: string;
  /** `true`/`false` for all, or a function of the 0-based index; default: every third repo is private. */
  private?: boolean | ((index: number) => boolean);
  /** Files put on each repo's default branch (`main`), e.g. `{ 'package.json': '{}' }`. */
  files?: Record<string, string>;
}

/**
 * `count` repositories of `owner` (a user or organisation login) with ids `startId`, `startId + 1`, …, for seeds with
 * many repos (pagination tests). Languages rotate through a fixed list (including null); none is a fork or archived.
 * @returns seed repo entries to put in `repos`
 */
export function generateRepos(owner: string, count: number, startId: number, options: GenerateReposOptions = {}): SeedRepoInput[] {
  const prefix = options.namePrefix ?? 'repo';
  const width = String(count).length;
  const isPrivate = options.private ?? ((index: number) => index % 3 === 2);
  return Array.from({ length: count }, (_, index) => ({
    id: startId + index,
    owner,
    name: `${prefix}-${String(index + 1).padStart(width, '0')}`,
    private: typeof isPrivate === 'function' ? isPrivate(index) : isPrivate,
    fork: false,
    defaultBranch: 'main',
    language: generatedLanguages[index % generatedLanguages.length] ?? null,
    ...(options.files ? { files: { main: { ...options.files } } } : {}),
  }));
}
