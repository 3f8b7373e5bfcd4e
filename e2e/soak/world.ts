import { readFileSync } from 'node:fs';
import type { AutomergeRule, PackageManager, UpdateSchedule } from '@switchyard/contracts';

/**
 * The world the soak keeps running: the demo users, the update configs it makes on the demo repositories (all sixteen
 * package managers: acme/polyglot's ten directories beyond the first six, the other demo repos' npm, pip and Bundler
 * manifests, and the e2e fixtures of Maven, Cargo and Composer committed into acme/polyglot), and the packages whose
 * new versions it releases.
 */

/** A demo user of the GitHub emulator, by token. */
export interface Person {
  login: 'alice' | 'bob';
  token: string;
}

export const ALICE: Person = { login: 'alice', token: 'demo-token-alice' };
export const BOB: Person = { login: 'bob', token: 'demo-token-bob' };
/** The demo bot account's token (personal-token mode's bot), which also makes the upstream repositories' releases (acme-oss). */
export const BOT_TOKEN = 'demo-token-bot';
/** The login the worker acts as on the launcher and on compose: the demo App's bot user (the worker runs in App mode). */
export const BOT_LOGIN = 'switchyard[bot]';

/** A demo repository a config is on. */
export interface RepoPlan {
  id: number;
  fullName: string;
  /** Its default branch. */
  defaultBranch: string;
  /** Another branch a person may retarget configs to (made at setup unless `existing`). */
  otherBranch: { name: string; existing: boolean };
  /** Who acts on it: the organisation's admin or member. */
  person: Person;
  /** The organisation (the account of its configs). */
  accountId: string;
}

/** A repository plan on `main`, whose other branch is `release` (made at setup) unless given. */
const onMain = (
  id: number,
  fullName: string,
  person: Person,
  accountId: string,
  otherBranch: RepoPlan['otherBranch'] = { name: 'release', existing: false },
): RepoPlan => ({ id, fullName, defaultBranch: 'main', otherBranch, person, accountId });

const POLYGLOT = onMain(3106, 'acme/polyglot', ALICE, '2001');
const STOREFRONT = onMain(3101, 'acme/web-storefront', ALICE, '2001', { name: 'develop', existing: true });
const BILLING = onMain(3102, 'acme/billing-api', ALICE, '2001');
const PIPELINE = onMain(3103, 'acme/data-pipeline', ALICE, '2001');
const ANALYTICS = onMain(3201, 'globex/analytics', ALICE, '2002');
const OFFICE_SPACE = onMain(3303, 'initech/office-space', BOB, '2003');

/** The repositories the soak's configs are on. */
export const REPOS: readonly RepoPlan[] = [POLYGLOT, STOREFRONT, BILLING, PIPELINE, ANALYTICS, OFFICE_SPACE];

/** Someone who may read a repository of the soak (and comment on its pull requests) but not push to it. */
export interface Reader {
  repo: RepoPlan;
  person: Person;
}

/**
 * The readers among the demo users: alice on initech/office-space, a public repository of initech, whose members (bob)
 * write to its repositories; alice is no member of initech, so she reads it and may comment, without push access.
 * (The demo seed has no other: bob is no member of acme or globex, whose repositories of the soak are private.)
 */
export const READERS: readonly Reader[] = [{ repo: OFFICE_SPACE, person: ALICE }];

/** The paths of the config files the soak pushes: Dependabot Preview's (version 1) and GitHub-native Dependabot's (2). */
export type ConfigFilePath = '.dependabot/config.yml' | '.github/dependabot.yml';

/**
 * A repository that gets a config file during the run, pushed by its person, saying what its configs are then (so the
 * configs stay what the soak knows): when, as a fraction of the run's days, and, for one, an invalid version later,
 * fixed after a while. The fractions keep clear of the faults' (about a quarter, a half and three quarters in).
 */
export interface ConfigFilePlan {
  repo: RepoPlan;
  path: ConfigFilePath;
  /** The fraction of the run at which the file is pushed. */
  at: number;
  /** When an invalid version replaces it, and when a valid one replaces that (fractions of the run). */
  invalid?: { at: number; fixedAt: number };
}

/**
 * The config files: acme/billing-api's `.dependabot/config.yml` (version 1, which holds the automerge rules), and
 * initech/office-space's `.github/dependabot.yml` (version 2, which has none: its config's rules become `never`), made
 * invalid (an `hourly` schedule) for a while.
 */
export const CONFIG_FILES: readonly ConfigFilePlan[] = [
  { repo: BILLING, path: '.dependabot/config.yml', at: 0.15 },
  { repo: OFFICE_SPACE, path: '.github/dependabot.yml', at: 0.35, invalid: { at: 0.4, fixedAt: 0.6 } },
];

/**
 * An organisation, its admin among the demo users (who alone may change its settings: alice is an admin of acme only;
 * globex and initech keep config-svc's defaults, 05:00 UTC and Monday), and the settings it starts with.
 */
