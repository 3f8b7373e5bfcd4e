import type { PackageManager } from '@switchyard/contracts';
import type { RegistryCredentials, RegistryVersionDetails } from './registry-data.ts';

/**
 * The interface every ecosystem (package manager) implements: where its manifests are, how it reads a
 * dependency out of them and how its versions order. release-svc's worker only talks to this interface
 * (`ecosystemFor` in registry.ts gives the one of a package manager).
 */

/** `runtime`: needed to run the project; `development`: only to build/test it (devDependencies, test scope, dev groups...). */
export type DependencyType = 'runtime' | 'development';

/**
 * The kind of an update as its ecosystem reads compatibility (see each scheme's `updateKind`): `major` is breaking (a new
 * major, or a bump the ecosystem's default requirement would not allow, such as npm's and Cargo's `0.7.3 → 0.8.5`);
 * `minor` and `patch` are compatible, by position.
 */
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
 * The optional members are refinements {@link assessUpdate} uses when present: `release`, `lowestAllowed` and
 * `allowsPrereleases` where the scheme has ranges; `comparable` where only some versions are of the same line (Docker
 * tags); `unordered` for commit ids (submodules).
 */
export interface VersionScheme {
  isValid(version: string): boolean;
  /** < 0, 0, > 0 like a sort comparator. @throws InvalidVersionError */
  compare(a: string, b: string): number;
  /** Does `version` satisfy the manifest requirement `requirement`? @throws InvalidVersionError / InvalidRequirementError */
  satisfies(version: string, requirement: string): boolean;
  isPrerelease(version: string): boolean;
  /**
   * The kind of update from `from` to `to` (to > from): `major` when the ecosystem does not treat `to` as compatible with
   * `from` (outside the requirement its tool writes by default for `from`, or Go's unstable v0), else `minor`/`patch` by
   * position. @throws InvalidVersionError
   */
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
  /**
   * Whether `released` is a version of the same line as `inUse`, so that their order means "newer" (Docker tags: the same
   * suffix and format, Dependabot's `comparable_to?`: `3.12-slim` is one for `3.11-slim`, `3.12-alpine` is not). Absent:
   * every valid version is. {@link assessUpdate} never calls an incomparable version an update.
   */
  comparable?(inUse: string, released: string): boolean;
  /**
   * True for schemes whose versions are commit ids without an order (a git submodule's pinned commit): `compare` is
   * then only a total order of the ids (equal or not), and an update is the version the registry names for the
   * requirement (the head of the branch the requirement names, else the registry's `latest`) when it differs from the
   * version in use, as Dependabot's git_submodules update checker decided
   * (https://github.com/dependabot/dependabot-core, `git_submodules/lib/dependabot/git_submodules/update_checker.rb`).
   */
  unordered?: boolean;
}

/**
 * The files an ecosystem reads: `required` is a list of alternatives (at least one file of each inner list must exist);
 * `optional` are read when present; `lockfiles` are those of `optional` that lock resolved versions (they must be
 * updated with the manifest: see {@link Ecosystem.updateLockfiles}).
 *
 * Each entry is a path relative to the config's directory, `/`-separated (`package.json`, `gradle/libs.versions.toml`,
 * `.github/workflows/ci.yml`), and may hold `*` wildcards, each matching any characters of one path segment except `/`
 * (`Dockerfile*`, `*.csproj`, `.github/workflows/*.yml`). An entry with a wildcard is met by every file it matches; the
 * files map an ecosystem is given is keyed by the same relative paths. `matchesFilePattern` (shared/files.ts) is the matcher.
 */
export interface EcosystemFiles {
  required: string[][];
  optional: string[];
  lockfiles: string[];
  /**
   * Also read the gitlinks (submodule commits) under the directory: each appears in the files map under its path, with
   * the text git itself shows for a gitlink in a diff, `Subproject commit <40 hex>\n` (`gitlinkText` in shared/files.ts). An
   * updated file of that form is committed as a gitlink, not as a file.
   */
  gitlinks?: boolean;
  /**
   * Files that what was read points at, read in further rounds: given the files map read so far (first the entries
   * above), more paths relative to the config's directory, `/`-separated, which may go up with `../` (never above the
   * repository's root: such a path is dropped) and may hold `*` patterns below the directory only. Cargo's workspace
   * members (`crates/grep/Cargo.toml` for `members = ["crates/*"]`), NuGet's `Directory.Packages.props` of a parent directory
   * (`../../Directory.Packages.props`), pip's `-r`/`-c` includes, go.work's `use` directories. The files found join the
   * map under the paths given, and `related` is asked again with them, so chains are followed (an included file's own
   * `-r`; the worker reads `RELATED_ROUNDS` such rounds at most, each path once). Files that do not exist are left out, as optional
   * ones are. A file that does not parse may throw `ManifestParseError` here: it then points at nothing
   * (`relatedFiles` gives []), and the reader reports it when the dependencies are read.
   */
  related?(files: Readonly<Record<string, string>>): string[];
}

