import type { DependencyUse, LockfileRequest, LockfileUpdate } from '../ecosystem.ts';
import type { RegistryDependency, RegistryVersionDetails } from '../registry-data.ts';
import { isTable } from '../shared/parse.ts';
import { jsonStringAt, jsonStrings } from '../update/json-spans.ts';
import { CENTRAL_FILE, isNamed, LOCKFILE } from './files.ts';
import { lockTargets } from './manifests.ts';
import { nugetAllows } from './update.ts';
import { legacyShortNuGetRange, normalisedNuGetRange, normaliseNuGetVersion, nugetVersions } from './versions.ts';

type Files = Readonly<Record<string, string>>;

/**
 * A target framework in NuGet's short folder form, lower-cased, for comparing a lock file's framework with a registry's
 * dependency group: `.NETCoreApp,Version=v8.0` and `net8.0` → `net8.0`, `.NETCoreApp,Version=v3.1` → `netcoreapp3.1`,
 * `.NETStandard2.0` and `.NETStandard,Version=v2.0` → `netstandard2.0`, `.NETFramework4.6.2` → `net462`; other names as
 * written, lower-cased (https://learn.microsoft.com/nuget/reference/target-frameworks).
 */
export function shortFrameworkName(framework: string): string {
  const text = framework.trim().toLowerCase();
  const long = /^\.(netcoreapp|netstandard|netframework)(?:,version=v|)(\d+(?:\.\d+)*)$/.exec(text);
  if (!long) return text;
  const [, family, version = ''] = long;
  const parts = version.split('.');
  if (family === 'netframework') return `net${parts.join('')}`;
  const majorMinor = `${parts[0] ?? '0'}.${parts[1] ?? '0'}`;
  if (family === 'netcoreapp' && Number(parts[0]) >= 5) return `net${majorMinor}`;
  return `${family}${majorMinor}`;
}

/**
 * The dependencies `target` declares for `framework`, or null when that cannot be told from what the registry gives:
 * its dependencies come as one list, each with its group's framework as `condition`, and a group without dependencies
 * leaves no trace, so NuGet's nearest-framework choice cannot be made. Told: no dependencies at all; only dependencies
 * without a framework; or some for exactly `framework` (with those without one).
 */
function dependenciesFor(target: RegistryVersionDetails, framework: string): RegistryDependency[] | null {
  const all = target.dependencies;
  if (all === null) return null;
  const unconditional = all.filter((d) => d.condition === undefined || d.condition === '');
  if (unconditional.length === all.length) return all;
  const wanted = shortFrameworkName(framework);
  const exact = all.filter((d) => d.condition !== undefined && d.condition !== '' && shortFrameworkName(d.condition) === wanted);
  return exact.length > 0 ? [...unconditional, ...exact] : null;
}

/** The base64 SHA-512 of the target's `.nupkg` (NuGet's `contentHash`), from the registry's digests; undefined when none. */
function contentHashOf(target: RegistryVersionDetails): string | undefined {
  const ranked = [...target.artifacts].sort((a, b) => Number(b.filename.endsWith('.nupkg')) - Number(a.filename.endsWith('.nupkg')));
  for (const artifact of ranked) {
    if (artifact.filename.endsWith('.snupkg')) continue;
    const digest = artifact.digests.find((d) => d.algorithm === 'sha512');
    if (!digest) continue;
    if (digest.encoding === 'hex' && /^[0-9a-fA-F]{128}$/.test(digest.value)) return Buffer.from(digest.value, 'hex').toString('base64');
    if (digest.encoding === 'sri' && digest.value.startsWith('sha512-')) return digest.value.slice('sha512-'.length);
  }
  return undefined;
}

/** Does a lock file range (a bare minimum, `[x]` or an interval) allow `version`? False when it does not parse. */
function rangeAllows(version: string, range: string): boolean {
  try {
    return nugetVersions.satisfies(version, range);
  } catch {
    return false;
  }
}

/** The same range written two ways (`13.0.1` and `[13.0.1, )`)? */
function sameRange(a: string, b: string): boolean {
  try {
    return normalisedNuGetRange(a) === normalisedNuGetRange(b);
  } catch {
    return false;
  }
}

