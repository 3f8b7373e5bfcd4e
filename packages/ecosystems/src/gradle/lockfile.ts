import type { LockfileRequest, LockfileUpdate } from '../ecosystem.ts';
import { ManifestParseError } from '../errors.ts';
import { filesOf } from '../shared/files.ts';
import { CATALOG, type GradleDeclaration, readGradle } from './declarations.ts';
import { compareGradleVersions } from './version-order.ts';
import { gradleVersions, parseGradleRequirement } from './versions.ts';

type Files = Readonly<Record<string, string>>;

/**
 * Gradle's dependency lock state files (https://docs.gradle.org/current/userguide/dependency_locking.html), in the
 * order they are read: per project directory (the root, then one level of subprojects, as the build scripts are read)
 * the lockfile of the project's configurations `gradle.lockfile`, that of its `buildscript` classpath
 * `buildscript-gradle.lockfile`, and the legacy per-configuration files `gradle/dependency-locks/<configuration>.lockfile`
 * (Gradle before 6.0; `buildscript-<configuration>.lockfile` there for the buildscript).
 */
export const GRADLE_LOCKFILES = [
  'gradle.lockfile',
  'buildscript-gradle.lockfile',
  'gradle/dependency-locks/*.lockfile',
  '*/gradle.lockfile',
  '*/buildscript-gradle.lockfile',
  '*/gradle/dependency-locks/*.lockfile',
];

/** One module line of a lockfile: `group:artifact:version=configuration,…` (or `group:artifact:version` in a legacy file). */
export interface GradleLockEntry {
  /** `group:artifact`. */
  name: string;
  version: string;
  /** Where the version is in the file's text: `[start, end)`. */
  start: number;
  end: number;
  /** 1-based line number. */
  line: number;
  /** The configurations the line locks (a legacy file's: the one it is named after). */
  configurations: string[];
}

/** A lockfile read: its path, the project directory it belongs to (`''` for the root, `app/`), and its module lines. */
export interface GradleLockfile {
  file: string;
  project: string;
  entries: GradleLockEntry[];
}

const LEGACY = /(?:^|\/)gradle\/dependency-locks\/([^/]+)\.lockfile$/;

/** The project directory of a build file or lockfile path (`app/build.gradle` → `app/`, `gradle.lockfile` → ``). */
export function projectOf(path: string): string {
  const legacy = LEGACY.exec(path);
  const rest = legacy ? path.slice(0, legacy.index) : path;
  const slash = rest.lastIndexOf('/');
  return legacy ? (rest === '' ? '' : `${rest}/`) : slash < 0 ? '' : rest.slice(0, slash + 1);
}

/**
 * Reads one lockfile, as Gradle's `LockFileReaderWriter` does: lines that are empty or start with `#` are comments;
 * `empty=…` lists the configurations that lock nothing; every other line of `gradle.lockfile` is
 * `group:artifact:version=configuration,configuration`; a legacy `gradle/dependency-locks/<configuration>.lockfile`
 * holds `group:artifact:version` lines (trimmed). Line endings (LF or CRLF) are kept as written.
 * @throws ManifestParseError (the file, the line) on a line that is not a module line
 */
export function readGradleLockfile(file: string, text: string): GradleLockfile {
  const legacy = LEGACY.exec(file);
  const entries: GradleLockEntry[] = [];
  let offset = 0;
  const lines = text.split('\n');
  for (const [index, raw] of lines.entries()) {
    const lineStart = offset;
    offset += raw.length + 1;
    const body = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const trimmed = body.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    if (!legacy && trimmed.startsWith('empty=')) continue;
    const lead = body.length - body.trimStart().length;
    const [module = '', configurations, ...more] = trimmed.split('=');
    if (legacy ? configurations !== undefined : configurations === undefined || configurations === '' || more.length > 0) {
      throw new ManifestParseError(
        file,
        `line ${index + 1}: '${trimmed}' is not ${legacy ? 'group:artifact:version' : 'group:artifact:version=configurations'}`,
      );
    }
    const coordinates = module.split(':');
    if (coordinates.length !== 3 || coordinates.some((c) => c === '' || /\s/.test(c))) {
      throw new ManifestParseError(file, `line ${index + 1}: '${module}' is not group:artifact:version`);
    }
    const [group, artifact, version] = coordinates as [string, string, string];
    const start = lineStart + lead + group.length + artifact.length + 2;
    entries.push({
      name: `${group}:${artifact}`,
      version,
      start,
      end: start + version.length,
      line: index + 1,
      configurations: legacy ? [legacy[1] ?? ''] : (configurations ?? '').split(','),
    });
  }
  return { file, project: projectOf(file), entries };
}

