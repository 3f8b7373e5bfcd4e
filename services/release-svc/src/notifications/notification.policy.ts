import { PACKAGE_MANAGERS, type PackageManager, type ReleaseNotificationBody } from '@switchyard/contracts';

/**
 * What release-svc accepts of a release notification, decided on the values alone (no database, no HTTP): the
 * package manager after its aliases, then the length and characters of each field, then the name by its
 * ecosystem's rules. A notification that fails is still recorded, as `rejected` with the reasons.
 */

/** At most this many characters of each field are accepted (and stored, of a rejected notification). */
export const FIELD_LIMITS = { name: 300, version: 100, 'package-manager': 100 } as const;

/**
 * Names users type for a package manager, lowercase, mapped to the API's canonical one. Each is unambiguous among
 * `PACKAGE_MANAGERS`: the tool's own name or command (`npm`, `yarn`, `pnpm`, `pipenv`, `poetry`, `uv`, `mvn`, `bundle`,
 * `gem`, `gradlew`, `dotnet`, `mix`), Dependabot's own name of the ecosystem (`git_submodules`), or the
 * `package-ecosystem` value of Dependabot's current configuration file
 * (https://docs.github.com/en/code-security/dependabot/working-with-dependabot/dependabot-options-reference#package-ecosystem-:
 * `npm`, `gomod`, `github-actions`, `gitsubmodule`, `mix`). Language names (`go`, `java`, `rust`, `python`) are not
 * aliases: a language is not a package manager, and `go` or `java` would name two.
 */
export const PACKAGE_MANAGER_ALIASES: Readonly<Record<string, PackageManager>> = Object.freeze({
  npm: 'npm_and_yarn',
  yarn: 'npm_and_yarn',
  pnpm: 'npm_and_yarn',
  pipenv: 'pip',
  poetry: 'pip',
  uv: 'pip',
  mvn: 'maven',
  bundle: 'bundler',
  gem: 'bundler',
  gradlew: 'gradle',
  dotnet: 'nuget',
  gomod: 'go_modules',
  actions: 'github_actions',
  gitsubmodule: 'submodules',
  git_submodules: 'submodules',
  'git-submodules': 'submodules',
  mix: 'hex',
});

const CANONICAL: ReadonlySet<string> = new Set(PACKAGE_MANAGERS);

/**
 * The canonical package manager `sent` names: itself, case-insensitively and with `-` for `_` (`NPM_AND_YARN`,
 * `github-actions`), or one of {@link PACKAGE_MANAGER_ALIASES}; undefined when it names none.
 */
export function resolvePackageManager(sent: string): PackageManager | undefined {
  const key = sent.trim().toLowerCase();
  const underscored = key.replaceAll('-', '_');
  if (CANONICAL.has(underscored)) return underscored as PackageManager;
  return PACKAGE_MANAGER_ALIASES[key];
}

/** A name rule of one ecosystem: the pattern and what it asks for, as the reason says it. */
interface NameRule {
  pattern: RegExp;
  maxLength?: number;
  expected: string;
}

/**
 * The name rules checked, one per package manager. Kept to what the registries themselves require, so no real name is
 * refused.
 */
