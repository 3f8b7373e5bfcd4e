import type { DependencyUse, Ecosystem } from '../ecosystem.ts';
import { requiredFilesOf } from '../required-files.ts';
import { lazy } from '../shared/lazy.ts';
import { parseJsonObject } from '../shared/parse.ts';
import { updateDeclarations } from '../update/declarations.ts';
import { type ComposerRequire, normaliseComposerName, readComposerJson, readComposerLock } from './composer-json.ts';
import { composerVersionToSemver } from './constraint.ts';
import { updateComposerLock } from './lockfile.ts';
import { locateComposer } from './update.ts';
import { composerVersions } from './versions.ts';

type Files = Readonly<Record<string, string>>;

/** composer.lock's versions by normalised name (parsed on first use, once); undefined without a composer.lock. */
function lockedVersions(files: Files): () => Map<string, string> | undefined {
  return lazy(() => {
    const lock = files['composer.lock'];
    return lock === undefined ? undefined : readComposerLock('composer.lock', lock);
  });
}

/** The use of a required package: its version from composer.lock, else an exact constraint's version. */
function useOf(found: ComposerRequire, locked: () => Map<string, string> | undefined): DependencyUse {
  let version = locked()?.get(normaliseComposerName(found.name));
  if (version === undefined) {
    const exact = /^(?:==?)?\s*(v?\d+(?:\.\d+){2,3}(?:-[0-9A-Za-z.-]+)?)$/.exec(found.requirement)?.[1];
    version = exact !== undefined && composerVersionToSemver(exact) !== null ? exact : undefined;
  }
  return { name: found.name, type: found.type, requirement: found.requirement, version: version ?? null, manifest: 'composer.json' };
}

/**
 * Whether composer.json says it is a library: `"type": "library"` written out, as dependabot-core's Composer update
 * checker tests it (`library?`). Composer itself defaults a missing `type` to `library`
 * (https://getcomposer.org/doc/04-schema.md#type), but applications rarely set one, so only the written type counts.
 * @throws ManifestParseError when composer.json does not parse
 */
function isLibraryPackage(files: Files): boolean {
  const text = files['composer.json'];
  return text !== undefined && parseJsonObject('composer.json', text).type === 'library';
}

/**
 * Composer: composer.json plus composer.lock. The version in use is composer.lock's (as written, e.g.
 * `v5.4.0` or `dev-main`), else an exact constraint's version (`1.2.3`, `==1.2.3`, `v1.2.3`). Names compare
 * case-insensitively; platform packages (`php`, `ext-*`) are never found nor listed. `updateManifest` edits the
 * constraint in `require` and `require-dev` (see {@link locateComposer}); a `v` prefix stays as written.
 * `updateLockfiles` rewrites the package's composer.lock entry in place (see {@link updateComposerLock}).
 */
export const composer: Ecosystem = {
  packageManager: 'composer',
  files: { required: requiredFilesOf('composer'), optional: ['composer.lock'], lockfiles: ['composer.lock'] },
  versions: composerVersions,
  normaliseName: normaliseComposerName,
  findDependency(files, name) {
    const manifest = files['composer.json'];
    if (manifest === undefined) return undefined;
    const wanted = normaliseComposerName(name);
    const found = readComposerJson('composer.json', manifest).find((r) => normaliseComposerName(r.name) === wanted);
    return found && useOf(found, lockedVersions(files));
  },
  listDependencies(files) {
    const manifest = files['composer.json'];
    if (manifest === undefined) return [];
    const locked = lockedVersions(files);
    return readComposerJson('composer.json', manifest).map((found) => useOf(found, locked));
  },
  isLibrary: isLibraryPackage,
  updateManifest(files, use, targetVersion, _target, strategy) {
    return updateDeclarations(
      {
        schemeName: 'Composer',
        scheme: composerVersions,
        find: (f, name) => composer.findDependency(f, name),
        locate: locateComposer,
        written: (target) => target.replace(/^[vV]/, ''),
        isLibrary: isLibraryPackage,
      },
      files,
      use,
      targetVersion,
      strategy,
    );
  },
  updateLockfiles: async (request) => updateComposerLock(request),
};
