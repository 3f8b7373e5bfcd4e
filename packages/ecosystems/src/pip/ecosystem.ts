import type { DependencyType, DependencyUse, Ecosystem, SkippedDeclaration } from '../ecosystem.ts';
import { requiredFilesOf } from '../required-files.ts';
import { groupBy } from '../shared/group.ts';
import { lazy } from '../shared/lazy.ts';
import { lineIndex } from '../shared/lines.ts';
import { isTable, parseToml } from '../shared/parse.ts';
import { pickLocked } from '../shared/pick-locked.ts';
import { storableSkipped } from '../shared/skipped.ts';
import { updateDeclarations } from '../update/declarations.ts';
import { type TomlString, tomlStrings } from '../update/toml-spans.ts';
import { pipIncludes, pipRequirementsFiles, REQUIREMENTS_PATTERNS, requirementsFileType } from './files.ts';
import { updatePythonLocks } from './lockfile.ts';
import { readPythonLock } from './lockfiles.ts';
import { lessThanMarker } from './markers.ts';
import { normalisePythonName } from './names.ts';
import { parsePep508, pinnedVersion } from './pep508.ts';
import { lockSectionOf, readPipfile, readPipfileLock } from './pipfile.ts';
import { readPyproject } from './pyproject.ts';
import { parentPythonVersionFiles, requirementsLineSkip } from './python-version.ts';
import { readRequirementsTxt } from './requirements-txt.ts';
import { readSetupCfg } from './setup-cfg.ts';
import { readSetupPy } from './setup-py.ts';
import { locatePip } from './update.ts';
import { pep440Versions } from './versions.ts';

const LOCKFILES = ['poetry.lock', 'uv.lock'] as const;

/**
 * The files dependabot-core read only for the project's Python version (`.python-version`, Heroku's `runtime.txt`:
 * `projectPythonVersion` of python-version.ts); a `runtime.txt` is also matched by `*.txt` (Dependabot fetched it as one of those).
 */
const PYTHON_VERSION_FILES = ['.python-version', 'runtime.txt'] as const;

/** One declaration of a package in one of the files read. */
interface Found {
  name: string;
  type: DependencyType;
  requirement: string | null;
  pinned: string | null;
  manifest: string;
  /** Installed from an index (not a direct URL/git/path reference). */
  registry: boolean;
  /** A Pipfile package: the version its Pipfile.lock section locks (null when the lock has no entry for it). */
  pipfileLocked?: string | null;
}

type Files = Readonly<Record<string, string>>;