/** Every lockfile present in `files` ({@link GRADLE_LOCKFILES}), read, in reading order. @throws ManifestParseError */
export function readGradleLockfiles(files: Files): GradleLockfile[] {
  const seen = new Set<string>();
  const out: GradleLockfile[] = [];
  for (const entry of GRADLE_LOCKFILES) {
    for (const [file, text] of filesOf(files, entry)) {
      if (seen.has(file)) continue;
      seen.add(file);
      out.push(readGradleLockfile(file, text));
    }
  }
  return out;
}

/**
 * Does a lockfile lock the configurations of a declaration in `file`? A build script's declarations are locked by the
 * lockfiles of its own project directory; the version catalog's by every project's (any of them may use the entry).
 */
export const locksDeclarationsOf = (lockfile: GradleLockfile, file: string) => file === CATALOG || lockfile.project === projectOf(file);

/**
 * The version the lockfiles lock for `name`, declared in `files` (build scripts or the catalog, see
 * {@link locksDeclarationsOf}): the lockfiles of `manifest` (the declaration that gives the requirement) first, then
 * those of the other declaring files; in the first that locks the module, its version (the highest by Gradle's order when
 * configurations lock different versions). Undefined when no lockfile locks it.
 */
export function lockedVersion(
  lockfiles: readonly GradleLockfile[],
  name: string,
  manifest: string,
  declaredIn: readonly string[],
): string | undefined {
  const ordered = [
    ...lockfiles.filter((l) => locksDeclarationsOf(l, manifest)),
    ...lockfiles.filter((l) => !locksDeclarationsOf(l, manifest) && declaredIn.some((file) => locksDeclarationsOf(l, file))),
  ];
  for (const lockfile of ordered) {
    const versions = lockfile.entries.filter((e) => e.name === name).map((e) => e.version);
    if (versions.length > 0) return versions.reduce((a, b) => (compareGradleVersions(a, b) >= 0 ? a : b));
  }
  return undefined;
}

/** The requirement text a declaration stands for, or null when it has none that can be read. */
const requirementOf = (d: GradleDeclaration) => (d.version !== null && 'file' in d.version ? d.version.text : null);

/** Does the locked `version` meet `requirement` as Gradle resolves it (a plain version is a minimum)? False when unreadable. */
function meets(version: string, requirement: string): boolean {
  if (requirement.trim() === '*' || requirement.trim() === '') return true;
  try {
    parseGradleRequirement(requirement);
    return gradleVersions.isValid(version) && gradleVersions.satisfies(version, requirement);
  } catch {
    return false;
  }
}

/**
 * Updates the lockfiles for a Gradle dependency update (Dependabot ran `gradle dependencies --write-locks`,
 * dependabot-core `gradle/lib/dependabot/gradle/file_updater/lockfile_updater.rb`; there is no Gradle here, so the lock
 * state is edited where that gives what Gradle would write): each line of `request.use.name` in every lockfile
 * ({@link GRADLE_LOCKFILES}) gets the target version, its configurations, the lines' order and every other byte kept.
 * Only changed lockfiles are given; none when no lockfile locks the module.
 *
 * `needsResolution` (Gradle would move other lines too, or the edit could not be checked) when: the target is not a
 * Gradle version; an updated declaration of the module does not allow the target; a lockfile locks the module at
 * several versions (configurations resolved apart); the registry does not publish the target's dependencies; a runtime
 * dependency of the target (its POM's compile and runtime scopes) is not locked beside it, or is locked at a version its
 * requirement does not allow (a plain version is a minimum: Gradle's conflict resolution would raise the locked one);
 * another dependency whose requirement the manifest update moved (a shared property or `[versions]` entry) is locked
 * at a version its new requirement does not allow.
 * @throws ManifestParseError when a lockfile or the catalog does not parse
 */
