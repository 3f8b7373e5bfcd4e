import type { PackageManager } from '@switchyard/contracts';

/**
 * The registry port: what an update run needs to know about a package from its package registry, whatever the
 * protocol. One adapter per protocol (`src/adapters/`): the npm registry's packument, PyPI's JSON API, Maven repository
 * metadata, RubyGems' versions API, crates.io's sparse index, Packagist's p2 metadata.
 */

/** A digest of a version's artifact as the registry gives it, for lockfiles. */
export interface ArtifactDigest {
  /**
   * `sha512`, `sha256` or `sha1` (Maven's `.sha1`, npm's legacy `shasum`), `md5` where nothing better is given; `h1`
   * for Go's directory hash "Hash1" (golang.org/x/mod/sumdb/dirhash: SHA-256 over the sorted `sha256  name` lines of the
   * files), which `go.sum` and `.terraform.lock.hcl` write.
   */
  algorithm: 'sha512' | 'sha384' | 'sha256' | 'sha1' | 'md5' | 'h1';
  /**
   * The digest in the form lockfiles write it: npm's `integrity` is an SRI string (`sha512-<base64>`), `h1` the whole
   * `h1:<base64>`, the others hex.
   */
  value: string;
  /** `sri` (`<algorithm>-<base64>`, npm `dist.integrity`), `hex`, or `prefixed` (`h1:<base64>`). */
  encoding: 'sri' | 'hex' | 'prefixed';
}

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

/**
 * A dependency one version declares, as its registry publishes it: npm `dependencies` / `optionalDependencies` /
 * `peerDependencies`, PyPI `requires_dist`, RubyGems runtime dependencies, crates.io index `deps`, Packagist `require`.
 */
export interface RegistryDependency {
  /** As the registry spells it (the ecosystem's canonical form where the registry gives one). */
  name: string;
  /** The requirement in the ecosystem's own syntax (`^1.2.0`, `>=2.0,<3`, `~> 7.1`, `^1.0`), `*` when none is given. */
  requirement: string;
  /**
   * `runtime` (needed to run), `optional` (npm `optionalDependencies`, a cargo `optional` dependency, a PyPI extra's
   * requirement), `peer` (npm), `build` (cargo `build`), `dev` (only where a registry publishes them: cargo `dev`).
   */
  kind: 'runtime' | 'optional' | 'peer' | 'build' | 'dev';
  /** When it applies, in the ecosystem's syntax: a PEP 508 marker (`python_version < "3.8"`), a cargo `target` cfg. */
  condition?: string;
}

/** One downloadable file of a version: npm's tarball, each of PyPI's sdist and wheels, a gem, a crate, a dist zip. */
export interface RegistryArtifact {
  /** The file's name (`lodash-4.17.21.tgz`, `requests-2.31.0-py3-none-any.whl`). */
  filename: string;
  /** Where it is downloaded from (absolute URL, never with credentials). */
  url: string;
  /** Its digests as the registry gives them (lockfiles copy them: npm `integrity`, Pipfile.lock `sha256:`, Cargo.lock `checksum`). */
  digests: ArtifactDigest[];
  /**
   * What a lockfile records of the file besides its digests, as the registry gives it: Packagist's `dist.reference`
   * and `dist.type`, PyPI's `packagetype`. Absent when there is nothing.
   */
  attributes?: Record<string, string>;
}

/** What a lockfile needs of one version: its dependencies and its artifacts (see {@link PackageRegistry.describeVersion}). */
export interface RegistryVersionDetails {
  /** The package's name as the registry answers it. */
  name: string;
  /** The version as the registry spells it. */
  version: string;
  /** The dependencies the version declares, or null when the registry does not publish them for this version. */
  dependencies: RegistryDependency[] | null;
  /** Its files (empty when the registry lists none). */
  artifacts: RegistryArtifact[];
}

/** Why a registry request failed; the update run reports it per dependency. */
export type RegistryErrorKind =
  /** No answer: connection refused or reset, DNS, timeout, or 5xx after the retries. */
  | 'unreachable'
  /** 401 or 403: the credentials (or their absence) were refused. */
  | 'auth_failed'
  /** An answer that is not what the protocol says (malformed JSON or XML, a missing field, over the size cap). */
  | 'bad_response';

/** A registry request that failed; `kind` says how (see {@link RegistryErrorKind}). */
export class RegistryError extends Error {
  readonly kind: RegistryErrorKind;
  /** The HTTP status, when there was an answer. */
  readonly status: number | undefined;
  /** The URL asked (never with credentials). */
  readonly url: string;

  constructor(kind: RegistryErrorKind, url: string, message: string, options?: ErrorOptions & { status?: number }) {
    super(message, options);
    this.name = 'RegistryError';
    this.kind = kind;
    this.url = url;
    this.status = options?.status;
  }
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

/**
 * Registry credentials: a bearer token (`Authorization: Bearer <token>`), a user and password (HTTP Basic), or a whole
 * `Authorization` value sent as given (Cargo sends a registry's token so; some registries want their own scheme).
 */
export type RegistryCredentials = { token: string } | { username: string; password: string } | { authorization: string };