export interface AccountPlan {
  id: string;
  login: string;
  admin: Person | undefined;
  settings: Record<string, string | boolean>;
}

/** The organisations of the configs; acme's runs come at another hour than the others'. */
export const ACCOUNTS: readonly AccountPlan[] = [
  { id: '2001', login: 'acme', admin: ALICE, settings: { 'update-run-time': '09:30', 'weekly-update-run-day': 'wednesday' } },
  { id: '2002', login: 'globex', admin: undefined, settings: {} },
  { id: '2003', login: 'initech', admin: undefined, settings: {} },
];

/** One update config the soak makes. */
export interface ConfigPlan {
  /** `<repo>:<package manager>:<directory>`, the soak's name for it. */
  key: string;
  repo: RepoPlan;
  packageManager: PackageManager;
  directory: string;
  schedule: Extract<UpdateSchedule, 'daily' | 'weekly' | 'live'>;
  automerge: { runtime: AutomergeRule; development: AutomergeRule };
  /** An e2e fixture directory (e2e/fixtures/pull-requests/<name>) committed at `directory` at setup. */
  fixture?: { name: string; files: readonly string[] };
  /** Its dependency groups, as the API takes them (`groups`: one pull request per group). */
  groups?: readonly { name: string; patterns: readonly string[] }[];
}

const plan = (
  repo: RepoPlan,
  packageManager: PackageManager,
  directory: string,
  schedule: ConfigPlan['schedule'],
  runtime: AutomergeRule,
  development: AutomergeRule,
  fixture?: ConfigPlan['fixture'],
): ConfigPlan => ({
  key: `${repo.fullName}:${packageManager}:${directory}`,
  repo,
  packageManager,
  directory,
  schedule,
  automerge: { runtime, development },
  ...(fixture ? { fixture } : {}),
});

/**
 * The configs: every package manager at least once, daily and weekly, with a mix of automerge rules; two group some of
 * their dependencies (React's packages, and numpy with pandas, whose group is merged automatically when its updates
 * are minor or patch).
 */
export const CONFIGS: readonly ConfigPlan[] = [
  {
    ...plan(STOREFRONT, 'npm_and_yarn', '/', 'daily', 'semver:patch', 'never'),
    groups: [{ name: 'react-packages', patterns: ['react*'] }],
  },
  plan(BILLING, 'bundler', '/', 'weekly', 'semver:minor', 'all'),
  { ...plan(PIPELINE, 'pip', '/', 'daily', 'semver:minor', 'never'), groups: [{ name: 'science', patterns: ['numpy', 'pandas'] }] },
  plan(ANALYTICS, 'pip', '/', 'daily', 'all', 'all'),
  plan(OFFICE_SPACE, 'bundler', '/', 'daily', 'never', 'semver:patch'),
  plan(POLYGLOT, 'docker', '/docker', 'daily', 'never', 'never'),
  plan(POLYGLOT, 'gradle', '/gradle', 'weekly', 'semver:minor', 'semver:patch'),
  plan(POLYGLOT, 'nuget', '/nuget', 'daily', 'all', 'all'),
  plan(POLYGLOT, 'go_modules', '/go', 'daily', 'semver:patch', 'never'),
  plan(POLYGLOT, 'terraform', '/terraform', 'weekly', 'never', 'never'),
  plan(POLYGLOT, 'hex', '/hex', 'daily', 'semver:minor', 'all'),
  plan(POLYGLOT, 'elm', '/elm', 'weekly', 'all', 'never'),
  plan(POLYGLOT, 'dep', '/dep', 'daily', 'never', 'never'),
  plan(POLYGLOT, 'github_actions', '/', 'daily', 'semver:patch', 'semver:patch'),
  plan(POLYGLOT, 'submodules', '/', 'weekly', 'never', 'never'),
  plan(POLYGLOT, 'maven', '/maven', 'daily', 'semver:patch', 'all', { name: 'maven', files: ['pom.xml'] }),
  plan(POLYGLOT, 'cargo', '/cargo', 'daily', 'all', 'all', { name: 'cargo', files: ['Cargo.toml', 'Cargo.lock'] }),
  plan(POLYGLOT, 'composer', '/composer', 'weekly', 'semver:minor', 'never', {
    name: 'composer',
    files: ['composer.json', 'composer.lock'],
  }),
];

/** Where a package's versions come from, and so how a new one is released. */
export type PackageSource =
  /** The registry emulator (`POST /admin/publish`), under its package manager's name for it. */
  | { kind: 'registry'; registry: string; name: string; docker?: { suffix: string; parts: number } }
  /** Tags of a repository of the code host (dep, GitHub Actions), made by the bot, which may write there. */
  | { kind: 'tags'; repo: string; style: 'dep' | 'action' }
  /** A branch head of a repository of the code host (a submodule that follows `main`). */
  | { kind: 'branch'; repo: string; branch: string };

