import type { DependencyType, DependencyUse, Ecosystem } from '../ecosystem.ts';
import { requiredFilesOf } from '../required-files.ts';
import { groupBy } from '../shared/group.ts';
import { lazy } from '../shared/lazy.ts';
import { isTable, parseToml } from '../shared/parse.ts';
import { pickLocked } from '../shared/pick-locked.ts';
import { updateDeclarations } from '../update/declarations.ts';
import { updatePythonLocks } from './lockfile.ts';
import { readPythonLock } from './lockfiles.ts';
import { normalisePythonName } from './names.ts';
import { pinnedVersion } from './pep508.ts';
import { readPyproject } from './pyproject.ts';
import { readRequirementsTxt } from './requirements-txt.ts';
import { locatePip } from './update.ts';
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

/** One declaration of a package in one of the files read. */
interface Found {
  name: string;
  type: DependencyType;
  requirement: string | null;
  pinned: string | null;
  manifest: string;
  /** Installed from an index (not a direct URL/git/path reference). */
  registry: boolean;
}

type Files = Readonly<Record<string, string>>;

/**
 * Every declaration of the files read, in the order requirements.txt, pyproject.toml, the development
 * requirements files; of a requirements file only the first line naming a package counts.
 */
function declarations(files: Files): Found[] {
  const found: Found[] = [];
  const [main, ...dev] = REQUIREMENTS_FILES;
  const readRequirements = (entry: { file: string; type: DependencyType } | undefined) => {
    const text = entry && files[entry.file];
    if (!entry || text === undefined) return;
    const firstLines = groupBy(readRequirementsTxt(entry.file, text), (line) => normalisePythonName(line.name));
    for (const [line] of firstLines.values()) {
      if (!line) continue;
      found.push({
        name: line.name,
        type: entry.type,
        requirement: line.specifier,
        pinned: pinnedVersion(line.specifier),
        manifest: entry.file,
        registry: line.url === null,
      });
    }
  };
  readRequirements(main);
  const pyproject = files['pyproject.toml'];
  if (pyproject !== undefined) {
    for (const entry of readPyproject('pyproject.toml', pyproject)) found.push({ ...entry, manifest: 'pyproject.toml' });
  }
  for (const entry of dev) readRequirements(entry);
  return found;
}

/** The versions the first lockfile locking `name` holds (each lockfile parsed on first use, once), [] when none does. */
function lockedVersions(files: Files): (name: string) => string[] {
  const locks = LOCKFILES.flatMap((lock) => {
    const text = files[lock];
    return text === undefined ? [] : [lazy(() => readPythonLock(lock, text))];
  });
  return (name) => {
    const wanted = normalisePythonName(name);
    for (const lock of locks) {
      const versions = lock().get(wanted) ?? [];
      if (versions.length > 0) return versions;
    }
    return [];
  };
}

/**
 * The use of a package declared by `found` (its declarations, in order): the first gives the name, requirement
 * and manifest; any runtime declaration makes it runtime; the version is the lockfile's (of several, the highest
 * matching the requirement), else the first exact pin.
 */
function useOf(found: readonly Found[], locked: (name: string) => string[]): DependencyUse | undefined {
  const first = found[0];
  if (!first) return undefined;
  const versions = locked(first.name);
  const fromLock = versions.length > 0 ? pickLocked(versions, first.requirement, pep440Versions) : null;
  return {
    name: first.name,
    type: found.some((f) => f.type === 'runtime') ? 'runtime' : 'development',
    requirement: first.requirement,
    version: fromLock ?? found.find((f) => f.pinned !== null)?.pinned ?? null,
    manifest: first.manifest,
  };
}

/**
 * Whether pyproject.toml declares a package to publish: PEP 621 `[project]` metadata with a `name`
 * (https://packaging.python.org/en/latest/specifications/pyproject-toml/#name), or Poetry's `[tool.poetry]` with a
 * `name` (https://python-poetry.org/docs/pyproject/#name), unless the project says it is not a package (Poetry's
 * `package-mode = false`, uv's `[tool.uv] package = false`). dependabot-core's Python `LibraryDetector` reads the same
 * tables and also asks PyPI whether the name is published with that description; this reads the file only, and
 * requirements files alone are an application.
 * @throws ManifestParseError when pyproject.toml does not parse
 */
function publishesPackage(files: Files): boolean {
  const text = files['pyproject.toml'];
  if (text === undefined) return false;
  const doc = parseToml('pyproject.toml', text);
  const tool = isTable(doc.tool) ? doc.tool : {};
  const poetry = isTable(tool.poetry) ? tool.poetry : undefined;
  if (poetry?.['package-mode'] === false || (isTable(tool.uv) && tool.uv.package === false)) return false;
  const named = (table: unknown) => isTable(table) && typeof table.name === 'string' && table.name.trim() !== '';
  return named(doc.project) || named(poetry);
}

/**
 * pip (and Poetry/uv projects): requirements.txt and/or pyproject.toml, plus the development requirements
 * files `requirements-dev.txt`, `requirements_dev.txt`, `dev-requirements.txt`, `requirements-test.txt`,
 * `test-requirements.txt`, and poetry.lock / uv.lock for the version in use.
 * The requirement is taken from the first file listing the package in the order requirements.txt,
 * pyproject.toml, the development files; the type is `runtime` when any runtime section lists it. Names are
 * compared after PEP 503 normalisation; markers are read but not evaluated (a listed package counts as used).
 * `listDependencies` leaves out packages whose first declaration is a direct reference (`name @ url`, Poetry
 * `git`/`path`/`url`). `updateManifest` edits the specifier in every requirements file and pyproject.toml section
 * declaring the package (see {@link locatePip}); a library ({@link publishesPackage}) is widened by `auto`. `updateLockfiles` rewrites the package's entry of poetry.lock and
 * uv.lock in place (see {@link updatePythonLocks}).
 */
export const pip: Ecosystem = {
  packageManager: 'pip',
  files: {
    required: requiredFilesOf('pip'),
    optional: [...REQUIREMENTS_FILES.slice(1).map((f) => f.file), ...LOCKFILES],
    lockfiles: [...LOCKFILES],
  },
  versions: pep440Versions,
  normaliseName: normalisePythonName,
  findDependency(files, name) {
    const wanted = normalisePythonName(name);
    const found = declarations(files).filter((f) => normalisePythonName(f.name) === wanted);
    return useOf(found, lockedVersions(files));
  },
  listDependencies(files) {
    const locked = lockedVersions(files);
    return [...groupBy(declarations(files), (f) => normalisePythonName(f.name)).values()]
      .filter((found) => found[0]?.registry)
      .flatMap((found) => useOf(found, locked) ?? []);
  },
  isLibrary: publishesPackage,
  updateManifest(files, use, targetVersion, _target, strategy) {
    return updateDeclarations(
      {
        schemeName: 'PEP 440',
        scheme: pep440Versions,
        find: (f, name) => pip.findDependency(f, name),
        locate: (f, name) =>
          locatePip(
            f,
            name,
            REQUIREMENTS_FILES.map((entry) => entry.file),
          ),
        isLibrary: publishesPackage,
      },
      files,
      use,
      targetVersion,
      strategy,
    );
  },
  updateLockfiles: async (request) => updatePythonLocks(request),
};
