import { PACKAGE_MANAGERS, type PackageManager } from '@switchyard/contracts';
import { type CratesRegistryOptions, createCratesRegistry, DEFAULT_CRATES_URL } from './adapters/crates.ts';
import { createElmRegistry } from './adapters/elm.ts';
import { createGitHubRegistry, DEFAULT_GITHUB_API_URL } from './adapters/github.ts';
import { createGoProxyRegistry } from './adapters/goproxy.ts';
import { createHexRegistry } from './adapters/hex.ts';
import { createMavenRegistry, DEFAULT_MAVEN_URL, type MavenRegistryOptions } from './adapters/maven.ts';
import { createNpmRegistry, DEFAULT_NPM_URL } from './adapters/npm.ts';
import { createNuGetRegistry } from './adapters/nuget.ts';
import { createOciRegistry } from './adapters/oci.ts';
import { createPackagistRegistry, DEFAULT_PACKAGIST_URL } from './adapters/packagist.ts';
import { createPypiRegistry, DEFAULT_PYPI_URL } from './adapters/pypi.ts';
import { createRubyGemsRegistry, DEFAULT_RUBYGEMS_URL } from './adapters/rubygems.ts';
import { createTerraformRegistry } from './adapters/terraform.ts';
import type { RegistryAdapterOptions } from './http/registry-http.ts';
import type { PackageRegistry } from './port.ts';

/**
 * The package managers this package has a registry adapter for: all sixteen. `submodules`, `dep` and `github_actions`
 * ask a code host's REST API (GitHub's) for tags and branch heads; the others their package registry's protocol.
 */
export const REGISTRY_PACKAGE_MANAGERS: readonly PackageManager[] = PACKAGE_MANAGERS;
export type RegistryPackageManager = PackageManager;

/**
 * The package managers whose versions are a code host's tags and branch heads rather than a package registry's: their
 * "registry" is the code host's REST API (GitHub's), asked with the service's own token.
 */
export const CODE_HOST_PACKAGE_MANAGERS = ['submodules', 'dep', 'github_actions'] as const satisfies readonly PackageManager[];

/** Each package manager's public registry, the default base URL of its adapter. */
export const DEFAULT_REGISTRY_URLS: Readonly<Record<RegistryPackageManager, string>> = Object.freeze({
  npm_and_yarn: DEFAULT_NPM_URL,
  pip: DEFAULT_PYPI_URL,
  maven: DEFAULT_MAVEN_URL,
  bundler: DEFAULT_RUBYGEMS_URL,
  cargo: DEFAULT_CRATES_URL,
  composer: DEFAULT_PACKAGIST_URL,
  // Docker Hub's registry (OCI distribution API); an image named with a registry host is asked there instead.
  docker: 'https://registry-1.docker.io/',
  elm: 'https://package.elm-lang.org/',
  submodules: DEFAULT_GITHUB_API_URL,
  hex: 'https://hex.pm/api/',
  gradle: DEFAULT_MAVEN_URL,
  nuget: 'https://api.nuget.org/v3/index.json',
  dep: DEFAULT_GITHUB_API_URL,
  go_modules: 'https://proxy.golang.org/',
  terraform: 'https://registry.terraform.io/',
  github_actions: DEFAULT_GITHUB_API_URL,
});

/** Options of {@link registryFor}: the adapter's, plus Maven's and crates.io's own where they apply. */
export type RegistryForOptions = RegistryAdapterOptions &
  Pick<MavenRegistryOptions, 'detailedVersions'> &
  Pick<CratesRegistryOptions, 'apiUrl'>;

/**
 * The registry adapter of `packageManager`, at `options.baseUrl` (default its public registry,
 * {@link DEFAULT_REGISTRY_URLS}) with `options.credentials`: the npm registry (`npm_and_yarn`), PyPI (`pip`), a Maven
 * repository (`maven`, `gradle`), RubyGems (`bundler`), crates.io's sparse index (`cargo`), Packagist (`composer`), a
 * NuGet v3 feed (`nuget`), an OCI distribution registry (`docker`), a GOPROXY (`go_modules`), the Terraform registry
 * protocol (`terraform`), hex.pm's API (`hex`), Elm's package site (`elm`), or GitHub's REST API for the tags and
 * branches of `submodules`, `dep` and `github_actions` ({@link CODE_HOST_PACKAGE_MANAGERS}).
 * @returns undefined only for a value that is not a package manager
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
    case 'gradle':
      return createMavenRegistry({ ...common, packageManager: 'gradle', ...(detailedVersions === undefined ? {} : { detailedVersions }) });
    case 'nuget':
      return createNuGetRegistry(common);
    case 'submodules':
    case 'dep':
    case 'github_actions':
      return createGitHubRegistry({ ...common, packageManager });
    case 'docker':
      return createOciRegistry(common);
    case 'go_modules':
      return createGoProxyRegistry(common);
    case 'terraform':
      return createTerraformRegistry(common);
    case 'hex':
      return createHexRegistry(common);
    case 'elm':
      return createElmRegistry(common);
    default:
      return undefined;
  }
}
