import type { DependencyUse, Ecosystem } from '../ecosystem.ts';
import { requiredFilesOf } from '../required-files.ts';
import { groupBy } from '../shared/group.ts';
import { lazy } from '../shared/lazy.ts';
import { pickLocked } from '../shared/pick-locked.ts';
import { updateDeclarations } from '../update/declarations.ts';
import { readGemfileLock } from './gemfile-lock.ts';
import { updateGemfileLock } from './gemfile-lock-update.ts';
import { type BundlerDeclaration, bundlerDeclarations, gemfileOf, lockfileOf, relatedGemspecs } from './manifests.ts';
import { locateBundler } from './update.ts';
import { rubyClauses, rubyVersions } from './versions.ts';

export { type GemfileContents, type GemspecCall, readGemfileContents, type SkippedGemCall } from './gemfile.ts';
export { type GemspecContents, type GemspecDeclaration, type GemspecLiteral, readGemspecContents } from './gemspec.ts';

/** RubyGems names are unique regardless of case on rubygems.org, so they compare lowercased (`-` and `_` stay distinct). */
const normalise = (name: string) => name.trim().toLowerCase();

type Files = Readonly<Record<string, string>>;

/** The lockfile's versions by normalised gem name (parsed on first use, once); undefined without a lockfile ({@link lockfileOf}). */
function lockedVersions(files: Files): () => Map<string, string[]> | undefined {
  return lazy(() => {
    const lockfile = lockfileOf(files);
    if (lockfile === undefined) return undefined;
    const byName = groupBy(readGemfileLock(lockfile, files[lockfile] ?? ''), (gem) => normalise(gem.name));
    return new Map([...byName].map(([name, gems]) => [name, gems.map((gem) => gem.version)]));
  });
}

/** The exact version of a single `=` clause (`'1.2.3'`, `'= 1.2.3'`), else null (also for an unreadable requirement). */
function pinnedVersion(requirement: string | null): string | null {
  if (requirement === null) return null;
  try {
    const clauses = rubyClauses(requirement);
    const [only] = clauses;
    return clauses.length === 1 && only?.[0] === '=' ? only[1] : null;
  } catch {
    return null; // an unreadable requirement pins nothing
  }
}

/**
 * The use of a gem from its declarations (in reading order: the Gemfile's, then the gemspecs'): the first gives the name,
 * the requirement and the manifest, any runtime one makes it runtime.
 */
function useOf(declarations: readonly BundlerDeclaration[], locked: () => Map<string, string[]> | undefined): DependencyUse | undefined {
  const first = declarations[0];
  if (!first) return undefined;
  const lock = locked();
  const version =
    (lock ? pickLocked(lock.get(normalise(first.name)) ?? [], first.requirement, rubyVersions) : null) ?? pinnedVersion(first.requirement);
  return {
    name: first.name,
    type: declarations.some((gem) => gem.type === 'runtime') ? 'runtime' : 'development',
    requirement: first.requirement,
    version,
    manifest: first.file,
  };
}

/**
 * Whether the files are a gem's own: its Gemfile (or gems.rb) calls `gemspec` (Bundler's DSL for "the gemspec in this
 * directory", what `bundle gem` writes, https://bundler.io/guides/gemfile.html#gemspec) or a `*.gemspec` is among the
 * files, as dependabot-core's Bundler file updater's `library?` tests for a gemspec.
 */
function isGem(files: Files): boolean {
  if (Object.keys(files).some((file) => file.endsWith('.gemspec'))) return true;
  const gemfile = gemfileOf(files);
  return /^[ \t]*gemspec\b/m.test(gemfile === undefined ? '' : (files[gemfile] ?? ''));
}

/**
 * Bundler: a Gemfile (or `gems.rb`, Bundler's other name for it, read first when both exist) with its lockfile
 * (`Gemfile.lock`, or `gems.locked` beside `gems.rb`), and the gem's own `*.gemspec` files (those of the directory, or
 * those the Gemfile's `gemspec path:`/`name:` calls name, which `files.related` follows), as dependabot-core's Bundler
 * file fetcher read them; a directory with only a gemspec is a Bundler directory too (its `required_files_in?`).
 * Declarations are read in that order (Gemfile `gem` calls, then gemspec `add_dependency`,
 * `add_runtime_dependency` (runtime) and `add_development_dependency` (development) calls; see
 * {@link readGemspecContents}): the first declaration of a gem gives its requirement and manifest, any runtime one makes
 * it runtime. The version in use is the lockfile's spec (platform suffix removed; when platform variants disagree, the
 * highest one satisfying the requirement), else the first declaration's exact pin (`'1.2.3'` or `'= 1.2.3'`).
 * `listDependencies` leaves out gems whose first declaration comes from git or a local path. Calls that only Ruby could
 * read (a name from a variable, `gem(*args)`, `spec.add_dependency name`) are left out rather than failing the whole
 * directory: `skippedDeclarations` reports them. A git or path gem's version is the one its `GIT`/`PATH` section locks.
 * `updateManifest` edits the requirement literals of every declaration of the gem, Gemfile and gemspecs (see
 * {@link locateBundler}); `updateLockfiles` rewrites the gem's entries of the lockfile (see {@link updateGemfileLock}).
 */
export const bundler: Ecosystem = {
  packageManager: 'bundler',
  files: {
    required: requiredFilesOf('bundler'),
    optional: ['Gemfile.lock', 'gems.locked', '*.gemspec'],
    lockfiles: ['Gemfile.lock', 'gems.locked'],
    related: relatedGemspecs,
  },
  versions: rubyVersions,
  normaliseName: normalise,
  findDependency(files, name) {
    const wanted = normalise(name);
    return useOf(
      bundlerDeclarations(files).declarations.filter((gem) => normalise(gem.name) === wanted),
      lockedVersions(files),
    );
  },
  listDependencies(files) {
    const locked = lockedVersions(files);
    return [...groupBy(bundlerDeclarations(files).declarations, (gem) => normalise(gem.name)).values()]
      .filter((declarations) => declarations[0]?.source === 'rubygems')
      .flatMap((declarations) => useOf(declarations, locked) ?? []);
  },
  skippedDeclarations: (files) => bundlerDeclarations(files).skipped,
  isLibrary: isGem,
  updateManifest(files, use, targetVersion, _target, strategy) {
    return updateDeclarations(
      {
        schemeName: 'RubyGems',
        scheme: rubyVersions,
        find: (f, name) => bundler.findDependency(f, name),
        locate: locateBundler,
        isLibrary: isGem,
      },
      files,
      use,
      targetVersion,
      strategy,
    );
  },
  updateLockfiles: async (request) => updateGemfileLock(request),
};
