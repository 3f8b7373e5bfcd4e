import type { PackageManager } from '@switchyard/contracts';
import { type CratesRegistryOptions, createCratesRegistry, DEFAULT_CRATES_URL } from './adapters/crates.ts';
import { createMavenRegistry, DEFAULT_MAVEN_URL, type MavenRegistryOptions } from './adapters/maven.ts';
import { createNpmRegistry, DEFAULT_NPM_URL } from './adapters/npm.ts';
import { createPackagistRegistry, DEFAULT_PACKAGIST_URL } from './adapters/packagist.ts';
import { createPypiRegistry, DEFAULT_PYPI_URL } from './adapters/pypi.ts';
import { createRubyGemsRegistry, DEFAULT_RUBYGEMS_URL } from './adapters/rubygems.ts';
import type { RegistryAdapterOptions } from './http/registry-http.ts';
import type { PackageRegistry } from './port.ts';

/** The package managers this package has a registry adapter for (the six the ecosystems package parses). */
export const REGISTRY_PACKAGE_MANAGERS = [
  'npm_and_yarn',
  'pip',
  'maven',
  'bundler',
  'cargo',
  'composer',
] as const satisfies readonly PackageManager[];
export type RegistryPackageManager = (typeof REGISTRY_PACKAGE_MANAGERS)[number];

/** Each package manager's public registry, the default base URL of its adapter. */
export const DEFAULT_REGISTRY_URLS: Readonly<Record<RegistryPackageManager, string>> = Object.freeze({
  npm_and_yarn: DEFAULT_NPM_URL,
  pip: DEFAULT_PYPI_URL,
  maven: DEFAULT_MAVEN_URL,
  bundler: DEFAULT_RUBYGEMS_URL,
  cargo: DEFAULT_CRATES_URL,
  composer: DEFAULT_PACKAGIST_URL,
});

/** Options of {@link registryFor}: the adapter's, plus Maven's and crates.io's own where they apply. */
export type RegistryForOptions = RegistryAdapterOptions &
  Pick<MavenRegistryOptions, 'detailedVersions'> &
  Pick<CratesRegistryOptions, 'apiUrl'>;

/**
 * The registry adapter of `packageManager`: the npm registry (`npm_and_yarn`), PyPI (`pip`), a Maven repository, RubyGems
 * (`bundler`), crates.io's sparse index (`cargo`) or Packagist (`composer`), at `options.baseUrl` (default its public
 * registry, {@link DEFAULT_REGISTRY_URLS}) with `options.credentials`.
 * @returns undefined for a package manager without an adapter (`docker`, `gradle`, `nuget`, `go_modules`, …)
 */
export function registryFor(packageManager: PackageManager, options: RegistryForOptions = {}): PackageRegistry | undefined {
  const { detailedVersions, apiUrl, ...common } = options;
  switch (packageManager) {
    case 'npm_and_yarn':
      return createNpmRegistry(common);
    case 'pip':
      return createPypiRegistry(common);
    case 'maven':
      return createMavenRegistry({ ...common, ...(detailedVersions === undefined ? {} : { detailedVersions }) });
    case 'bundler':
      return createRubyGemsRegistry(common);
    case 'cargo':
      return createCratesRegistry({ ...common, ...(apiUrl === undefined ? {} : { apiUrl }) });
    case 'composer':
      return createPackagistRegistry(common);
    default:
      return undefined;
  }
}
