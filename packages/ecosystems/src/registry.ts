import { PACKAGE_MANAGERS, type PackageManager } from '@switchyard/contracts';
import { bundler } from './bundler/ecosystem.ts';
import { cargo } from './cargo/ecosystem.ts';
import { composer } from './composer/ecosystem.ts';
import type { Ecosystem } from './ecosystem.ts';
import { UnsupportedPackageManagerError } from './errors.ts';
import { maven } from './maven/ecosystem.ts';
import { npmAndYarn } from './npm/ecosystem.ts';
import { pip } from './pip/ecosystem.ts';

const ECOSYSTEMS: ReadonlyMap<PackageManager, Ecosystem> = new Map(
  [npmAndYarn, pip, maven, bundler, cargo, composer].map((ecosystem) => [ecosystem.packageManager, ecosystem]),
);

/** The package managers {@link ecosystemFor} knows, in the order of the API's list (https://github.com/dependabot/api-docs). */
export const SUPPORTED_PACKAGE_MANAGERS: readonly PackageManager[] = Object.freeze(PACKAGE_MANAGERS.filter((pm) => ECOSYSTEMS.has(pm)));

/**
 * The ecosystem of a package manager: `npm_and_yarn`, `pip`, `maven`, `bundler`, `cargo`, `composer`;
 * undefined for the ten others (`docker`, `gradle`, `nuget`, `go_modules`, ...), which are not supported yet.
 */
export function ecosystemFor(packageManager: PackageManager): Ecosystem | undefined {
  return ECOSYSTEMS.get(packageManager);
}

/**
 * Like {@link ecosystemFor}, for callers that cannot go on without one.
 * @throws UnsupportedPackageManagerError for a package manager not in {@link SUPPORTED_PACKAGE_MANAGERS}
 */
export function requireEcosystem(packageManager: PackageManager): Ecosystem {
  const ecosystem = ECOSYSTEMS.get(packageManager);
  if (!ecosystem) throw new UnsupportedPackageManagerError(packageManager);
  return ecosystem;
}
