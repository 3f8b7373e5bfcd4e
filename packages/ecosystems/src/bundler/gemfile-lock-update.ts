import type { LockfileRequest, LockfileUpdate } from '../ecosystem.ts';
import type { RegistryDependency } from '../registry-data.ts';
import { readGemfileLock } from './gemfile-lock.ts';
import { type BundlerDeclaration, bundlerDeclarations, lockfileOf, normalisePath } from './manifests.ts';
import { rubyClauses, rubyVersions } from './versions.ts';

const SOURCES = new Set(['GEM', 'GIT', 'PATH', 'PLUGIN SOURCE']);

const normalise = (name: string) => name.trim().toLowerCase();

/** One line of the lockfile: its text without the line break, and the break itself (`\n`, `\r\n` or none at the end). */
interface Line {
  text: string;
  eol: string;
}

/** A `    name (version)` spec line under `specs:` of a source section, with its 6-space dependency lines. */
interface Spec {
  section: string;
  /** The section's `remote:` (a `PATH` section's is the path, relative to the Gemfile's directory). */
  remote: string;
  /** Index of the spec line in the lines. */
  line: number;
  /** Indexes of its dependency lines (`      dep (>= 1.0)`). */
  dependencyLines: number[];
  name: string;
  /** As written: `1.2.3` or `1.2.3-x86_64-linux`. */
  version: string;
  platform: string | null;
  /** The dependencies as written: name and requirement (null when none). */
  dependencies: { name: string; requirement: string | null }[];
}

/** What the updater reads of a Gemfile.lock: lines, specs, `DEPENDENCIES` entries and `CHECKSUMS` lines. */
interface LockStructure {
  lines: Line[];
  specs: Spec[];
  /** `  name (requirement)!` lines: index, name, `!` suffix. */
  dependencies: { line: number; name: string; bang: boolean }[];
  /** `  name (version) sha256=…` lines: index, name, version as written, digests text (after the space) or null. */
  checksums: { line: number; name: string; version: string; digests: string | null }[];
}

/** Splits text into lines keeping each line's own break. */
function linesOf(text: string): Line[] {
  return (text.match(/[^\n]*\n|[^\n]+$/g) ?? []).map((raw) => {
    const eol = raw.endsWith('\r\n') ? '\r\n' : raw.endsWith('\n') ? '\n' : '';
    return { text: raw.slice(0, raw.length - eol.length), eol };
  });
}

/** `name` or `name (requirement)` (a dependency line's content after its indentation), `!` allowed at the end. */
const ENTRY = /^(\S+?)(?: \(([^)]*)\))?(!)?$/;

/** Reads the lines the updater edits; {@link readGemfileLock} has checked the structure already. */
function structureOf(text: string): LockStructure {
  const lines = linesOf(text);
  const specs: Spec[] = [];
  const dependencies: LockStructure['dependencies'] = [];
  const checksums: LockStructure['checksums'] = [];
  let section = '';
  let remote = '';
  let inSpecs = false;
  let current: Spec | undefined;
  for (const [index, { text: raw }] of lines.entries()) {
    const line = raw.trimEnd();
    if (line === '') continue;
    if (!/^\s/.test(line)) {
      section = line;
      remote = '';
      inSpecs = false;
      current = undefined;
      continue;
    }
    if (SOURCES.has(section)) {
      if (/^ {2}\S/.test(line)) {
        inSpecs = line.trim() === 'specs:';
        remote = /^ {2}remote: (.*)$/.exec(line)?.[1]?.trim() ?? remote;
        current = undefined;
        continue;
      }
      if (!inSpecs) continue;
      const spec = /^ {4}(\S+) \(([^)\s]+)\)$/.exec(line);
      if (spec) {
        const version = spec[2] ?? '';
        const dash = version.indexOf('-');
        current = {
          section,
          remote,
          line: index,
          dependencyLines: [],
          name: spec[1] ?? '',
          version,
          platform: dash === -1 ? null : version.slice(dash + 1),
          dependencies: [],
        };
        specs.push(current);
        continue;
      }
      const dependency = /^ {6}(\S.*)$/.exec(line);
      const entry = dependency && ENTRY.exec(dependency[1] ?? '');
      if (current && entry) {
        current.dependencyLines.push(index);
        current.dependencies.push({ name: entry[1] ?? '', requirement: entry[2] ?? null });
      }
    } else if (section === 'DEPENDENCIES') {
      const entry = /^ {2}(\S.*)$/.exec(line);
      const parsed = entry && ENTRY.exec(entry[1] ?? '');
      if (parsed) dependencies.push({ line: index, name: parsed[1] ?? '', bang: parsed[3] === '!' });
    } else if (section === 'CHECKSUMS') {
      const entry = /^ {2}(\S+) \(([^)\s]+)\)(?: (\S+))?$/.exec(line);
      if (entry) checksums.push({ line: index, name: entry[1] ?? '', version: entry[2] ?? '', digests: entry[3] ?? null });
    }
  }
  return { lines, specs, dependencies, checksums };
}