export function updateGradleLockfiles(request: LockfileRequest): LockfileUpdate {
  const { files, updated, use, target } = request;
  const lockfiles = readGradleLockfiles(files);
  const name = use.name.trim();
  const version = target.version.trim();
  const locking = lockfiles.filter((l) => l.entries.some((e) => e.name === name));
  if (locking.length === 0) return { files: {} };
  if (!gradleVersions.isValid(version)) return { needsResolution: `${version} is not a Gradle version` };

  const after = readGradle(updated);
  for (const declaration of after.filter((d) => d.name === name)) {
    const requirement = requirementOf(declaration);
    if (requirement !== null && !meets(version, requirement)) {
      return { needsResolution: `${declaration.file} (${declaration.where}): '${requirement}' does not allow ${version}` };
    }
  }
  for (const lockfile of locking) {
    const versions = [...new Set(lockfile.entries.filter((e) => e.name === name).map((e) => e.version))];
    if (versions.length > 1) {
      return { needsResolution: `${lockfile.file} locks ${name} at ${versions.join(' and ')} in different configurations` };
    }
  }
  if (target.dependencies === null) {
    return { needsResolution: `the registry does not publish the dependencies of ${name} ${version}` };
  }
  for (const dependency of target.dependencies) {
    if (dependency.kind !== 'runtime' || dependency.name === name) continue;
    for (const lockfile of locking) {
      const locked = lockfile.entries.filter((e) => e.name === dependency.name);
      if (locked.length === 0) {
        return {
          needsResolution: `${name} ${version} depends on ${dependency.name} ${dependency.requirement}, which ${lockfile.file} does not lock`,
        };
      }
      const below = locked.find((e) => !meets(e.version, dependency.requirement));
      if (below) {
        return {
          needsResolution: `${name} ${version} depends on ${dependency.name} ${dependency.requirement}; ${lockfile.file} locks ${below.version} (line ${below.line})`,
        };
      }
    }
  }
  const before = readGradle(files);
  const requirementsOf = (all: readonly GradleDeclaration[], of: string) =>
    all
      .filter((d) => d.name === of)
      .map((d) => `${d.file} ${d.where.replace(/, line \d+$/, '')} ${requirementOf(d)}`)
      .sort()
      .join('\n');
  for (const declaration of after) {
    if (declaration.name === name) continue;
    const requirement = requirementOf(declaration);
    if (requirement === null || requirementsOf(before, declaration.name) === requirementsOf(after, declaration.name)) continue;
    for (const lockfile of lockfiles.filter((l) => locksDeclarationsOf(l, declaration.file))) {
      const stale = lockfile.entries.find((e) => e.name === declaration.name && !meets(e.version, requirement));
      if (stale) {
        return {
          needsResolution: `the update moves ${declaration.name} to '${requirement}' (${declaration.file}, ${declaration.where}), and ${lockfile.file} locks it at ${stale.version}`,
        };
      }
    }
  }

  const out: Record<string, string> = {};
  for (const lockfile of locking) {
    let text = files[lockfile.file] ?? '';
    const edits = lockfile.entries.filter((e) => e.name === name && e.version !== version).sort((a, b) => b.start - a.start);
    if (edits.length === 0) continue;
    for (const entry of edits) text = text.slice(0, entry.start) + version + text.slice(entry.end);
    out[lockfile.file] = text;
  }
  return { files: out };
}
