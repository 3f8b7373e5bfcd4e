import type { DependencyUse, Ecosystem } from '../ecosystem.ts';
import { requiredFilesOf } from '../required-files.ts';
import { lazy } from '../shared/lazy.ts';
import { parseJsonObject } from '../shared/parse.ts';
import { updateDeclarations } from '../update/declarations.ts';
import {
  type ComposerLocked,
  type ComposerRequire,
  normaliseComposerName,
  readComposerJson,
  readComposerLockEntries,
} from './composer-json.ts';
import { composerVersionToSemver } from './constraint.ts';
import { updateComposerLock } from './lockfile.ts';
import { type ComposerStabilitySettings, constraintInRoot, isNamedBranch, readComposerStability } from './stability.ts';
import { locateComposer } from './update.ts';
import { composerVersions } from './versions.ts';

type Files = Readonly<Record<string, string>>;

/** composer.lock's entries by normalised name (parsed on first use, once); undefined without a composer.lock. */
function lockedVersions(files: Files): () => Map<string, ComposerLocked> | undefined {
  return lazy(() => {
    const lock = files['composer.lock'];
    return lock === undefined ? undefined : readComposerLockEntries('composer.lock', lock);
  });
}

/**
 * The use of a required package. The version is composer.lock's, else an exact constraint's version; a named branch
 * (`dev-main`) is in use at the commit the lock records (`source.reference`, else `dist.reference`), as Dependabot read
 * such a git dependency: a commit, which the scheme does not order. The requirement is the constraint as Composer applies
 * it under the root's `minimum-stability` and `prefer-stable` ({@link constraintInRoot}).
 */
function useOf(
  found: ComposerRequire,
  locked: () => Map<string, ComposerLocked> | undefined,
  settings: ComposerStabilitySettings,
): DependencyUse {
  const entry = locked()?.get(normaliseComposerName(found.name));
  let version = entry && isNamedBranch(entry.version) ? (entry.reference ?? entry.version) : entry?.version;
  if (version === undefined) {
    const exact = /^(?:==?)?\s*(v?\d+(?:\.\d+){2,3}(?:-[0-9A-Za-z.-]+)?)$/.exec(found.requirement)?.[1];
    version = exact !== undefined && composerVersionToSemver(exact) !== null ? exact : undefined;
  }
  return {
    name: found.name,
    type: found.type,
    requirement: constraintInRoot(found.requirement, settings, entry?.version),
    version: version ?? null,
    manifest: 'composer.json',
  };
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
 * Composer: composer.json plus composer.lock. The version in use is composer.lock's (as written, e.g. `v5.4.0`; for a
 * named branch such as `dev-main`, the commit the lock records), else an exact constraint's version (`1.2.3`, `==1.2.3`,
 * `v1.2.3`). The requirement is the constraint as Composer applies it under the root's `minimum-stability` and
 * `prefer-stable` ({@link constraintInRoot}: `^1.2` under `"minimum-stability": "dev"` is `^1.2@dev`), so `satisfies`,
 * `installedVersion` and the pre-release rule read them through it. Names compare case-insensitively; platform packages
 * (`php`, `ext-*`) are never found nor listed. `updateManifest` edits the constraint in `require` and `require-dev` (see
 * {@link locateComposer}); a `v` prefix stays as written; a named-branch constraint (`dev-main`) is `unchanged` whatever
 * the target (a version or commit of the branch: the constraint allows its new head), and `cannot` when it pins a commit
 * (`dev-main#abc123`). `updateLockfiles` rewrites the package's composer.lock entry in place (see
 * {@link updateComposerLock}), for a named branch only its commit.
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
    return found && useOf(found, lockedVersions(files), readComposerStability('composer.json', manifest));
  },
  listDependencies(files) {
    const manifest = files['composer.json'];
    if (manifest === undefined) return [];
    const locked = lockedVersions(files);
    const settings = readComposerStability('composer.json', manifest);
    return readComposerJson('composer.json', manifest).map((found) => useOf(found, locked, settings));
  },
  isLibrary: isLibraryPackage,
  updateManifest(files, use, targetVersion, _target, strategy) {
    const declared = composer
      .findDependency(files, use.name)
      ?.requirement?.replace(/\s+as\s+\S+$/i, '')
      .trim();
    if (declared !== undefined && /^dev-[^\s,|]+$/i.test(declared)) {
      if (declared.includes('#')) return { cannot: `'${declared}' pins a commit of the branch, which no update moves` };
      return {
        unchanged: `'${declared}' follows the branch, whose new head it allows: composer.lock moves to the commit, the manifest does not`,
      };
    }
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