/** A version as `Gem::Version#to_s` writes it: trimmed, `-` spelled `.pre.` (`1.0.0-rc1` → `1.0.0.pre.rc1`). */
const gemVersionText = (version: string) => version.trim().replaceAll('-', '.pre.');

/**
 * A `Gem::Requirement` as Bundler writes it in a lockfile (`Gem::Dependency#to_lock` in bundler's
 * `rubygems_ext.rb`, https://github.com/rubygems/rubygems/blob/master/bundler/lib/bundler/rubygems_ext.rb): each
 * clause as `<operator> <version>` (`=` when none is written), duplicates dropped, sorted as strings and reversed
 * (`>= 1.0, < 3`; `~> 1.2, >= 1.2.3`). Null for the default requirement `>= 0`, which the lockfile leaves out.
 * @throws InvalidRequirementError when the requirement is not one RubyGems reads
 */
export function lockRequirement(requirement: string): string | null {
  const parts = [...new Set(rubyClauses(requirement).map(([operator, version]) => `${operator} ${gemVersionText(version)}`))];
  if (parts.length === 1 && /^>= 0(\.0)*$/.test(parts[0] ?? '')) return null;
  return parts.sort().reverse().join(', ');
}

/**
 * The dependency lines Bundler writes under a spec (`LazySpecification#to_lock`): runtime dependencies sorted by
 * `Gem::Dependency#to_s` (`name (clauses as given)`), each `      name (requirement)` or `      name`.
 */
function dependencyLines(dependencies: readonly RegistryDependency[]): string[] {
  const keyed = dependencies.map((dependency) => {
    const clauses = rubyClauses(dependency.requirement)
      .map(([operator, version]) => `${operator} ${gemVersionText(version)}`)
      .join(', ');
    const requirement = lockRequirement(dependency.requirement);
    return { key: `${dependency.name} (${clauses})`, line: `      ${dependency.name}${requirement === null ? '' : ` (${requirement})`}` };
  });
  keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return [...new Set(keyed.map((entry) => entry.line))];
}

/** Does `version` satisfy `requirement` (a lockfile's or a registry's), false for one RubyGems cannot read. */
function allows(version: string, requirement: string | null): boolean {
  if (requirement === null) return true;
  try {
    return rubyVersions.satisfies(version, requirement);
  } catch {
    return false;
  }
}

/**
 * What the files declare of `name` that a lockfile records (normalised names): `entry`, the requirement of its
 * `DEPENDENCIES` entry (undefined when it has none to have), which is the first Gemfile declaration's, else that of a
 * development dependency of a gemspec the Gemfile's `gemspec` loads (Bundler's `Dsl#gemspec` adds those as gems, and
 * "prefer[s] the dependency from the Gemfile"); `paths`, the runtime declarations of gemspecs whose gem the lockfile
 * locks in a `PATH` section (their requirements are that spec's dependency lines, `LazySpecification#to_lock`): the
 * spec and the requirement. A gemspec the lockfile has no `PATH` spec for was not loaded by Bundler.
 * @throws ManifestParseError when the Gemfile or a gemspec does not parse
 */