/** A requirement string of setup.py / setup.cfg read as PEP 508 (a trailing `# comment` dropped), undefined when it is none. */
function setupRequirement(value: string) {
  return parsePep508(value.replace(/(^|\s)#.*$/, '').trim());
}

/**
 * Every declaration of the files read, in the order requirements.txt, requirements.in, pyproject.toml, Pipfile, the
 * development requirements files, the other requirements files of the directory then of its subdirectories (by path),
 * the files they include with `-r` (breadth first), setup.py, setup.cfg. Of a requirements file only the first line
 * naming a package counts; constraints files (`-c`) and pip-compile outputs (of a `.in` read) declare nothing (they
 * give versions, see {@link lockedVersions}).
 */
function declarations(files: Files): Found[] {
  const found: Found[] = [];
  const skip = requirementsLineSkip(files);
  const readRequirements = (file: string) => {
    const text = files[file];
    if (text === undefined) return;
    const counted = readRequirementsTxt(file, text).filter((line) => skip(line) === undefined);
    const firstLines = groupBy(counted, (line) => normalisePythonName(line.name));
    for (const [line] of firstLines.values()) {
      if (!line) continue;
      found.push({
        name: line.name,
        type: requirementsFileType(file),
        requirement: line.specifier,
        pinned: pinnedVersion(line.specifier),
        manifest: file,
        registry: line.url === null,
      });
    }
  };
  const requirementFiles = pipRequirementsFiles(files)
    .filter((entry) => entry.role === 'requirement')
    .map((entry) => entry.file);
  const [first, rest] = [
    requirementFiles.filter((file) => file === 'requirements.txt' || file === 'requirements.in'),
    requirementFiles.filter((file) => file !== 'requirements.txt' && file !== 'requirements.in'),
  ];
  for (const file of first) readRequirements(file);
  const pyproject = files['pyproject.toml'];
  if (pyproject !== undefined) {
    for (const { marker, source, ...entry } of readPyproject('pyproject.toml', pyproject)) {
      if (lessThanMarker(marker) === undefined) found.push({ ...entry, manifest: 'pyproject.toml' });
    }
  }
  const pipfile = files.Pipfile;
  if (pipfile !== undefined) {
    const lockText = files['Pipfile.lock'];
    const lock = lockText === undefined ? undefined : readPipfileLock('Pipfile.lock', lockText);
    for (const { category, ...entry } of readPipfile('Pipfile', pipfile)) {
      const locked = lock?.get(lockSectionOf(category))?.get(normalisePythonName(entry.name));
      found.push({ ...entry, manifest: 'Pipfile', ...(lock ? { pipfileLocked: locked ?? null } : {}) });
    }
  }
  for (const file of rest) readRequirements(file);
  const setupPy = files['setup.py'];
  const setupCfg = files['setup.cfg'];
  const setupEntries = [
    ...(setupPy === undefined ? [] : readSetupPy('setup.py', setupPy).requirements.map((r) => ({ ...r, manifest: 'setup.py' }))),
    ...(setupCfg === undefined ? [] : readSetupCfg('setup.cfg', setupCfg).requirements.map((r) => ({ ...r, manifest: 'setup.cfg' }))),
  ];
  for (const entry of setupEntries) {
    const parsed = setupRequirement(entry.value);
    if (!parsed || lessThanMarker(parsed.marker) !== undefined) continue; // reported by skippedDeclarations
    found.push({
      name: parsed.name,
      type: entry.type,
      requirement: parsed.specifier,
      pinned: pinnedVersion(parsed.specifier),
      manifest: entry.manifest,
      registry: parsed.url === null,
    });
  }
  return found;
}

/**
 * The versions the first version source naming `name` holds (each parsed on first use, once), [] when none does: poetry.lock,
 * uv.lock, the pip-compile outputs of the `.in` files read, then the exact pins (`==x`) of constraints files.
 */
function lockedVersions(files: Files): (name: string) => string[] {
  const sources: (() => Map<string, string[]>)[] = LOCKFILES.flatMap((lock) => {
    const text = files[lock];
    return text === undefined ? [] : [lazy(() => readPythonLock(lock, text))];
  });
  const roles = pipRequirementsFiles(files);
  const skip = requirementsLineSkip(files);
  for (const role of ['compiled', 'constraint'] as const) {
    for (const entry of roles.filter((r) => r.role === role)) {
      sources.push(
        lazy(() => {
          const versions = new Map<string, string[]>();
          for (const line of readRequirementsTxt(entry.file, files[entry.file] ?? '')) {
            if (skip(line) !== undefined) continue;
            const pinned = pinnedVersion(line.specifier);
            const name = normalisePythonName(line.name);
            if (pinned !== null) versions.set(name, [...(versions.get(name) ?? []), pinned]);
          }
          return versions;
        }),
      );
    }
  }
  return (name) => {
    const wanted = normalisePythonName(name);
    for (const source of sources) {
      const versions = source().get(wanted) ?? [];
      if (versions.length > 0) return versions;
    }
    return [];
  };
}

/**
 * The use of a package declared by `found` (its declarations, in order): the first gives the name, requirement
 * and manifest; any runtime declaration makes it runtime; the version is the lockfile's (a Pipfile package's from its
 * Pipfile.lock section; else of several, the highest matching the requirement), else the first exact pin.
 */
function useOf(found: readonly Found[], locked: (name: string) => string[]): DependencyUse | undefined {
  const first = found[0];
  if (!first) return undefined;
  const versions = first.pipfileLocked ? [first.pipfileLocked] : locked(first.name);
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
 * The declarations skipped for their marker: requirements-file lines (of requirements and constraints files, in reading
 * order) that Dependabot's `blocking_marker?` would block ({@link requirementsLineSkip}: a `python_version` marker that
 * excludes the project's Python, `projectPythonVersion` of python-version.ts), and pyproject.toml PEP 621/735 strings whose marker holds
 * `<` ({@link lessThanMarker}).
 * @throws ManifestParseError when a requirements file or pyproject.toml does not parse
 */
function skippedForMarkers(files: Files): SkippedDeclaration[] {
  const out: SkippedDeclaration[] = [];
  const skip = requirementsLineSkip(files);
  for (const { file, role } of pipRequirementsFiles(files)) {
    const text = files[file];
    if (role === 'compiled' || text === undefined) continue;
    const physical = text.split(/\r?\n/);
    for (const line of readRequirementsTxt(file, text)) {
      const reason = skip(line);
      if (reason !== undefined) out.push({ file, line: line.line, text: (physical[line.line - 1] ?? '').trim(), reason });
    }
  }
  const pyproject = files['pyproject.toml'];
  if (pyproject !== undefined) {
    // The strings by path, each path's first (as `tomlStringAt` finds it): a search of the list per entry was quadratic.
    const strings = lazy(() => {
      const byPath = new Map<string, TomlString>();
      for (const string of tomlStrings(pyproject)) {
        const key = string.path.join('\u0000');
        if (!byPath.has(key)) byPath.set(key, string);
      }
      return byPath;
    });
    const lineAt = lazy(() => lineIndex(pyproject));
    for (const entry of readPyproject('pyproject.toml', pyproject)) {
      const reason = lessThanMarker(entry.marker);
      if (reason === undefined || !entry.source) continue;
      const found = strings().get(entry.source.path.join('\u0000'));
      const span = found && !found.escaped ? found : undefined;
      const at = span ? span.start : pyproject.indexOf(entry.source.text);
      out.push({ file: 'pyproject.toml', line: at < 0 ? 1 : lineAt()(at), text: entry.source.text, reason });
    }
  }
  return out;
}

/**
 * The declarations setup.py and setup.cfg hold that are not read: a keyword whose value is not a literal (a call, an
 * expression), a `file:` directive, a requirement string that is not PEP 508, and one whose marker holds `<`
 * ({@link lessThanMarker}).
 * @throws ManifestParseError when setup.py does not tokenize or setup.cfg is not INI
 */
function skippedSetupDeclarations(files: Files): SkippedDeclaration[] {
  const out: SkippedDeclaration[] = [];
  const check = (file: string, requirements: readonly { value: string; line: number }[]) => {
    for (const r of requirements) {
      const parsed = setupRequirement(r.value);
      const reason = parsed ? lessThanMarker(parsed.marker) : 'not a PEP 508 requirement';
      if (reason !== undefined) out.push({ file, line: r.line, text: r.value, reason });
    }
  };
  if (files['setup.py'] !== undefined) {
    const { requirements, skipped } = readSetupPy('setup.py', files['setup.py']);
    for (const entry of skipped) out.push(entry);
    check('setup.py', requirements);
  }
  if (files['setup.cfg'] !== undefined) {
    const { requirements, skipped } = readSetupCfg('setup.cfg', files['setup.cfg']);
    for (const entry of skipped) out.push(entry);
    check('setup.cfg', requirements);
  }
  return out.sort((a, b) => (a.file === b.file ? a.line - b.line : a.file < b.file ? 1 : -1));
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
 * pip (and Poetry, uv, Pipenv and setuptools projects): requirements.txt, requirements.in, pyproject.toml, Pipfile,
 * setup.py or setup.cfg, the development requirements files `requirements-dev.txt`, `requirements_dev.txt`,
 * `dev-requirements.txt`, `requirements-test.txt`, `test-requirements.txt`, every other `*.txt` / `*.in` of the
 * directory and of its immediate subdirectories that is a requirements file ({@link REQUIREMENTS_PATTERNS},
 * `isRequirementsFile`, as dependabot-core's file fetcher scanned them), the files they include with `-r`/`-c` (read in
 * the worker's further rounds, {@link pipIncludes}), and poetry.lock / uv.lock / Pipfile.lock and the pip-compile
 * outputs of the `.in` files read for the version in use. The requirement is taken from the first file listing the package in
 * the order of {@link declarations}; the type is `runtime` when any runtime section lists it. Names are compared after PEP
 * 503 normalisation. Markers: a requirements-file line whose marker Dependabot's `blocking_marker?` blocks is skipped (its
 * `python_version`/`python_full_version` comparisons evaluated for the project's Python, worked out from Pipfile,
 * pyproject.toml, a pip-compile header, `.python-version`, `runtime.txt` or setup.py as Dependabot did, else 3.13.5; other
 * markers skip the line when they hold `<`: {@link requirementsLineSkip}), and so is a pyproject.toml PEP 508 string or a
 * setup.py/setup.cfg requirement whose marker holds `<` ({@link lessThanMarker}); `skippedDeclarations` names them. `listDependencies` leaves out
 * packages whose first declaration is a direct reference (`name @ url`, Poetry `git`/`path`/`url`, Pipfile
 * `git`/`path`/`file`). `updateManifest` edits the specifier in every file declaring the package (see
 * {@link locatePip}; a hash-pinned line's `--hash` options become those of the registry's description of the target,
 * `updateManifest`'s fourth argument); a library ({@link publishesPackage}) is widened by `auto`. `updateLockfiles` rewrites the package's
 * entry of poetry.lock, uv.lock, Pipfile.lock and pip-compile outputs in place (see {@link updatePythonLocks}).
 * setup.py is read from its literals, never executed: `skippedDeclarations` names what was not read (each `text` cut to 200
 * characters, control characters replaced: {@link storableSkipped}).
 */
export const pip: Ecosystem = {
  packageManager: 'pip',
  files: {
    required: requiredFilesOf('pip'),
    optional: [...REQUIREMENTS_PATTERNS.optional, ...LOCKFILES, 'Pipfile.lock', ...PYTHON_VERSION_FILES],
    lockfiles: [...LOCKFILES, 'Pipfile.lock'],
    related: (files) => [...pipIncludes(files), ...parentPythonVersionFiles(files)],
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
  skippedDeclarations: (files) => skippedForMarkers(files).concat(skippedSetupDeclarations(files)).map(storableSkipped),
  isLibrary: publishesPackage,
  updateManifest(files, use, targetVersion, target, strategy) {
    return updateDeclarations(
      {
        schemeName: 'PEP 440',
        scheme: pep440Versions,
        find: (f, name) => pip.findDependency(f, name),
        locate: (f, name) => locatePip(f, name, [], target),
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
