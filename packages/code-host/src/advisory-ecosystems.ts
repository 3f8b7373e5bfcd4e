import type { AdvisoryEcosystem } from './port.ts';

/**
 * The advisory-database ecosystem (GitHub's `ecosystem` of `GET /advisories`,
 * https://docs.github.com/rest/security-advisories/global-advisories#list-global-security-advisories) of each of our
 * package managers (the `package-manager` values of update configs): npm_and_yarn → npm, pip → pip, maven and gradle →
 * maven, bundler → rubygems, cargo → rust, composer → composer, nuget → nuget, go_modules and dep → go, hex → erlang,
 * github_actions → actions. Package managers without an advisory ecosystem (docker, terraform, submodules, elm) are
 * absent.
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
} as const satisfies Record<string, AdvisoryEcosystem>);

/** A package manager that has an advisory ecosystem (a key of {@link ADVISORY_ECOSYSTEM_BY_PACKAGE_MANAGER}). */
export type PackageManagerWithAdvisories = keyof typeof ADVISORY_ECOSYSTEM_BY_PACKAGE_MANAGER;

/** The advisory ecosystem of `packageManager`, or undefined when it has none (e.g. `docker`). */
export function advisoryEcosystemOf(packageManager: string): AdvisoryEcosystem | undefined {
  return Object.hasOwn(ADVISORY_ECOSYSTEM_BY_PACKAGE_MANAGER, packageManager)
    ? ADVISORY_ECOSYSTEM_BY_PACKAGE_MANAGER[packageManager as PackageManagerWithAdvisories]
    : undefined;
}
