import type { PackageManager } from '@switchyard/contracts';
import type { ArtifactDigest, RegistryVersionDetails } from '@switchyard/ecosystems';

export {
  type ArtifactDigest,
  type RegistryArtifact,
  type RegistryCredentials,
  type RegistryDependency,
  RegistryError,
  type RegistryErrorKind,
  type RegistryVersionDetails,
} from '@switchyard/ecosystems';

/**
 * The registry port: what an update run needs to know about a package from its package registry, whatever the
 * protocol. One adapter per protocol (`src/adapters/`): the npm registry's packument, PyPI's JSON API, Maven repository
 * metadata, RubyGems' versions API, crates.io's sparse index, Packagist's p2 metadata. The data a lockfile update takes
 * from a registry (a version's details and artifacts, credentials, `RegistryError`) is `@switchyard/ecosystems`'s, whose
 * updaters read it; it is re-exported here.
 */

/** One published version of a package. */
export interface RegistryVersion {
  /** As the registry spells it (npm `4.17.21`, PyPI `2.31.0`, Maven `5.3.1`, RubyGems `7.1.3.4`, Packagist `v3.2.0`). */
  version: string;
  /**
   * When it was published (RFC 3339, UTC), or null when the registry does not say (older crates.io index entries
   * without `pubtime` when there is no web API, Packagist versions without `time`, Maven versions beyond the detailed ones).
   */
  releasedAt: string | null;
  /** Withdrawn by its publisher but still resolvable by pinned lockfiles (PyPI, RubyGems, crates.io yanks). */
  yanked: boolean;
  /** The deprecation message (npm `deprecated`, Packagist `abandoned`), or null. A deprecated version is never a target. */
  deprecated: string | null;
  /** The artifact's digests (none when the registry gives none). */
  digests: ArtifactDigest[];
  /**
   * The git refs that point at this version, for registries that are a code host's repositories (GitHub Actions,
   * dep, git submodules): branch names whose head it is (`main`), or tag names (`v4.1.0`). Absent elsewhere.
   */
  refs?: string[];
}

/** What a registry knows of one package. */
export interface RegistryPackage {
  /** The name as the registry answers it (npm `@scope/name`, PyPI's normalised name, Maven `groupId:artifactId`). */
  name: string;
  /** Every version the registry lists, in no particular order (ordering is the ecosystem's version scheme's business). */
  versions: RegistryVersion[];
  /** The version the registry marks latest (npm `dist-tags.latest`, Maven `<release>`), or null. */
  latest: string | null;
  /** The source repository (a URL), or null. */
  sourceUrl: string | null;
  /** The changelog (a URL), or null. */
  changelogUrl: string | null;
}

/** A package registry of one protocol at one base URL, with or without credentials. */
export interface PackageRegistry {
  readonly packageManager: PackageManager;
  /** The registry's base URL, e.g. `https://registry.npmjs.org/`. */
  readonly baseUrl: string;
  /**
   * Everything the registry says of `name` (in the ecosystem's canonical form: npm `@scope/name`, Maven
   * `groupId:artifactId`, Packagist `vendor/package`).
   * @returns undefined when the registry does not know the package (404, 410)
   * @throws RegistryError when the registry cannot be asked, refuses the credentials, or answers nonsense
   * @throws TypeError for a name the protocol cannot express (an empty one, a Maven name without `:`)
   */
  fetchPackage(name: string, options?: { signal?: AbortSignal }): Promise<RegistryPackage | undefined>;
  /**
   * What a lockfile needs of one version of `name`: its declared dependencies and its artifacts with their digests
   * (npm: the packument's version document; PyPI: `/pypi/{name}/{version}/json`; RubyGems: `/api/v2/rubygems/{name}/versions/{version}.json`;
   * crates.io: the index line; Packagist: the p2 entry). Absent on adapters whose ecosystem has no lockfile (Maven).
   * @returns undefined when the registry does not know the package or that version
   * @throws RegistryError as {@link fetchPackage} does
   */
  describeVersion?(name: string, version: string, options?: { signal?: AbortSignal }): Promise<RegistryVersionDetails | undefined>;
  /** Requests made so far, as the network saw them. */
  stats(): RegistryRequestStats;
  /** Closes its connections. */
  close(): Promise<void>;
}

/** Requests made to a registry, as the network saw them (conditional revalidations included, cache hits not). */
export interface RegistryRequestStats {
  /** Requests sent (retries and redirects each count). */
  requests: number;
  /** Answers 304 Not Modified: the cached body was used. */
  notModified: number;
  /** Answers 200 with a body downloaded. */
  fullDownloads: number;
}
