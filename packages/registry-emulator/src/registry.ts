import { createHash } from 'node:crypto';
import type { PackageManager } from './package-managers.ts';
import type { ParsedSeed, ParsedSeedPackage } from './seed.ts';
import { compareVersions, isPrerelease, packageKey } from './versions.ts';

/** One version of a package as the emulator holds it. `yanked` is false, or the reason (`true` in the seed: `''`). */
export interface StoredVersion {
  readonly version: string;
  readonly releasedAt: Date;
  /** Numeric id (crates.io's version `id`), unique in the emulator, increasing in publish order. */
  readonly id: number;
  readonly prerelease: boolean;
  yanked: false | string;
  /** Runtime dependencies the version declares: name → requirement in its package manager's syntax. */
  readonly dependencies: Readonly<Record<string, string>>;
}

/** A package as the emulator holds it; `modifiedAt` moves on every publish and yank. */
export interface StoredPackage {
  readonly packageManager: PackageManager;
  readonly name: string;
  readonly private: boolean;
  readonly summary: string;
  readonly license: string;
  readonly repository: string | undefined;
  readonly homepage: string | undefined;
  readonly changelog: string | undefined;
  readonly abandoned: boolean | string;
  readonly createdAt: Date;
  modifiedAt: Date;
  /** Every version, in publish order (release time, then version). */
  readonly versions: StoredVersion[];
}

/** Thrown by {@link Registry.publish} when the version exists already. */
export class VersionExistsError extends Error {
  constructor(name: string, version: string) {
    super(`${name}@${version} exists already`);
    this.name = 'VersionExistsError';
  }
}

/** Thrown by {@link Registry.yank} when the package or version does not exist. */
export class UnknownVersionError extends Error {
  constructor(name: string, version: string) {
    super(`no version ${version} of ${name}`);
    this.name = 'UnknownVersionError';
  }
}

/** The in-memory registries: every package of every package manager, public and private. */
export interface Registry {
  /** The package `name` (compared as its registry compares names) of a package manager, in the public or private registry. */
  find(packageManager: PackageManager, name: string, privateScope: boolean): StoredPackage | undefined;
  /**
   * Adds a version, creating the package (with no summary or links) when it is new.
   * @throws VersionExistsError when the version exists already
   */
  publish(input: {
    packageManager: PackageManager;
    name: string;
    version: string;
    releasedAt: Date;
    private: boolean;
    /** Runtime dependencies of the version (none when absent). */
    dependencies?: Readonly<Record<string, string>>;
  }): {
    pkg: StoredPackage;
    version: StoredVersion;
  };
  /**
   * Yanks a version (idempotent; a second yank keeps the first reason).
   * @throws UnknownVersionError when the package or version does not exist
   */
  yank(input: { packageManager: PackageManager; name: string; version: string; private: boolean; reason: string }): {
    pkg: StoredPackage;
    version: StoredVersion;
  };
}

const byPublishOrder = (a: StoredVersion, b: StoredVersion) =>
  a.releasedAt.getTime() - b.releasedAt.getTime() || compareVersions(a.version, b.version);

/** Versions of `pkg`, highest first (by {@link compareVersions}). */
export function newestFirst(pkg: StoredPackage): StoredVersion[] {
  return [...pkg.versions].sort((a, b) => compareVersions(b.version, a.version));
}

/**
 * The version a registry calls the latest: the highest version that is not a pre-release and not yanked; failing that
 * the highest not yanked; failing that the highest. Undefined only for a package without versions (never stored).
 */
export function latestVersion(pkg: StoredPackage, options: { skipYanked?: boolean } = {}): StoredVersion | undefined {
  const skipYanked = options.skipYanked ?? true;
  const sorted = newestFirst(pkg);
  return (
    sorted.find((v) => !v.prerelease && (!skipYanked || v.yanked === false)) ??
    sorted.find((v) => !skipYanked || v.yanked === false) ??
    sorted[0]
  );
}