/**
 * `packages.lock.json` updated for `request` (see {@link Ecosystem.updateLockfiles}), as `dotnet restore --force-evaluate`
 * (what Dependabot's NuGet lockfile updater runs) would write it when nothing else moves: in each target framework that
 * locks the package as `Direct` (or `CentralTransitive`), `resolved` becomes the target (normalised), `contentHash` the
 * base64 SHA-512 of its `.nupkg` from the registry's digest, `requested` the manifest's new requirement as NuGet
 * normalises it (`[13.0.3, )`), and the values of its `dependencies` the target's for that framework (legacy short
 * form: `8.0.1`, `[1.0.0, 2.0.0)`). A `Project` entry's range of the package moves with a central version. Only string
 * values change (https://learn.microsoft.com/nuget/consume-packages/package-references-in-project-files#locking-dependencies).
 *
 * needsResolution when: the lock file does not lock the package directly; the manifest's requirement (before or after)
 * is null, does not match `requested`, or would not make NuGet pick the target; the registry gives no SHA-512 or no
 * dependencies, or the target's dependencies for a framework cannot be told ({@link dependenciesFor}), name packages the
 * entry does not list (or leave out some it lists), or are not satisfied by the versions locked for that framework;
 * another locked package's range of it excludes the target; a value is written with JSON escapes.
 * @throws ManifestParseError when packages.lock.json does not parse
 */
export function updatePackagesLock(
  request: LockfileRequest,
  find: (files: Files, name: string) => DependencyUse | undefined,
): LockfileUpdate {
  const text = request.files[LOCKFILE];
  if (text === undefined) return { files: {} };
  const { target, use } = request;
  const targets = lockTargets(text);
  const wanted = use.name.trim().toLowerCase();
  const resolved = normaliseNuGetVersion(target.version);
  if (resolved === undefined) return { needsResolution: `'${target.version}' is not a NuGet version` };
  const before = find(request.files, use.name)?.requirement ?? null;
  const after = find(request.updated, use.name)?.requirement ?? null;
  if (before === null || after === null) return { needsResolution: `the manifest gives ${use.name} no version requirement to lock` };
  if (!nugetAllows(target.version, after)) {
    return { needsResolution: `NuGet would not resolve '${after}' to ${target.version} (it takes the lowest applicable version)` };
  }
  let requestedBefore: string;
  let requestedAfter: string;
  try {
    requestedBefore = normalisedNuGetRange(before);
    requestedAfter = normalisedNuGetRange(after);
  } catch (error) {
    return { needsResolution: (error as Error).message };
  }
  const contentHash = contentHashOf(target);
  if (contentHash === undefined) return { needsResolution: `the registry gives no SHA-512 of ${target.name} ${target.version}'s .nupkg` };
  const central = isNamed(use.manifest, CENTRAL_FILE);

  const strings = jsonStrings(text);
  const edits: { start: number; end: number; text: string }[] = [];
  const edit = (path: readonly string[], value: string): string | undefined => {
    const span = jsonStringAt(strings, path);
    if (!span) return `packages.lock.json has no string at ${path.join('.')}`;
    if (span.escaped) return `packages.lock.json writes ${path.join('.')} with escapes`;
    if (text.slice(span.start, span.end) !== value) edits.push({ start: span.start, end: span.end, text: value });
    return undefined;
  };

  let locked = 0;
  for (const lockTarget of targets) {
    const packages = lockTarget.dependencies;
    const idOf = (name: string) => Object.keys(packages).find((key) => key.toLowerCase() === name.toLowerCase());
    // the other locked packages' ranges of this one
    for (const [id, entry] of Object.entries(packages)) {
      if (!isTable(entry) || !isTable(entry.dependencies)) continue;
      for (const [name, range] of Object.entries(entry.dependencies)) {
        if (name.toLowerCase() !== wanted || typeof range !== 'string') continue;
        const path = [...lockTarget.path, id, 'dependencies', name];
        if (String(entry.type).toLowerCase() === 'project' && central && requestedBefore !== requestedAfter && range === requestedBefore) {
          const problem = edit(path, requestedAfter);
          if (problem) return { needsResolution: problem };
        } else if (!rangeAllows(target.version, range)) {
          return { needsResolution: `${id} (${lockTarget.framework}) requires ${name} ${range}, which ${target.version} does not satisfy` };
        }
      }
    }
    const id = idOf(use.name);
    const entry = id === undefined ? undefined : packages[id];
    if (id === undefined || !isTable(entry) || !['direct', 'centraltransitive'].includes(String(entry.type).toLowerCase())) continue;
    locked++;
    const at = [...lockTarget.path, id];
    if (entry.requested !== requestedBefore) {
      return {
        needsResolution: `packages.lock.json requests ${id} '${String(entry.requested)}' for ${lockTarget.framework}, not the manifest's '${requestedBefore}'`,
      };
    }
    const declared = dependenciesFor(target, lockTarget.framework);
    if (declared === null) {
      return {
        needsResolution: `the dependencies of ${target.name} ${target.version} for ${lockTarget.framework} cannot be told from the registry`,
      };
    }
    const listed = isTable(entry.dependencies) ? entry.dependencies : {};
    const listedNames = Object.keys(listed).map((name) => name.toLowerCase());
    const declaredNames = [...new Set(declared.map((d) => d.name.toLowerCase()))];
    if (listedNames.length !== declaredNames.length || declaredNames.some((name) => !listedNames.includes(name))) {
      return {
        needsResolution: `${target.name} ${target.version} depends on ${declaredNames.join(', ') || 'nothing'} for ${lockTarget.framework}, the lock lists ${listedNames.join(', ') || 'nothing'}`,
      };
    }
    for (const dependency of declared) {
      const lockedId = idOf(dependency.name);
      const lockedEntry = lockedId === undefined ? undefined : packages[lockedId];
      const version = isTable(lockedEntry) && typeof lockedEntry.resolved === 'string' ? lockedEntry.resolved : undefined;
      if (version === undefined || !rangeAllows(version, dependency.requirement)) {
        return {
          needsResolution: `${target.name} ${target.version} requires ${dependency.name} ${dependency.requirement}, which packages.lock.json does not satisfy for ${lockTarget.framework}`,
        };
      }
      const key = Object.keys(listed).find((name) => name.toLowerCase() === dependency.name.toLowerCase()) as string;
      const old = listed[key];
      if (typeof old === 'string' && sameRange(old, dependency.requirement)) continue;
      let value: string;
      try {
        value = legacyShortNuGetRange(dependency.requirement);
      } catch (error) {
        return { needsResolution: (error as Error).message };
      }
      const problem = edit([...at, 'dependencies', key], value);
      if (problem) return { needsResolution: problem };
    }
    for (const [field, value] of [
      ['requested', requestedAfter],
      ['resolved', resolved],
      ['contentHash', contentHash],
    ] as const) {
      const problem = edit([...at, field], value);
      if (problem) return { needsResolution: problem };
    }
  }
  if (locked === 0) return { needsResolution: `packages.lock.json does not lock ${use.name} as a direct dependency` };
  if (edits.length === 0) return { files: {} };
  let updated = text;
  for (const change of [...edits].sort((a, b) => b.start - a.start)) {
    updated = updated.slice(0, change.start) + change.text + updated.slice(change.end);
  }
  return { files: { [LOCKFILE]: updated } };
}

