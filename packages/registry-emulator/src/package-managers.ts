import { z } from 'zod';

/**
 * The package managers the emulator serves, by the names the dependency update service uses (Dependabot's):
 * `npm_and_yarn` (npm registry), `pip` (PyPI), `maven` (Maven repository, also what `gradle` builds resolve against),
 * `bundler` (RubyGems), `cargo` (crates.io), `composer` (Packagist), `docker` (an OCI distribution registry), `elm`
 * (the Elm package site), `hex` (hex.pm), `nuget` (a NuGet v3 feed), `go_modules` (a GOPROXY) and `terraform` (the
 * Terraform registry protocol). `submodules`, `dep` and `github_actions` take their versions from the code host (the
 * GitHub emulator), not from here.
 */
export const PackageManager = z.enum([
  'npm_and_yarn',
  'pip',
  'maven',
  'bundler',
  'cargo',
  'composer',
  'docker',
  'elm',
  'hex',
  'nuget',
  'go_modules',
  'terraform',
]);
export type PackageManager = z.output<typeof PackageManager>;

/** Every package manager, in a fixed order. */
export const PACKAGE_MANAGERS: readonly PackageManager[] = PackageManager.options;