function lockedDeclarations(
  files: Readonly<Record<string, string>>,
  name: string,
  specs: readonly Spec[],
): { entry: string | null | undefined; paths: { spec: Spec; requirement: string | null }[]; partial: BundlerDeclaration | undefined } {
  const declarations = bundlerDeclarations(files).declarations.filter((gem) => normalise(gem.name) === name);
  const pathSpecOf = (gem: BundlerDeclaration): Spec | undefined => {
    if (!gem.gemspec || gem.of === undefined) return undefined;
    const folder = normalisePath(gem.file.split('/').slice(0, -1).join('/'));
    const own = normalise(gem.of);
    return specs.find((spec) => spec.section === 'PATH' && normalisePath(spec.remote) === folder && normalise(spec.name) === own);
  };
  const fromGemfile = declarations.find((gem) => !gem.gemspec);
  const fromGemspec = declarations.find((gem) => gem.type === 'development' && pathSpecOf(gem) !== undefined);
  const entry = (fromGemfile ?? fromGemspec)?.requirement;
  const paths = declarations.flatMap((gem) => {
    const spec = gem.type === 'runtime' ? pathSpecOf(gem) : undefined;
    return spec ? [{ spec, requirement: gem.requirement }] : [];
  });
  return { entry, paths, partial: declarations.find((gem) => gem.partial) };
}

/** Names reachable from the `DEPENDENCIES` entries through the specs' dependency lines (normalised names). */
function reachable(roots: readonly string[], specs: readonly Spec[]): Set<string> {
  const byName = new Map<string, Spec[]>();
  for (const spec of specs) byName.set(normalise(spec.name), [...(byName.get(normalise(spec.name)) ?? []), spec]);
  const seen = new Set<string>();
  const queue = roots.map(normalise);
  for (let name = queue.pop(); name !== undefined; name = queue.pop()) {
    if (seen.has(name)) continue;
    seen.add(name);
    for (const spec of byName.get(name) ?? []) for (const dependency of spec.dependencies) queue.push(normalise(dependency.name));
  }
  return seen;
}

/**
 * Rewrites the lockfile of the files (`Gemfile.lock`, or `gems.locked` beside `gems.rb`: `lockfileOf`; same format,
 * https://bundler.io/guides/bundler_2_upgrade.html, bundler's `LockfileParser` and `LockfileGenerator`,
 * https://github.com/rubygems/rubygems/tree/master/bundler/lib/bundler) so it locks `request.target` instead of
 * `request.use.version`, editing only these lines:
 * - the `GEM` section's `    name (old)` spec becomes `    name (new)`, and its dependency lines are replaced by the
 *   target's runtime dependencies as Bundler writes them ({@link lockRequirement}, sorted by name);
 * - the `DEPENDENCIES` entry, when the requirement it records changed (`request.updated`: the Gemfile's first
 *   declaration, else a development dependency of the gemspec the Gemfile's `gemspec` loads), keeping a `!` suffix;
 * - the dependency line of the gem under the `PATH` spec of a gemspec that declares it as a runtime dependency (the
 *   gem's own spec, `remote:` its folder: `.` for the directory's gemspec), when that gemspec's requirement changed;
 * - the `CHECKSUMS` line `  name (old) sha256=…` (Bundler ≥ 2.5), with the `.gem`'s SHA-256 from the registry;
 * - specs (and their `CHECKSUMS` lines) only the old version needed, no longer reachable from `DEPENDENCIES`, are
 *   removed, as Bundler drops them when it writes the lockfile (specs it did not reach before stay, with what they name).
 * Every other byte, line breaks (`\n` or `\r\n`) included, stays.
 *
 * `needsResolution` (no file) when this is not a faithful lockfile: the gem is not locked in a `GEM` section at the old
 * version, or is locked for specific platforms too (`name (1.2.3-x86_64-linux)`: the platform gems of the target
 * version and their dependencies are not described by the registry's `ruby` build); the registry does not publish the
 * target's dependencies; a runtime dependency of the target is not satisfied by a gem already locked; another locked gem's
 * requirement on the gem (its dependency line) or the manifests' does not allow the target, or a declaration of the gem
 * has arguments computed at run time (`gem "rack", rack_version`: its requirement is unknown); the lockfile has no
 * `DEPENDENCIES` entry for it (nor a `PATH` spec line, for a gemspec's runtime dependency); or its `CHECKSUMS` line has
 * a checksum but the registry gives no SHA-256.
 * A request without a lockfile updates nothing (`files` empty).
 * @throws ManifestParseError when the lockfile (or the Gemfile, or a gemspec) does not parse
 */
