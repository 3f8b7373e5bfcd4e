import { PACKAGE_MANAGERS, type PackageManager } from '@switchyard/contracts';
import { bundler } from './bundler/ecosystem.ts';
import { cargo } from './cargo/ecosystem.ts';
import { composer } from './composer/ecosystem.ts';
import { dep } from './dep/ecosystem.ts';
import { docker } from './docker/ecosystem.ts';
import type { Ecosystem } from './ecosystem.ts';
import { elm } from './elm/ecosystem.ts';
import { UnsupportedPackageManagerError } from './errors.ts';
import { githubActions } from './github-actions/ecosystem.ts';
import { goModules } from './go/ecosystem.ts';
import { gradle } from './gradle/ecosystem.ts';
import { hex } from './hex/ecosystem.ts';
import { maven } from './maven/ecosystem.ts';
import { npmAndYarn } from './npm/ecosystem.ts';
import { nuget } from './nuget/ecosystem.ts';
import { pip } from './pip/ecosystem.ts';
import { submodules } from './submodules/ecosystem.ts';
import { terraform } from './terraform/ecosystem.ts';

const ECOSYSTEMS: ReadonlyMap<PackageManager, Ecosystem> = new Map(
  [
    npmAndYarn,
    pip,
    maven,
    bundler,
    cargo,
    composer,
    docker,
    terraform,
    githubActions,
    submodules,
    gradle,
    nuget,
    goModules,
    dep,
    hex,
    elm,
  ].map((ecosystem) => [ecosystem.packageManager, ecosystem]),
);

/** The package managers {@link ecosystemFor} knows, in the order of the API's list (https://github.com/dependabot/api-docs). */
export const SUPPORTED_PACKAGE_MANAGERS: readonly PackageManager[] = Object.freeze(PACKAGE_MANAGERS.filter((pm) => ECOSYSTEMS.has(pm)));

/**
 * The ecosystem of a package manager: every one of the API's sixteen has one; undefined only for a value that is not a
 * package manager (a caller that took it from outside).
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
