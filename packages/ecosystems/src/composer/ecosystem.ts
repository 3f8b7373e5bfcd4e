import type { Ecosystem } from '../ecosystem.ts';
import { findInComposerJson, normaliseComposerName, versionInComposerLock } from './composer-json.ts';
import { composerVersionToSemver } from './constraint.ts';
import { composerVersions } from './versions.ts';

/**
 * Composer: composer.json plus composer.lock. The version in use is composer.lock's (as written, e.g.
 * `v5.4.0` or `dev-main`), else an exact constraint's version (`1.2.3`, `==1.2.3`, `v1.2.3`). Names compare
 * case-insensitively; platform packages (`php`, `ext-*`) are never found.
 */
export const composer: Ecosystem = {
  packageManager: 'composer',
  files: { required: [['composer.json']], optional: ['composer.lock'] },
  versions: composerVersions,
  normaliseName: normaliseComposerName,
  findDependency(files, name) {
    const manifest = files['composer.json'];
    if (manifest === undefined) return undefined;
    const found = findInComposerJson('composer.json', manifest, name);
    if (!found) return undefined;
    const lock = files['composer.lock'];
    let version = lock === undefined ? undefined : versionInComposerLock('composer.lock', lock, name);
    if (version === undefined) {
      const exact = /^(?:==?)?\s*(v?\d+(?:\.\d+){2,3}(?:-[0-9A-Za-z.-]+)?)$/.exec(found.requirement)?.[1];
      version = exact !== undefined && composerVersionToSemver(exact) !== null ? exact : undefined;
    }
    return { name: found.name, type: found.type, requirement: found.requirement, version: version ?? null, manifest: 'composer.json' };
  },
};