const NAME_RULES: Record<PackageManager, NameRule> = {
  // https://docs.npmjs.com/cli/v10/configuring-npm/package-json#name: at most 214 characters, URL-safe, no leading
  // `.` or `_`, optionally `@scope/`; old names may have capitals.
  npm_and_yarn: {
    pattern: /^(?:@[a-z0-9~-][a-z0-9._~-]*\/)?[a-z0-9~-][a-z0-9._~-]*$/i,
    maxLength: 214,
    expected: 'an npm package name (`name` or `@scope/name`, URL-safe characters, at most 214)',
  },
  // https://packaging.python.org/en/latest/specifications/name-normalization/: letters, digits, `.`, `_`, `-`,
  // starting and ending with a letter or digit.
  pip: {
    pattern: /^(?:[a-z0-9]|[a-z0-9][a-z0-9._-]*[a-z0-9])$/i,
    expected: 'a Python package name (letters, digits, `.`, `_` and `-`, starting and ending with a letter or digit)',
  },
  // Maven coordinates `groupId:artifactId`, each of letters, digits, `_`, `-` and `.`
  // (https://maven.apache.org/guides/mini/guide-naming-conventions.html); the pom reader finds dependencies by it.
  maven: {
    pattern: /^[A-Za-z0-9_.-]+:[A-Za-z0-9_.-]+$/,
    expected: 'a Maven groupId:artifactId',
  },
  // RubyGems: letters, digits, `.`, `-` and `_` (https://guides.rubygems.org/name-your-gem/).
  bundler: {
    pattern: /^[A-Za-z0-9._-]+$/,
    expected: 'a gem name (letters, digits, `.`, `_` and `-`)',
  },
  // crates.io: ASCII letters, digits, `-` and `_`, starting with a letter, at most 64
  // (https://doc.rust-lang.org/cargo/reference/manifest.html#the-name-field).
  cargo: {
    pattern: /^[A-Za-z][A-Za-z0-9_-]*$/,
    maxLength: 64,
    expected: 'a crate name (letters, digits, `-` and `_`, starting with a letter, at most 64)',
  },
  // https://getcomposer.org/doc/04-schema.md#name: `vendor/package` (compared case-insensitively).
  composer: {
    pattern: /^[a-z0-9](?:[_.-]?[a-z0-9]+)*\/[a-z0-9](?:(?:[_.]|-{1,2})?[a-z0-9]+)*$/i,
    expected: 'a Composer vendor/package name',
  },
  // An image's full path as FROM names it: an optional registry host (with a port), then lowercase path components
  // (https://github.com/distribution/reference/blob/main/reference.go): `python`, `ghcr.io/owner/img`, `localhost:5000/x`.
  docker: {
    pattern: /^(?:[A-Za-z0-9.-]+(?::\d+)?\/)?[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*$/,
    maxLength: 255,
    expected: 'an image name (`python`, `owner/image`, `registry.example.com:5000/team/image`)',
  },
  // https://github.com/elm/compiler/blob/master/docs/elm.json/package.md: `author/project`.
  elm: { pattern: /^[A-Za-z0-9-]+\/[a-z0-9-]+$/, expected: 'an Elm package name (`author/project`)' },
  // A submodule's repository as `<host>/<owner>/<repo>` (`github.com/acme/lib`), from its URL.
  submodules: {
    pattern: /^[A-Za-z0-9.-]+\.[A-Za-z]{2,}(?:\/[A-Za-z0-9._-]+){2,}$/,
    expected: 'a repository as host/owner/repo (`github.com/acme/lib`)',
  },
  // https://hex.pm/docs/publish: lowercase letters, digits and `_`, starting with a letter.
  hex: { pattern: /^[a-z][a-z0-9_]*$/, expected: 'a Hex package name (lowercase letters, digits and `_`, starting with a letter)' },
  gradle: { pattern: /^[A-Za-z0-9_.-]+:[A-Za-z0-9_.-]+$/, expected: 'a Maven groupId:artifactId' },
  // https://learn.microsoft.com/nuget/create-packages/package-authoring-best-practices#package-id: at most 100.
  nuget: { pattern: /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/, maxLength: 100, expected: 'a NuGet package id (letters, digits, `.`, `_`, `-`)' },
  // Go import paths of a project (`github.com/pkg/errors`): a host with a dot, then path elements.
  dep: {
    pattern: /^[A-Za-z0-9.-]+\.[A-Za-z]{2,}(?:\/[A-Za-z0-9._~-]+)+$/,
    expected: 'a Go import path (`github.com/owner/repo`)',
  },
  // https://go.dev/ref/mod#module-path: a first element with a dot, then path elements (`golang.org/x/text`, `example.com/m/v2`).
  go_modules: {
    pattern: /^[A-Za-z0-9.-]+\.[A-Za-z]{2,}(?:\/[A-Za-z0-9._~+-]+)*$/,
    expected: 'a Go module path (`golang.org/x/text`)',
  },
  // Providers `namespace/type` and modules `namespace/name/provider`, optionally after a registry host
  // (https://developer.hashicorp.com/terraform/language/providers/requirements#source-addresses).
  terraform: {
    pattern: /^(?:[A-Za-z0-9.-]+\.[A-Za-z]{2,}\/)?[A-Za-z0-9_-]+\/[A-Za-z0-9_-]+(?:\/[A-Za-z0-9_-]+)?$/,
    expected: 'a Terraform provider (`hashicorp/aws`) or module (`namespace/name/provider`)',
  },
  // An action's repository `owner/repo`, optionally with a path in it (`actions/aws/ec2`).
  github_actions: {
    pattern: /^[A-Za-z0-9](?:[A-Za-z0-9-]*)\/[A-Za-z0-9._-]+(?:\/[A-Za-z0-9._-]+)*$/,
    expected: 'an action as owner/repo (`actions/checkout`)',
  },
};

const hasControlCharacter = (value: string) => [...value].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);

