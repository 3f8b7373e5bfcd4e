import type { DependencyType, DependencyUse, Ecosystem } from '../ecosystem.ts';
import { pickLocked } from '../shared/pick-locked.ts';
import { versionsInPythonLock } from './lockfiles.ts';
import { normalisePythonName } from './names.ts';
import { pinnedVersion } from './pep508.ts';
import { findInPyproject } from './pyproject.ts';
import { findInRequirementsTxt } from './requirements-txt.ts';
import { pep440Versions } from './versions.ts';

/** Requirements files read, in order, and the type of what they list. */
const REQUIREMENTS_FILES: readonly { file: string; type: DependencyType }[] = [
  { file: 'requirements.txt', type: 'runtime' },
  { file: 'requirements-dev.txt', type: 'development' },
  { file: 'requirements_dev.txt', type: 'development' },
  { file: 'dev-requirements.txt', type: 'development' },
  { file: 'requirements-test.txt', type: 'development' },
  { file: 'test-requirements.txt', type: 'development' },
];
const LOCKFILES = ['poetry.lock', 'uv.lock'] as const;

interface Found {
  name: string;
  type: DependencyType;
  requirement: string | null;
  pinned: string | null;
  manifest: string;
}

/**
 * pip (and Poetry/uv projects): requirements.txt and/or pyproject.toml, plus the development requirements
 * files `requirements-dev.txt`, `requirements_dev.txt`, `dev-requirements.txt`, `requirements-test.txt`,
 * `test-requirements.txt`, and poetry.lock / uv.lock for the version in use.
 * The requirement is taken from the first file listing the package in the order requirements.txt,
 * pyproject.toml, the development files; the type is `runtime` when any runtime section lists it. Names are
 * compared after PEP 503 normalisation; markers are read but not evaluated (a listed package counts as used).
 */
export const pip: Ecosystem = {
  packageManager: 'pip',
  files: {
    required: [['requirements.txt', 'pyproject.toml']],
    optional: [...REQUIREMENTS_FILES.slice(1).map((f) => f.file), ...LOCKFILES],
  },
  versions: pep440Versions,
  normaliseName: normalisePythonName,
  findDependency(files, name): DependencyUse | undefined {
    const found: Found[] = [];
    const [main, ...dev] = REQUIREMENTS_FILES;
    const readRequirements = (entry: { file: string; type: DependencyType } | undefined) => {
      const text = entry && files[entry.file];
      if (!entry || text === undefined) return;
      const line = findInRequirementsTxt(entry.file, text, name);
      if (line) {
        found.push({
          name: line.name,
          type: entry.type,
          requirement: line.specifier,
          pinned: pinnedVersion(line.specifier),
          manifest: entry.file,
        });
      }
    };
    readRequirements(main);
    const pyproject = files['pyproject.toml'];
    if (pyproject !== undefined) {
      for (const entry of findInPyproject('pyproject.toml', pyproject, name)) found.push({ ...entry, manifest: 'pyproject.toml' });
    }
    for (const entry of dev) readRequirements(entry);

    const first = found[0];
    if (!first) return undefined;
    let version: string | null = null;
    for (const lock of LOCKFILES) {
      const text = files[lock];
      if (text === undefined) continue;
      const versions = versionsInPythonLock(lock, text, name);
      if (versions.length > 0) {
        version = pickLocked(versions, first.requirement, pep440Versions);
        break;
      }
    }
    version ??= found.find((f) => f.pinned !== null)?.pinned ?? null;
    return {
      name: first.name,
      type: found.some((f) => f.type === 'runtime') ? 'runtime' : 'development',
      requirement: first.requirement,
      version,
      manifest: first.manifest,
    };
  },
};