function storedPackage(seed: ParsedSeedPackage, nextId: () => number): StoredPackage {
  const versions = seed.versions
    .map((v) => ({
      version: v.version,
      releasedAt: new Date(v.releasedAt),
      prerelease: isPrerelease(seed.packageManager, v.version),
      yanked: v.yanked === false ? (false as const) : v.yanked === true ? '' : v.yanked,
      dependencies: v.dependencies,
      id: 0,
    }))
    .sort(byPublishOrder)
    .map((v) => ({ ...v, id: nextId() }));
  const times = versions.map((v) => v.releasedAt.getTime());
  return {
    packageManager: seed.packageManager,
    name: seed.name,
    private: seed.private,
    summary: seed.summary,
    license: seed.license,
    repository: seed.repository,
    homepage: seed.homepage,
    changelog: seed.changelog,
    abandoned: seed.abandoned,
    createdAt: new Date(Math.min(...times)),
    modifiedAt: new Date(Math.max(...times)),
    versions,
  };
}

/**
 * Builds the registries of a validated seed. `now` (epoch ms) stamps the changes made through {@link Registry.publish}
 * and {@link Registry.yank} (a package's `modifiedAt` becomes the later of now and the published release time).
 */
export function createRegistry(seed: ParsedSeed, now: () => number = Date.now): Registry {
  let lastId = 0;
  const nextId = () => ++lastId;
  const packages = new Map<string, StoredPackage>();
  const keyOf = (pm: PackageManager, name: string, priv: boolean) => `${priv ? 'private' : 'public'} ${pm} ${packageKey(pm, name)}`;
  for (const pkg of seed.packages) packages.set(keyOf(pkg.packageManager, pkg.name, pkg.private), storedPackage(pkg, nextId));
  const touch = (pkg: StoredPackage, at: number) => {
    pkg.modifiedAt = new Date(Math.max(pkg.modifiedAt.getTime(), at, now()));
  };

  return {
    find: (pm, name, priv) => packages.get(keyOf(pm, name, priv)),
    publish(input) {
      const key = keyOf(input.packageManager, input.name, input.private);
      let pkg = packages.get(key);
      if (pkg?.versions.some((v) => v.version === input.version)) throw new VersionExistsError(pkg.name, input.version);
      const version: StoredVersion = {
        version: input.version,
        releasedAt: input.releasedAt,
        prerelease: isPrerelease(input.packageManager, input.version),
        yanked: false,
        dependencies: input.dependencies ?? {},
        id: nextId(),
      };
      if (!pkg) {
        pkg = {
          packageManager: input.packageManager,
          name: input.name,
          private: input.private,
          summary: '',
          license: 'MIT',
          repository: undefined,
          homepage: undefined,
          changelog: undefined,
          abandoned: false,
          createdAt: new Date(Math.min(input.releasedAt.getTime(), now())),
          modifiedAt: input.releasedAt,
          versions: [],
        };
        packages.set(key, pkg);
      }
      pkg.versions.push(version);
      pkg.versions.sort(byPublishOrder);
      touch(pkg, input.releasedAt.getTime());
      return { pkg, version };
    },
    yank(input) {
      const pkg = packages.get(keyOf(input.packageManager, input.name, input.private));
      const version = pkg?.versions.find((v) => v.version === input.version);
      if (!pkg || !version) throw new UnknownVersionError(input.name, input.version);
      if (version.yanked === false) {
        version.yanked = input.reason;
        touch(pkg, 0);
      }
      return { pkg, version };
    },
  };
}

/**
 * The bytes of a version's artifact (tarball, wheel, jar, gem, crate, zip): the UTF-8 text
 * `<packageManager>:<name>@<version>`, e.g. `npm_and_yarn:lodash@4.17.21`, `maven:junit:junit@4.13.2`. Every digest
 * the protocols show is computed from these bytes, so tests can compute them too.
 */
export function artifactBytes(packageManager: PackageManager, name: string, version: string): Buffer {
  return Buffer.from(`${packageManager}:${name}@${version}`, 'utf8');
}

/** Digests of {@link artifactBytes}: `sha1`, `sha256`, `md5` (hex) and `sha512` (base64, as in npm's `integrity`). */
export function artifactDigests(
  packageManager: PackageManager,
  name: string,
  version: string,
): { sha1: string; sha256: string; md5: string; sha512: string; size: number } {
  const bytes = artifactBytes(packageManager, name, version);
  return {
    sha1: createHash('sha1').update(bytes).digest('hex'),
    sha256: createHash('sha256').update(bytes).digest('hex'),
    md5: createHash('md5').update(bytes).digest('hex'),
    sha512: createHash('sha512').update(bytes).digest('base64'),
    size: bytes.length,
  };
}