/**
 * A declaration a reader left out instead of refusing the whole file, and why, e.g.
 * `{ file: 'Dockerfile', line: 3, text: 'FROM ${BASE_IMAGE}', reason: 'the image is an unset build argument' }`
 * (`line` 1-based).
 */
export interface SkippedDeclaration {
  file: string;
  line: number;
  text: string;
  reason: string;
}

/**
 * The manifest change that makes a dependency's requirement allow a target version (see {@link Ecosystem.updateManifest}):
 * - `files`: the changed manifests only (file name → whole new text), edited only inside the requirement's span;
 *   `requirement` is the new requirement as `findDependency` now reads it; `note` tells what else the edit moves
 *   (e.g. a Maven property shared with other dependencies);
 * - `unchanged`: why no manifest change is needed (the requirement already allows the target, or there is none);
 * - `cannot`: why the manifest cannot be rewritten faithfully (git/path source, a form not rewritten, an
 *   unresolvable property...). No file is given then.
 */
export type ManifestUpdate =
  | { files: Record<string, string>; requirement: string | null; note?: string }
  | { unchanged: string }
  | { cannot: string };

/**
 * How {@link Ecosystem.updateManifest} moves a requirement that does not allow the target version: Dependabot's update
 * strategies (dependabot-core's `RequirementsUpdateStrategy` `bump_versions`, `bump_versions_if_necessary`,
 * `widen_ranges`; `dependabot.yml`'s `versioning-strategy` values `increase`, `increase-if-necessary`, `widen`; Dependabot
 * Preview's `version_requirement_updates` `increase_versions`, `increase_versions_if_necessary`, `widen_ranges`):
 * - `increase-if-necessary`: only the clauses that exclude the target move (`>=1.2,<2` → `>=1.2,<3`, `^1.2.3` → `^2.0.1`);
 * - `increase`: the requirement is raised to the target: inclusive lower bounds become the target too
 *   (`>=2.2,<3.0` → `>=4.2.16,<5.0`), `||` alternatives give way to the last one raised (`^1.0 || ^2.0` → `^3.0`);
 * - `widen`: the requirement keeps what it allowed and gains the target: upper bounds move (`>=2.2,<3.0` →
 *   `>=2.2,<5.0`), a compatible clause gains an alternative where the syntax has them (`^1.2.3` → `^1.2.3 || ^2.0.1`)
 *   or becomes a range where it does not (`~=2.2` → `>=2.2,<5.0`); what the syntax cannot write is increased if necessary.
 * With each of them a requirement that already allows the target stays (the lockfile moves, the manifest does not:
 * unlike Dependabot's `increase`, which also raised ranges the target was in), and an exact pin becomes the target.
 * The README's "Manifest updates" gives each ecosystem's forms.
 */
export type RequirementStrategy = 'increase' | 'increase-if-necessary' | 'widen';

/**
 * The strategy an update asks for: one of {@link RequirementStrategy}, or `auto`, Dependabot Preview's default
 * `version_requirement_updates` ("Increase versions if an app, widen ranges if a library",
 * https://github.com/dependabot/api-docs): `widen` where {@link Ecosystem.isLibrary} says the files publish a
 * package, else `increase`. `lockfile-only` is not a strategy here: a config that takes lockfile updates only never
 * asks for a manifest change (release-svc's decide stage skips such updates).
 */
export type VersioningStrategy = 'auto' | RequirementStrategy;

/** A registry a lockfile update may ask (npm's resolver fetches what it needs itself): base URL and credentials. */
export interface LockfileRegistry {
  /** Base URL, e.g. `https://registry.npmjs.org/`. */
  url: string;
  /** Sent to that registry only (never to another host a document points at). */
  credentials?: RegistryCredentials;
}

/** What {@link Ecosystem.updateLockfiles} is given. */
export interface LockfileRequest {
  /** The files as read from the target branch (manifests and lockfiles; only files that exist). */
  files: Readonly<Record<string, string>>;
  /** The same files with {@link Ecosystem.updateManifest}'s changes applied (equal to `files` when the manifest stays). */
  updated: Readonly<Record<string, string>>;
  /** The dependency as `findDependency` read it from `files`. */
  use: DependencyUse;
  /** The target version as its registry describes it (dependencies, artifacts and their digests). */
  target: RegistryVersionDetails;
  /** The registries the update run asks, in order: the account's private registry first, then the public one. */
  registries: readonly LockfileRegistry[];
  /** Aborts registry requests a resolver makes. */
  signal?: AbortSignal;
}

/**
 * A lockfile update (see {@link Ecosystem.updateLockfiles}):
 * - `files`: every lockfile present, rewritten (file name → whole new text) so it agrees with the updated manifests and
 *   locks the target version with the registry's digests; entries that need no change keep their text;
 * - `needsResolution`: why it cannot be done faithfully without a resolver (the target version declares dependencies
 *   the lockfile does not satisfy, a lockfile format not handled, ...). No file is given then.
 */
