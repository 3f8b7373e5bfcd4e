/**
 * What the lockfile updaters take from a package registry: the description of a target version (its dependencies and
 * its artifacts with their digests), the credentials of a registry a resolver asks itself, and the error it throws
 * when a registry cannot be asked. They are defined here, below `@switchyard/registries`, whose adapters produce them
 * (its `PackageRegistry.describeVersion`) and re-export them, so that this package needs nothing of the adapters.
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

/** What a lockfile needs of one version: its dependencies and its artifacts (what a registry adapter's `describeVersion` answers). */
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

/**
 * Registry credentials: a bearer token (`Authorization: Bearer <token>`), a user and password (HTTP Basic), or a whole
 * `Authorization` value sent as given (Cargo sends a registry's token so; some registries want their own scheme).
 */
export type RegistryCredentials = { token: string } | { username: string; password: string } | { authorization: string };
