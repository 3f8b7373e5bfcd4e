/**
 * The names each vocabulary gives a package manager and a versioning strategy: v1 `package_manager`, the API's
 * `package-manager` (`@switchyard/contracts` PACKAGE_MANAGERS, https://github.com/dependabot/api-docs) and `language`,
 * v2 `package-ecosystem` (SchemaStore's schemas; dependabot-core's `PACKAGE_MANAGER_LOOKUP` in
 * `common/lib/dependabot/config/file.rb`, https://github.com/dependabot/dependabot-core).
 */
import { LANGUAGE_OF, type PackageManager } from '@switchyard/contracts';
import type { VersioningStrategy } from './model.ts';

/** v1 `package_manager` → the API's package manager: all sixteen v1 values have one. */
export const V1_PACKAGE_MANAGERS: Readonly<Record<string, PackageManager>> = {
  javascript: 'npm_and_yarn',
  'ruby:bundler': 'bundler',
  'php:composer': 'composer',
  python: 'pip',
  'go:modules': 'go_modules',
  'go:dep': 'dep',
  'java:maven': 'maven',
  'java:gradle': 'gradle',
  'dotnet:nuget': 'nuget',
  'rust:cargo': 'cargo',
  'elixir:hex': 'hex',
  docker: 'docker',
  terraform: 'terraform',
  submodules: 'submodules',
  elm: 'elm',
  github_actions: 'github_actions',
};

/**
 * v2 `package-ecosystem` → the API's package manager, for the fifteen ecosystems of the 2020–21 GitHub-native list.
 * The later ones (`bun`, `uv`, `helm`, `docker-compose`, `pub`, `swift`, …) have no package manager here: their entries
 * are skipped.
 */
export const V2_ECOSYSTEMS: Readonly<Record<string, PackageManager>> = {
  bundler: 'bundler',
  cargo: 'cargo',
  composer: 'composer',
  docker: 'docker',
  elm: 'elm',
  'github-actions': 'github_actions',
  gitsubmodule: 'submodules',
  gomod: 'go_modules',
  gradle: 'gradle',
  maven: 'maven',
  mix: 'hex',
  npm: 'npm_and_yarn',
  nuget: 'nuget',
  pip: 'pip',
  terraform: 'terraform',
};

/**
 * The API's package manager → v2 `package-ecosystem`; undefined for `dep`, which GitHub-native Dependabot never
 * supported.
 */
export function ecosystemOf(packageManager: PackageManager): string | undefined {
  for (const [ecosystem, manager] of Object.entries(V2_ECOSYSTEMS)) if (manager === packageManager) return ecosystem;
  return undefined;
}

/** The API's `language` for a package manager (`npm_and_yarn` → `javascript`, `hex` → `elixir`, `docker` → `docker`). */
export function languageOf(packageManager: PackageManager): string {
  return LANGUAGE_OF[packageManager];
}

/** v1 `version_requirement_updates` → v2 `versioning-strategy`, paired by meaning: no source pairs them. */
export const V1_VERSIONING: Readonly<Record<string, VersioningStrategy>> = {
  off: 'lockfile-only',
  auto: 'auto',
  widen_ranges: 'widen',
  increase_versions: 'increase',
  increase_versions_if_necessary: 'increase-if-necessary',
};
