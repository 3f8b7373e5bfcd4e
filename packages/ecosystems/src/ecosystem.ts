import type { PackageManager } from '@switchyard/contracts';

/**
 * The interface every ecosystem (package manager) implements: where its manifests are, how it reads a
 * dependency out of them and how its versions order. release-svc's worker only talks to this interface
 * (`ecosystemFor` in registry.ts gives the one of a package manager).
 */

/** `runtime`: needed to run the project; `development`: only to build/test it (devDependencies, test scope, dev groups...). */
export type DependencyType = 'runtime' | 'development';

/** The kind of an update, by the scheme's major/minor/patch positions (see each scheme's `updateKind`). */
export type UpdateKind = 'patch' | 'minor' | 'major';

/**
 * A dependency as the repo uses it, e.g.
 * `{ name: 'lodash', type: 'runtime', requirement: '^4.17.0', version: '4.17.21', manifest: 'package.json' }`.
 */
export interface DependencyUse {
  /** As written in the manifest (canonical form for the ecosystem: Maven `groupId:artifactId`, Cargo the real crate name of a rename). */
  name: string;
  type: DependencyType;
  /** The manifest's requirement/range as written, e.g. `^4.17.0`, `>=2.0,<3`, `~> 6.1`, `[1.0,2.0)`; null when none. */
  requirement: string | null;
  /** The version in use: from the lockfile when there is one, else the manifest's exact pin; null when unknown. */
  version: string | null;
  /** File name the dependency was found in, e.g. `package.json`. */
  manifest: string;
}

/**
 * How an ecosystem's versions order and how its requirements match them. Methods taking versions throw
 * {@link InvalidVersionError} on a version `isValid` rejects; methods taking a requirement throw
 * {@link InvalidRequirementError} on one the scheme cannot read.
 *
 * The last three members are optional refinements {@link assessUpdate} uses when present; all six schemes of
 * this package implement them.
 */
export interface VersionScheme {
  isValid(version: string): boolean;
  /** < 0, 0, > 0 like a sort comparator. @throws InvalidVersionError */
  compare(a: string, b: string): number;
  /** Does `version` satisfy the manifest requirement `requirement`? @throws InvalidVersionError / InvalidRequirementError */
  satisfies(version: string, requirement: string): boolean;
  isPrerelease(version: string): boolean;
  /** The kind of update from `from` to `to` (to > from). @throws InvalidVersionError */
  updateKind(from: string, to: string): UpdateKind;
  /** `[major, minor, patch]` of a version (missing positions are 0). @throws InvalidVersionError */
  release?(version: string): readonly [number, number, number];
  /**
   * The lowest version `requirement` allows, or null when it has no (inclusive) lower bound the scheme can name
   * (e.g. `*`, `<2`, `>1.0`). @throws InvalidRequirementError
   */
  lowestAllowed?(requirement: string): string | null;
  /** Does the requirement itself ask for pre-releases (names a pre-release version, or a stability flag like `@beta`)? */
  allowsPrereleases?(requirement: string): boolean;
}

/** The files an ecosystem reads: `required` is a list of alternatives (at least one file of each inner list must exist). */
export interface EcosystemFiles {
  required: string[][];
  optional: string[];
}

/** One package manager: its files, its version scheme and its manifest reader. */
export interface Ecosystem {
  packageManager: PackageManager;
  /**
   * Files the worker reads in the config's directory; `required` must exist, the others are read if present.
   * required: alternatives, e.g. `[['package.json']]`; for pip `[['requirements.txt', 'pyproject.toml']]` = at least one of them.
   */
  files: EcosystemFiles;
  versions: VersionScheme;
  /** Normalises a dependency name for comparison the way the ecosystem does (npm: as is; pip: PEP 503; maven `group:artifact` as is; ...). */
  normaliseName(name: string): string;
  /**
   * Finds `name` in the files read (a map from file name to its text; only files that exist are present).
   * Only direct dependencies (declared in a manifest) count; a package only present in a lockfile is not "used".
   * @returns undefined when the dependency is not used there
   * @throws ManifestParseError (file name + reason) when a file present does not parse
   */
  findDependency(files: Readonly<Record<string, string>>, name: string): DependencyUse | undefined;
}
