import type { PACKAGE_MANAGERS } from './vocabulary.ts';

/**
 * The advisory databases' names of our package managers' ecosystems, as plain constants without zod: GitHub's advisory
 * database (what code-host asks, what the GitHub emulator serves) and OSV (what release-svc imports).
 */

type PackageManagerName = (typeof PACKAGE_MANAGERS)[number];

/**
 * The ecosystems of GitHub's advisory database, as `GET /advisories?ecosystem=` and `vulnerabilities[].package.ecosystem`
 * name them (https://docs.github.com/rest/security-advisories/global-advisories#list-global-security-advisories): `rust`
 * is crates.io, `erlang` Hex, `actions` GitHub Actions.
 */
export const ADVISORY_ECOSYSTEMS = [
  'rubygems',
  'npm',
  'pip',
  'maven',
  'nuget',
  'composer',
  'go',
  'rust',
  'erlang',
  'actions',
  'pub',
  'other',
  'swift',
] as const;

/** An ecosystem of GitHub's advisory database (one of {@link ADVISORY_ECOSYSTEMS}). */
export type AdvisoryEcosystem = (typeof ADVISORY_ECOSYSTEMS)[number];

/**
 * The advisory-database ecosystem of each of our package managers (the `package-manager` values of update configs):
 * npm_and_yarn → npm, pip → pip, maven and gradle → maven, bundler → rubygems, cargo → rust, composer → composer,
 * nuget → nuget, go_modules and dep → go, hex → erlang, github_actions → actions. Package managers without an advisory
 * ecosystem (docker, terraform, submodules, elm) are absent.
 */
export const ADVISORY_ECOSYSTEM_BY_PACKAGE_MANAGER = Object.freeze({
  npm_and_yarn: 'npm',
  pip: 'pip',
  maven: 'maven',
  gradle: 'maven',
  bundler: 'rubygems',
  cargo: 'rust',
  composer: 'composer',
  nuget: 'nuget',
  go_modules: 'go',
  dep: 'go',
  hex: 'erlang',
  github_actions: 'actions',
} as const satisfies Partial<Record<PackageManagerName, AdvisoryEcosystem>>);

/** A package manager that has an advisory ecosystem (a key of {@link ADVISORY_ECOSYSTEM_BY_PACKAGE_MANAGER}). */
export type PackageManagerWithAdvisories = keyof typeof ADVISORY_ECOSYSTEM_BY_PACKAGE_MANAGER;

/**
 * The advisory ecosystem of `packageManager`, or undefined when it has none (`docker`) or is not a package manager
 * (any string is accepted: an inherited property name such as `toString` is none either).
 */
export function advisoryEcosystemOf(packageManager: string): AdvisoryEcosystem | undefined {
  return Object.hasOwn(ADVISORY_ECOSYSTEM_BY_PACKAGE_MANAGER, packageManager)
    ? ADVISORY_ECOSYSTEM_BY_PACKAGE_MANAGER[packageManager as PackageManagerWithAdvisories]
    : undefined;
}

/**
 * The OSV ecosystem name of a package manager (the `affected[].package.ecosystem` of an OSV record,
 * https://ossf.github.io/osv-schema/#affectedpackage-field; case-sensitive) of the six package managers whose OSV
 * records are imported (release-svc's `advisories:import`). Others are absent.
 */
export const OSV_ECOSYSTEMS = Object.freeze({
  npm_and_yarn: 'npm',
  pip: 'PyPI',
  maven: 'Maven',
  bundler: 'RubyGems',
  cargo: 'crates.io',
  composer: 'Packagist',
} as const satisfies Partial<Record<PackageManagerName, string>>);
