import type { DependencyUse, Ecosystem } from '../ecosystem.ts';
import { requiredFilesOf } from '../required-files.ts';
import { groupBy } from '../shared/group.ts';
import { lazy } from '../shared/lazy.ts';
import { pickLocked } from '../shared/pick-locked.ts';
import { updateDeclarations } from '../update/declarations.ts';
import { type GemDeclaration, gemType, readGemfile } from './gemfile.ts';
import { readGemfileLock } from './gemfile-lock.ts';
import { updateGemfileLock } from './gemfile-lock-update.ts';
import { locateBundler } from './update.ts';
import { rubyClauses, rubyVersions } from './versions.ts';

export { type GemfileContents, readGemfileContents, type SkippedGemCall } from './gemfile.ts';

/** RubyGems names are unique regardless of case on rubygems.org, so they compare lowercased (`-` and `_` stay distinct). */
const normalise = (name: string) => name.trim().toLowerCase();

type Files = Readonly<Record<string, string>>;

/** Gemfile.lock's versions by normalised gem name (parsed on first use, once); undefined without a Gemfile.lock. */
function lockedVersions(files: Files): () => Map<string, string[]> | undefined {
  return lazy(() => {
    const lock = files['Gemfile.lock'];
    if (lock === undefined) return undefined;
    const byName = groupBy(readGemfileLock('Gemfile.lock', lock), (gem) => normalise(gem.name));
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

/** The use of a gem from its declarations (in Gemfile order): the first gives the name and requirement, any runtime one makes it runtime. */
function useOf(declarations: readonly GemDeclaration[], locked: () => Map<string, string[]> | undefined): DependencyUse | undefined {
  const first = declarations[0];
  if (!first) return undefined;
  const lock = locked();
  const version =
    (lock ? pickLocked(lock.get(normalise(first.name)) ?? [], first.requirement, rubyVersions) : null) ?? pinnedVersion(first.requirement);
  return {
    name: first.name,
    type: declarations.some((gem) => gemType(gem.groups) === 'runtime') ? 'runtime' : 'development',
    requirement: first.requirement,
    version,
    manifest: 'Gemfile',
  };
}

/**
 * Whether the files are a gem's own: its Gemfile calls `gemspec` (Bundler's DSL for "the gemspec in this directory",
 * what `bundle gem` writes, https://bundler.io/guides/gemfile.html#gemspec) or a `*.gemspec` is among the files, as
 * dependabot-core's Bundler file updater's `library?` tests for a gemspec.
 */
function isGem(files: Readonly<Record<string, string>>): boolean {
  if (Object.keys(files).some((file) => file.endsWith('.gemspec'))) return true;
  return /^[ \t]*gemspec\b/m.test(files.Gemfile ?? '');
}

/**
 * Bundler: Gemfile plus Gemfile.lock. The requirement is the Gemfile's clauses; the version in use is the
 * lockfile's spec (platform suffix removed; when platform variants disagree, the highest one satisfying the
 * requirement), else the Gemfile's exact pin (`'1.2.3'` or `'= 1.2.3'`). When a gem is declared more than once
 * (e.g. per platform) the first declaration gives the requirement and any runtime declaration makes it runtime.
 * `listDependencies` leaves out gems whose first declaration comes from git or a local path. `gem` calls that only
 * Ruby could read (a name from a variable, `gem(*args)`) are left out rather than failing the whole Gemfile:
 * {@link readGemfileContents} reports them. A git or path gem's version is the one its `GIT`/`PATH` section locks. `updateManifest`
 * edits the version literals of every `gem` call of the gem (see {@link locateBundler}); `updateLockfiles` rewrites the
 * gem's entries of Gemfile.lock (see {@link updateGemfileLock}).
 */
export const bundler: Ecosystem = {
  packageManager: 'bundler',
  files: { required: requiredFilesOf('bundler'), optional: ['Gemfile.lock'], lockfiles: ['Gemfile.lock'] },
  versions: rubyVersions,
  normaliseName: normalise,
  findDependency(files, name) {
    const gemfile = files.Gemfile;
    if (gemfile === undefined) return undefined;
    const wanted = normalise(name);
    return useOf(
      readGemfile('Gemfile', gemfile).filter((gem) => normalise(gem.name) === wanted),
      lockedVersions(files),
    );
  },
  listDependencies(files) {
    const gemfile = files.Gemfile;
    if (gemfile === undefined) return [];
    const locked = lockedVersions(files);
    return [...groupBy(readGemfile('Gemfile', gemfile), (gem) => normalise(gem.name)).values()]
      .filter((declarations) => declarations[0]?.source === 'rubygems')
      .flatMap((declarations) => useOf(declarations, locked) ?? []);
  },
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
