import type { Ecosystem } from '../ecosystem.ts';
import { pickLocked } from '../shared/pick-locked.ts';
import { gemType, readGemfile } from './gemfile.ts';
import { readGemfileLock } from './gemfile-lock.ts';
import { rubyClauses, rubyVersions } from './versions.ts';

/** RubyGems names are unique regardless of case on rubygems.org, so they compare lowercased (`-` and `_` stay distinct). */
const normalise = (name: string) => name.trim().toLowerCase();

/**
 * Bundler: Gemfile plus Gemfile.lock. The requirement is the Gemfile's clauses; the version in use is the
 * lockfile's spec (platform suffix removed; when platform variants disagree, the highest one satisfying the
 * requirement), else the Gemfile's exact pin (`'1.2.3'` or `'= 1.2.3'`). When a gem is declared more than once
 * (e.g. per platform) the first declaration gives the requirement and any runtime declaration makes it runtime.
 */
export const bundler: Ecosystem = {
  packageManager: 'bundler',
  files: { required: [['Gemfile']], optional: ['Gemfile.lock'] },
  versions: rubyVersions,
  normaliseName: normalise,
  findDependency(files, name) {
    const gemfile = files.Gemfile;
    if (gemfile === undefined) return undefined;
    const wanted = normalise(name);
    const declarations = readGemfile('Gemfile', gemfile).filter((gem) => normalise(gem.name) === wanted);
    const first = declarations[0];
    if (!first) return undefined;
    let version: string | null = null;
    const lock = files['Gemfile.lock'];
    if (lock !== undefined) {
      const locked = readGemfileLock('Gemfile.lock', lock).filter((gem) => normalise(gem.name) === wanted);
      version = pickLocked(
        locked.map((gem) => gem.version),
        first.requirement,
        rubyVersions,
      );
    }
    if (version === null && first.requirement !== null) {
      try {
        const clauses = rubyClauses(first.requirement);
        const [only] = clauses;
        if (clauses.length === 1 && only?.[0] === '=') version = only[1];
      } catch {
        // an unreadable requirement pins nothing
      }
    }
    return {
      name: first.name,
      type: declarations.some((gem) => gemType(gem.groups) === 'runtime') ? 'runtime' : 'development',
      requirement: first.requirement,
      version,
      manifest: 'Gemfile',
    };
  },
};