/** The problem of one field's length or characters, or undefined. */
function fieldProblem(field: keyof typeof FIELD_LIMITS, value: string): string | undefined {
  if (value === '') return `${field} must not be empty`;
  if (value.length > FIELD_LIMITS[field]) return `${field} must be at most ${FIELD_LIMITS[field]} characters`;
  if (!value.isWellFormed() || hasControlCharacter(value)) return `${field} must not contain control characters`;
  return undefined;
}

/** A value as it may be stored and shown: well-formed, control characters as U+FFFD, at most `max` characters. */
function storable(value: string, max: number): string {
  return [...value.toWellFormed()]
    .map((c) => (c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f ? '\uFFFD' : c))
    .join('')
    .slice(0, max);
}

/** A notification release-svc scans: the values as sent (trimmed), the package manager canonical. */
export interface AcceptedNotification {
  status: 'accepted';
  name: string;
  version: string;
  packageManager: PackageManager;
}

/** A notification recorded but not scanned, with why; its values as far as they can be stored (see {@link judgeNotification}). */
export interface RejectedNotification {
  status: 'rejected';
  name: string;
  version: string;
  /** Canonical when it was known, else as sent. */
  packageManager: string;
  reason: string;
}

/**
 * Decides whether a notification (its fields trimmed, as the wire schema gives them) is scanned. Its package manager
 * is resolved first ({@link resolvePackageManager}); then every field must be non-empty, within
 * {@link FIELD_LIMITS} and free of control characters, and the name must fit its ecosystem's rule (npm, pip, Maven
 * `groupId:artifactId`, RubyGems, crates.io, Composer `vendor/package`, image paths, Go paths, ...). Every problem found
 * goes into the reason, joined with `; `. A rejected notification's values are made storable: lone surrogates and
 * control characters become U+FFFD, and each is cut to its limit.
 */
export function judgeNotification(body: ReleaseNotificationBody): AcceptedNotification | RejectedNotification {
  const sent = body['package-manager'];
  const packageManager = resolvePackageManager(sent);
  const problems: string[] = [];
  const pmProblem = fieldProblem('package-manager', sent);
  if (pmProblem) problems.push(pmProblem);
  else if (!packageManager) {
    problems.push(`unknown package manager "${sent}": must be one of ${PACKAGE_MANAGERS.join(', ')} or an alias of one`);
  }
  const nameProblem = fieldProblem('name', body.name);
  if (nameProblem) problems.push(nameProblem);
  const versionProblem = fieldProblem('version', body.version);
  if (versionProblem) problems.push(versionProblem);
  const rule = packageManager ? NAME_RULES[packageManager] : undefined;
  if (rule && !nameProblem && (!rule.pattern.test(body.name) || body.name.length > (rule.maxLength ?? Infinity))) {
    problems.push(`name "${body.name}" is not ${rule.expected}`);
  }
  if (problems.length === 0 && packageManager) {
    return { status: 'accepted', name: body.name, version: body.version, packageManager };
  }
  return {
    status: 'rejected',
    name: storable(body.name, FIELD_LIMITS.name),
    version: storable(body.version, FIELD_LIMITS.version),
    packageManager: packageManager ?? storable(sent, FIELD_LIMITS['package-manager']),
    reason: storable(problems.join('; '), 2_000),
  };
}
