import semver from 'semver';
import type { Ecosystem } from '../ecosystem.ts';
import { findInPackageJson } from './package-json.ts';
import { versionInPackageLock } from './package-lock.ts';
import { npmVersions } from './versions.ts';
import { versionInYarnLock } from './yarn-lock.ts';

const LOCKFILES = ['npm-shrinkwrap.json', 'package-lock.json', 'yarn.lock'] as const;

/**
 * npm and Yarn: package.json plus the first lockfile present of npm-shrinkwrap.json, package-lock.json
 * (lockfileVersion 1, 2, 3) and yarn.lock (Yarn 1; Yarn 2+ entries' versions are read too).
 * The version in use is the lockfile's top-level entry, else the manifest's exact pin (`4.17.21`, `=4.17.21`).
 * pnpm-lock.yaml is not read. Names compare as written (npm names are case-sensitive, new ones lowercase).
 */
export const npmAndYarn: Ecosystem = {
  packageManager: 'npm_and_yarn',
  files: { required: [['package.json']], optional: [...LOCKFILES] },
  versions: npmVersions,
  normaliseName: (name) => name.trim(),
  findDependency(files, name) {
    const manifestText = files['package.json'];
    if (manifestText === undefined) return undefined;
    const entry = findInPackageJson('package.json', manifestText, name.trim());
    if (!entry) return undefined;
    let version: string | null | undefined;
    for (const lock of LOCKFILES) {
      const text = files[lock];
      if (text === undefined) continue;
      version = lock === 'yarn.lock' ? versionInYarnLock(lock, text, entry.key, entry.spec) : versionInPackageLock(lock, text, entry.key);
      break;
    }
    // no lockfile, or the lockfile lacks the entry: an exact pin (`4.17.21`, `=4.17.21`) is the version
    version ??= entry.requirement === null ? null : semver.valid(entry.requirement.trim());
    return { name: entry.name, type: entry.type, requirement: entry.requirement, version, manifest: 'package.json' };
  },
};
