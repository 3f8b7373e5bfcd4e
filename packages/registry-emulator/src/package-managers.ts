import { z } from 'zod';

/**
 * The package managers the emulator serves, by the names the dependency update service uses (Dependabot's):
 * `npm_and_yarn` (npm registry), `pip` (PyPI), `maven` (Maven repository), `bundler` (RubyGems), `cargo`
 * (crates.io) and `composer` (Packagist).
 */
export const PackageManager = z.enum(['npm_and_yarn', 'pip', 'maven', 'bundler', 'cargo', 'composer']);
export type PackageManager = z.output<typeof PackageManager>;

/** Every package manager, in a fixed order. */
export const PACKAGE_MANAGERS: readonly PackageManager[] = PackageManager.options;