/** A referenced project's requirement of a package before and after the manifest update, as written. */
export interface ProjectRequirementMove {
  before: string;
  after: string;
}

/**
 * A `packages.lock.json` text with the ranges its `Project` entries (the projects it references: `"app": { "type":
 * "Project", "dependencies": { "Contoso.Logging": "[3.1.1, )" } }`) give package `name` moved with the referenced
 * project's requirement: `moves` by lower-cased project name (the entry's key, the project file's name without its
 * extension), each range that is the old requirement as NuGet normalises it becoming the new one normalised
 * (`VersionRange.ToNormalizedString`, as `dotnet restore` writes it). Ranges of projects not in `moves`, and ranges
 * that are not the old requirement, stay.
 * @returns the text (the same when nothing moves), or why not (a range written with escapes, a requirement NuGet
 *   cannot normalise)
 * @throws ManifestParseError when the text does not parse
 */
export function moveProjectEntryRanges(
  text: string,
  name: string,
  moves: ReadonlyMap<string, ProjectRequirementMove>,
): { text: string } | { needsResolution: string } {
  const wanted = name.trim().toLowerCase();
  const edits: { start: number; end: number; text: string }[] = [];
  let strings: ReturnType<typeof jsonStrings> | undefined;
  for (const lockTarget of lockTargets(text)) {
    for (const [id, entry] of Object.entries(lockTarget.dependencies)) {
      const move = moves.get(id.toLowerCase());
      if (!move || !isTable(entry) || String(entry.type).toLowerCase() !== 'project' || !isTable(entry.dependencies)) continue;
      for (const [dependency, range] of Object.entries(entry.dependencies)) {
        if (dependency.toLowerCase() !== wanted || typeof range !== 'string' || !sameRange(range, move.before)) continue;
        let after: string;
        try {
          after = normalisedNuGetRange(move.after);
        } catch (error) {
          return { needsResolution: (error as Error).message };
        }
        strings ??= jsonStrings(text);
        const span = jsonStringAt(strings, [...lockTarget.path, id, 'dependencies', dependency]);
        if (!span || span.escaped) return { needsResolution: `packages.lock.json writes ${id}'s range of ${dependency} with escapes` };
        if (text.slice(span.start, span.end) !== after) edits.push({ start: span.start, end: span.end, text: after });
      }
    }
  }
  let updated = text;
  for (const change of [...edits].sort((a, b) => b.start - a.start)) {
    updated = updated.slice(0, change.start) + change.text + updated.slice(change.end);
  }
  return { text: updated };
}
