/**
 * The dependency update API's fixed vocabularies (package managers, schedules, automerge rules, week days, job statuses,
 * registry credential kinds, the open pull-request limit) as plain constants, without zod: the wire schemas build on them, and a browser bundle
 * (the dashboard) imports them from `@switchyard/contracts/vocabulary` without the schemas.
 */

/** Package managers the API accepts (https://github.com/dependabot/api-docs, `POST /update_configs`). */
export const PACKAGE_MANAGERS = [
  'bundler',
  'composer',
  'docker',
  'maven',
  'npm_and_yarn',
  'elm',
  'submodules',
  'hex',
  'cargo',
  'gradle',
  'nuget',
  'dep',
  'go_modules',
  'pip',
  'terraform',
  'github_actions',
] as const;

/**
 * The package managers an update config may schedule `live`: those whose registry publishes, per package, one document
 * that can be watched with conditional requests (an npm packument, PyPI's JSON, `maven-metadata.xml` for `maven` and
 * `gradle`, RubyGems' versions, a crates.io index file, Packagist's p2 file, a NuGet flat-container index, hex.pm's
 * package, a GOPROXY `@v/list`, a Terraform registry's versions, Elm's `releases.json`). The original offered `live` for
 * JS, Ruby, Python, PHP, .NET, Rust and Elixir; these are those seven and the five more we can watch the same way. Not
 * `docker` (Docker Hub limits anonymous requests and its tag lists carry no validators), nor `submodules`, `dep` and
 * `github_actions`, whose versions are the code host's tags and branches, polled only at scheduled runs.
 */
export const LIVE_PACKAGE_MANAGERS = [
  'npm_and_yarn',
  'bundler',
  'pip',
  'composer',
  'nuget',
  'cargo',
  'hex',
  'maven',
  'gradle',
  'go_modules',
  'terraform',
  'elm',
] as const satisfies readonly (typeof PACKAGE_MANAGERS)[number][];

export const UPDATE_SCHEDULES = ['live', 'daily', 'weekly', 'monthly'] as const;

export const AUTOMERGE_RULES = ['never', 'security:patch', 'semver:patch', 'semver:minor', 'in_range', 'all'] as const;

export const ACCOUNT_TYPES = ['org', 'user'] as const;

export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;

/**
 * A pull-request job's status: `pending` until a worker takes it, `running`, `queued-limit` while the config has as many
 * open pull requests as `limit-open-pull-requests` allows, `open` (its pull request), then `merged`, `closed` (unmerged:
 * by a person, whose decision makes that version ignored for the config until the pull request is reopened, or by this
 * service when the change is not needed any more; `status-reason` says which), `superseded` (a newer version's job
 * replaced it), `failed` (with the reason) or `vanished` (its pull request is gone from the code host, or the number now
 * names another one: the next run proposes the update again).
 */
export const PULL_REQUEST_JOB_STATUSES = [
  'pending',
  'running',
  'queued-limit',
  'open',
  'merged',
  'closed',
  'superseded',
  'failed',
  'vanished',
] as const;

/**
 * The package managers a private registry can be registered for: those whose versions come from a package registry
 * that can be private (an npm registry, a PyPI index, a Maven repository for `maven` and `gradle`, a gem server, a
 * Cargo registry, a Composer repository, a Docker registry, a NuGet feed, a Hex repository, a GOPROXY, a Terraform
 * registry). Not `elm` (one public package site), nor `submodules`, `dep` and `github_actions`, whose versions come from
 * the code host with the service's own token.
 */
export const REGISTRY_CREDENTIAL_PACKAGE_MANAGERS = [
  'npm_and_yarn',
  'pip',
  'maven',
  'bundler',
  'cargo',
  'composer',
  'docker',
  'hex',
  'gradle',
  'nuget',
  'go_modules',
  'terraform',
] as const satisfies readonly (typeof PACKAGE_MANAGERS)[number][];

/** How the registry is authenticated: a bearer `token`, or HTTP `basic` with a username and password. */
export const REGISTRY_AUTH_TYPES = ['token', 'basic'] as const;

/**
 * Open update pull requests a config has at most when its account sets `limit-open-pull-requests` (Dependabot
 * Preview's 5): release-svc holds further jobs as `queued-limit`, and the dashboard draws the limit.
 */
export const OPEN_PULL_REQUEST_LIMIT = 5;