/** A package the soak releases new versions of, and the configs whose manifests use it. */
export interface ReleasePackage {
  /** A stable name for the report, `<source>:<name>`. */
  key: string;
  /** The package manager whose version syntax its versions follow (`maven` for Gradle's packages). */
  versionsOf: PackageManager;
  source: PackageSource;
  /** The configs using it (by `ConfigPlan.key`). */
  usedBy: readonly string[];
}

const registry = (pm: PackageManager, name: string, usedBy: readonly string[], docker?: { suffix: string; parts: number }) =>
  ({
    key: `${pm}:${name}`,
    versionsOf: pm,
    source: { kind: 'registry', registry: pm, name, ...(docker ? { docker } : {}) },
    usedBy,
  }) as const satisfies ReleasePackage;

/** The key of the config of `pm` in `directory` (of acme/polyglot unless `repo` says otherwise). */
const key = (pm: PackageManager, directory: string, repo: RepoPlan = POLYGLOT) =>
  `${repo.fullName}:${pm}:${directory}` satisfies ConfigPlan['key'];
const storefrontNpm = key('npm_and_yarn', '/', STOREFRONT);
const billingGems = key('bundler', '/', BILLING);
const officeGems = key('bundler', '/', OFFICE_SPACE);
const pipelinePip = key('pip', '/', PIPELINE);
const analyticsPip = key('pip', '/', ANALYTICS);

/** Every package released during the run. */
export const PACKAGES: readonly ReleasePackage[] = [
  ...['express', 'lodash', 'react', 'react-dom', 'jest', 'typescript'].map((n) => registry('npm_and_yarn', n, [storefrontNpm])),
  ...['rails', 'pg', 'puma', 'stripe', 'rspec-rails'].map((n) => registry('bundler', n, [billingGems])),
  ...['sinatra', 'nokogiri'].map((n) => registry('bundler', n, [officeGems])),
  ...['requests', 'numpy', 'pandas', 'Django'].map((n) => registry('pip', n, [pipelinePip])),
  ...['Flask', 'SQLAlchemy'].map((n) => registry('pip', n, [analyticsPip])),
  registry('maven', 'org.apache.commons:commons-lang3', [key('maven', '/maven'), key('gradle', '/gradle')]),
  registry('maven', 'junit:junit', [key('maven', '/maven'), key('gradle', '/gradle')]),
  registry('maven', 'com.google.guava:guava', [key('gradle', '/gradle')]),
  registry('maven', 'com.squareup.okhttp3:okhttp', [key('gradle', '/gradle')]),
  registry('cargo', 'serde', [key('cargo', '/cargo')]),
  registry('composer', 'monolog/monolog', [key('composer', '/composer')]),
  registry('docker', 'library/python', [key('docker', '/docker')], { suffix: '-slim', parts: 2 }),
  registry('docker', 'library/nginx', [key('docker', '/docker')], { suffix: '-alpine', parts: 2 }),
  registry('docker', 'library/node', [key('docker', '/docker')], { suffix: '-alpine', parts: 2 }),
  ...['Newtonsoft.Json', 'Serilog', 'Serilog.Sinks.Console'].map((n) => registry('nuget', n, [key('nuget', '/nuget')])),
  ...['github.com/acme-oss/uuid', 'github.com/acme-oss/i18n'].map((n) => registry('go_modules', n, [key('go_modules', '/go')])),
  ...['hashicorp/aws', 'hashicorp/random', 'terraform-aws-modules/vpc/aws'].map((n) =>
    registry('terraform', n, [key('terraform', '/terraform')]),
  ),
  ...['jason', 'telemetry', 'ex_doc'].map((n) => registry('hex', n, [key('hex', '/hex')])),
  ...['elm/browser', 'elm/core', 'elm/http', 'elm/json'].map((n) => registry('elm', n, [key('elm', '/elm')])),
  {
    key: 'tags:acme-oss/errors',
    versionsOf: 'dep',
    source: { kind: 'tags', repo: 'acme-oss/errors', style: 'dep' },
    usedBy: [key('dep', '/dep')],
  },
  {
    key: 'branch:acme-oss/errors@main',
    versionsOf: 'submodules',
    source: { kind: 'branch', repo: 'acme-oss/errors', branch: 'main' },
    usedBy: [key('submodules', '/')],
  },
  ...['acme-oss/checkout', 'acme-oss/setup-tool'].map(
    (repo): ReleasePackage => ({
      key: `tags:${repo}`,
      versionsOf: 'github_actions',
      source: { kind: 'tags', repo, style: 'action' },
      usedBy: [key('github_actions', '/')],
    }),
  ),
];

/** The text of an e2e fixture file (e2e/fixtures/pull-requests/<directory>/<file>). */
export function fixtureText(directory: string, file: string): string {
  return readFileSync(new URL(`../fixtures/pull-requests/${directory}/${file}`, import.meta.url), 'utf8');
}

/** The repository plan of `fullName`. @throws Error for a repository the soak does not use */
export function repoPlan(fullName: string): RepoPlan {
  const found = REPOS.find((r) => r.fullName === fullName);
  if (!found) throw new Error(`not a repository of the soak: ${fullName}`);
  return found;
}
