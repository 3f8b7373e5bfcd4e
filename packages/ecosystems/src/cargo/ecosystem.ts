import type { Ecosystem } from '../ecosystem.ts';
import { pickLocked } from '../shared/pick-locked.ts';
import { versionsInCargoLock } from './cargo-lock.ts';
import { normaliseCrateName, readCargoToml } from './cargo-toml.ts';
import { cargoVersions } from './versions.ts';

/**
 * Cargo: Cargo.toml plus Cargo.lock. A crate is found by its registry name (so a renamed dependency
 * `web = { package = "actix-web", ... }` is found as `actix-web`); the first declaration gives the
 * requirement, any runtime declaration makes it runtime. The version in use is Cargo.lock's (of several
 * locked versions, the highest matching the requirement), else an exact `=1.2.3` requirement's version.
 */
export const cargo: Ecosystem = {
  packageManager: 'cargo',
  files: { required: [['Cargo.toml']], optional: ['Cargo.lock'] },
  versions: cargoVersions,
  normaliseName: normaliseCrateName,
  findDependency(files, name) {
    const manifest = files['Cargo.toml'];
    if (manifest === undefined) return undefined;
    const wanted = normaliseCrateName(name);
    const declarations = readCargoToml('Cargo.toml', manifest).filter((d) => normaliseCrateName(d.name) === wanted);
    const first = declarations.find((d) => d.requirement !== null) ?? declarations[0];
    if (!first) return undefined;
    let version: string | null = null;
    const lock = files['Cargo.lock'];
    if (lock !== undefined) version = pickLocked(versionsInCargoLock('Cargo.lock', lock, first.name), first.requirement, cargoVersions);
    if (version === null && first.requirement !== null) {
      const exact = /^=\s*(\d+\.\d+\.\d+\S*)$/.exec(first.requirement)?.[1];
      if (exact && cargoVersions.isValid(exact)) version = exact;
    }
    return {
      name: first.name,
      type: declarations.some((d) => d.type === 'runtime') ? 'runtime' : 'development',
      requirement: first.requirement,
      version,
      manifest: 'Cargo.toml',
    };
  },
};