export type LockfileUpdate = { files: Record<string, string> } | { needsResolution: string };

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
  /**
   * Every direct dependency declared in the files read (same map as {@link findDependency}), each name once and
   * exactly as `findDependency(files, use.name)` gives it, in the manifests' reading order (files in the
   * ecosystem's order, sections in the order their requirement is ranked, entries in file order). Entries that
   * are not registry packages are left out: local paths, git/URL sources, workspace links, platform packages and
   * Maven coordinates with an unresolvable `${...}`.
   * @returns [] when the manifest is absent or declares nothing
   * @throws ManifestParseError (file name + reason) when a file present does not parse
   */
  listDependencies(files: Readonly<Record<string, string>>): DependencyUse[];
  /**
   * The declarations of the files read (same map as {@link findDependency}) that the reader skipped rather than failing
   * the directory: one unreadable line does not lose the others' dependencies (a Docker `FROM` whose image cannot be
   * read). Absent, or [] when nothing was skipped.
   * @throws ManifestParseError when a file present does not parse at all
   */
  skippedDeclarations?(files: Readonly<Record<string, string>>): SkippedDeclaration[];
  /**
   * Rewrites every declaration of `use.name` in the files read (same map as {@link findDependency}) so that it
   * allows `targetVersion`, the way Dependabot's requirements updaters do
   * (https://github.com/dependabot/dependabot-core, each ecosystem's `update_checker/requirements_updater.rb`) under
   * `strategy` ({@link VersioningStrategy}; `increase-if-necessary` when not given): a requirement that already allows
   * the target stays; otherwise its version is replaced keeping the operator and precision (`^1.2.3` → `^2.0.1`,
   * `~> 6.0` → `~> 7.0`), an exact pin becomes the target, and an upper bound is widened (`<2` → `<3`); `increase`
   * raises lower bounds too and `widen` keeps the old versions allowed. The strategy is read by npm_and_yarn, pip,
   * bundler, cargo, composer and hex; the other ecosystems' requirements are pins, minimums or ranges they move their
   * own way, whatever it is (the README's "Manifest updates").
   * Only the requirement's characters change: formatting, comments, quotes and line endings stay as they are.
   * `target` is what the registry says of the target version when its adapter describes versions (`describeVersion`
   * of @switchyard/registries' `PackageRegistry`): ecosystems whose manifests pin more than a version read it (a GitHub
   * Action pinned to a commit takes the tag's commit from it, a Docker image pinned by digest the manifest digest);
   * without it such a pin is `cannot`.
   * @returns the changed files, `unchanged` or `cannot` (see {@link ManifestUpdate}); never a file whose
   *   requirement does not allow the target
   * @throws ManifestParseError when a file present does not parse; InvalidVersionError when `targetVersion`
   *   is not a version of the scheme
   */
  updateManifest(
    files: Readonly<Record<string, string>>,
    use: DependencyUse,
    targetVersion: string,
    target?: RegistryVersionDetails,
    strategy?: VersioningStrategy,
  ): ManifestUpdate;
  /**
   * Whether the files read declare a package to be published (a library), which `auto` widens rather than increases
   * ({@link VersioningStrategy}): npm, a package.json with a `name` and a `version` and not `"private": true`; pip, a
   * pyproject.toml with PEP 621 `[project]` or Poetry `[tool.poetry]` package metadata; bundler, a Gemfile that calls
   * `gemspec`; cargo, a publishable `[package]` without Cargo.lock; composer, `"type": "library"`; hex, a mix.exs
   * project with `package:` metadata (each ecosystem's section of the README says why). Absent: never a library.
   * @throws ManifestParseError when the manifest it reads does not parse
   */
  isLibrary?(files: Readonly<Record<string, string>>): boolean;
  /**
   * The version the package manager installs for `requirement` when nothing locks one, among `versions` (a registry's
   * installable versions, any order): absent, the highest that satisfies it (npm, pip, Bundler, Cargo, Composer, Hex
   * and the others resolve to the newest allowed), which {@link installedVersion} applies. Null when none does.
   */
  installs?(requirement: string, versions: readonly string[]): string | null;
  /**
   * Updates every lockfile present in `request.files` (the ecosystem's `files.lockfiles`) so it
   * locks `request.target` and agrees with `request.updated`'s manifests. Absent on ecosystems without lockfiles
   * (Maven). Never returns a lockfile that disagrees with its manifest: what it cannot do faithfully is `needsResolution`.
   * @throws ManifestParseError when a lockfile does not parse; RegistryError (`registry-data.ts`) when a resolver
   *   that asks the registries itself cannot reach them (a later attempt may)
   */
  updateLockfiles?(request: LockfileRequest): Promise<LockfileUpdate>;
}