export function updateGemfileLock(request: LockfileRequest): LockfileUpdate {
  const lockfile = lockfileOf(request.files);
  if (lockfile === undefined) return { files: {} };
  const text = request.files[lockfile] ?? '';
  readGemfileLock(lockfile, text);
  const { use, target } = request;
  const name = normalise(use.name);
  const lock = structureOf(text);
  const own = lock.specs.filter((spec) => normalise(spec.name) === name);
  const outside = own.find((spec) => spec.section !== 'GEM');
  if (outside) return { needsResolution: `${use.name} is locked from a ${outside.section} source, not a gem server` };
  const platformSpecs = own.filter((spec) => spec.platform !== null);
  if (platformSpecs.length > 0) {
    return {
      needsResolution: `${use.name} is locked for specific platforms (${platformSpecs.map((spec) => spec.platform).join(', ')}): their builds of ${target.version} need a resolver`,
    };
  }
  const spec = own.find((candidate) => candidate.version === use.version);
  if (use.version === null || spec === undefined)
    return { needsResolution: `${use.name} is not locked at ${use.version ?? 'a known version'}` };
  if (!rubyVersions.isValid(target.version)) return { needsResolution: `${target.version} is not a RubyGems version` };
  if (target.dependencies === null)
    return { needsResolution: `the registry does not list the dependencies of ${use.name} ${target.version}` };

  // Every runtime dependency of the target must be met by a gem already locked.
  const runtime = target.dependencies.filter((dependency) => dependency.kind === 'runtime' && normalise(dependency.name) !== name);
  for (const dependency of runtime) {
    try {
      rubyClauses(dependency.requirement);
    } catch {
      return {
        needsResolution: `${use.name} ${target.version} requires ${dependency.name} '${dependency.requirement}', which RubyGems cannot read`,
      };
    }
    const locked = lock.specs.filter((other) => normalise(other.name) === normalise(dependency.name));
    if (!locked.some((other) => allows(other.version.split('-')[0] ?? '', dependency.requirement))) {
      const held = locked.length === 0 ? 'not locked' : `locked at ${locked.map((other) => other.version).join(', ')}`;
      return { needsResolution: `${use.name} ${target.version} requires ${dependency.name} '${dependency.requirement}' (${held})` };
    }
  }
  // The lines the updated manifests give: the DEPENDENCIES entry, and the dependency lines of the gemspecs' PATH specs.
  const before = lockedDeclarations(request.files, name, lock.specs);
  const after = lockedDeclarations(request.updated, name, lock.specs);
  if (after.partial) {
    return {
      needsResolution: `${after.partial.file} computes arguments of ${use.name} when Ruby runs: its requirement is not known here`,
    };
  }
  const pathLines: { line: number; written: string; requirement: string | null; changed: boolean }[] = [];
  for (const { spec: pathSpec, requirement } of after.paths) {
    const at = pathSpec.dependencies.findIndex((dependency) => normalise(dependency.name) === name);
    const line = pathSpec.dependencyLines[at];
    if (line === undefined)
      return { needsResolution: `${lockfile}'s PATH spec ${pathSpec.name} does not list ${use.name}: it is out of date` };
    const old = before.paths.find((path) => path.spec === pathSpec)?.requirement;
    pathLines.push({ line, written: pathSpec.dependencies[at]?.name ?? use.name, requirement, changed: old !== requirement });
  }
  // Every other locked gem's requirement on this one must allow the target.
  for (const other of lock.specs) {
    for (const [at, dependency] of other.dependencies.entries()) {
      if (pathLines.some((path) => path.line === other.dependencyLines[at])) continue; // rewritten from its gemspec
      if (normalise(dependency.name) === name && !allows(target.version, dependency.requirement)) {
        return {
          needsResolution: `${other.name} ${other.version} requires ${use.name} (${dependency.requirement}), which ${target.version} does not meet`,
        };
      }
    }
  }
  const entry = lock.dependencies.find((dependency) => normalise(dependency.name) === name);
  if (entry === undefined && (after.entry !== undefined || pathLines.length === 0))
    return { needsResolution: `${lockfile} has no DEPENDENCIES entry for ${use.name}: it is out of date` };
  for (const requirement of [after.entry, ...pathLines.map((path) => path.requirement)]) {
    if (requirement !== undefined && !allows(target.version, requirement)) {
      return { needsResolution: `the manifests' requirement '${requirement}' of ${use.name} does not allow ${target.version}` };
    }
  }
  const checksum = lock.checksums.find((line) => normalise(line.name) === name && line.version === spec.version);
  const sha256 = target.artifacts
    .find((artifact) => artifact.filename.endsWith('.gem'))
    ?.digests.find((digest) => digest.algorithm === 'sha256' && digest.encoding === 'hex')?.value;
  if (checksum?.digests && sha256 === undefined)
    return { needsResolution: `the registry gives no SHA-256 of ${use.name} ${target.version} for CHECKSUMS` };

  // The edits, by line index: replacement lines (each written with that line's break), or removal.
  const replaced = new Map<number, string[]>();
  const eol = lock.lines.find((line) => line.eol !== '')?.eol ?? '\n';
  const written = `    ${spec.name} (${target.version})`;
  replaced.set(spec.line, [written, ...dependencyLines(runtime)]);
  for (const index of spec.dependencyLines) replaced.set(index, []);
  if (entry && after.entry !== undefined && after.entry !== before.entry) {
    const requirement = after.entry === null ? null : lockRequirement(after.entry);
    replaced.set(entry.line, [`  ${entry.name}${requirement === null ? '' : ` (${requirement})`}${entry.bang ? '!' : ''}`]);
  }
  for (const path of pathLines) {
    if (!path.changed) continue;
    const requirement = path.requirement === null ? null : lockRequirement(path.requirement);
    replaced.set(path.line, [`      ${path.written}${requirement === null ? '' : ` (${requirement})`}`]);
  }
  if (checksum) {
    replaced.set(checksum.line, [`  ${checksum.name} (${target.version})${sha256 === undefined ? '' : ` sha256=${sha256}`}`]);
  }

  // Gems only the old version needed: no longer reachable from DEPENDENCIES once the target's dependencies replace its own.
  const roots = lock.dependencies.map((dependency) => dependency.name);
  const updatedSpecs = lock.specs.map((other) =>
    other === spec ? { ...other, dependencies: runtime.map((dependency) => ({ name: dependency.name, requirement: null })) } : other,
  );
  const wasReachable = reachable(roots, lock.specs);
  // Gems DEPENDENCIES did not reach before stay as they were, with the gems they name.
  const unreached = lock.specs.map((other) => normalise(other.name)).filter((gem) => !wasReachable.has(gem));
  const isReachable = reachable([...roots, ...unreached], updatedSpecs);
  const orphans = new Set([...wasReachable].filter((gem) => !isReachable.has(gem)));
  for (const other of lock.specs) {
    if (!orphans.has(normalise(other.name))) continue;
    for (const index of [other.line, ...other.dependencyLines]) replaced.set(index, []);
  }
  for (const line of lock.checksums) if (orphans.has(normalise(line.name))) replaced.set(line.line, []);

  const out = lock.lines.flatMap((line, index) => {
    const replacement = replaced.get(index);
    if (replacement === undefined) return [`${line.text}${line.eol}`];
    return replacement.map((content, at) => `${content}${at === replacement.length - 1 ? line.eol : eol}`);
  });
  return { files: { [lockfile]: out.join('') } };
}
