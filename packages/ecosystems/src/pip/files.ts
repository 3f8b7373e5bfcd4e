import type { DependencyType } from '../ecosystem.ts';
import { matchesFilePattern } from '../shared/files.ts';
import { type RequirementsFileRole, readIncludes, requirementsFileRoles, resolveInclude } from './includes.ts';
import { readRequirementsTxt } from './requirements-txt.ts';

/** Requirements files read by name, in order, and the type of what they list. */
export const REQUIREMENTS_FILES: readonly { file: string; type: DependencyType }[] = [
  { file: 'requirements.txt', type: 'runtime' },
  { file: 'requirements.in', type: 'runtime' },
  { file: 'requirements-dev.txt', type: 'development' },
  { file: 'requirements_dev.txt', type: 'development' },
  { file: 'dev-requirements.txt', type: 'development' },
  { file: 'requirements-test.txt', type: 'development' },
  { file: 'test-requirements.txt', type: 'development' },
];

/**
 * The file entries of the `.txt` and `.in` files dependabot-core's Python file fetcher scanned
 * (https://github.com/dependabot/dependabot-core, `python/lib/dependabot/python/shared_file_fetcher.rb`,
 * `req_txt_and_in_files` and `req_files_for_dir`): every `*.txt` and `*.in` of the directory and of each of its
 * immediate subdirectories. `required` holds those of the directory and of `requirements/` (its `required_files_in?`:
 * any `.txt`/`.in` name, or a `requirements` directory); `optional` the other subdirectories'. Which of them are
 * requirements files is decided by content ({@link isRequirementsFile}).
 */
export const REQUIREMENTS_PATTERNS = {
  required: ['*.txt', '*.in', 'requirements/*.txt', 'requirements/*.in'],
  optional: ['*/*.txt', '*/*.in'],
} as const;

/** dependabot-core's `MAX_FILE_SIZE`: a scanned file larger than this (in characters here, bytes there) is not read. */
export const MAX_SCANNED_SIZE = 500_000;

/**
 * Whether a file the {@link REQUIREMENTS_PATTERNS} found is a requirements file, after dependabot-core's
 * `requirements_file?` (shared_file_fetcher.rb): a path holding `requirements` (`requirements.txt`, `requirements/base.txt`,
 * `docs/requirements.txt`) always is (and must then read: a line that is not a requirement throws, as Dependabot's parser
 * failed); any other (`base.txt`, `constraints.in`, `LICENSE.txt`, `MANIFEST.in`) is one when it is at most
 * {@link MAX_SCANNED_SIZE} characters, every line reads as a requirements-file line ({@link readRequirementsTxt}: blank,
 * comment, option such as `-r`/`-c`/`-e`/`--hash`, URL, path or PEP 508 requirement; Dependabot's
 * `VALID_REQ_TXT_REQUIREMENT` test of each line) and at least one line is a requirement or a `-r`/`-c` reference (so an
 * empty or comment-only file declares nothing and is left out). A file that is not one is left out of the directory
 * rather than failing it (prose: a licence, a changelog, a `MANIFEST.in` of `include` commands). A Heroku `runtime.txt`
 * ({@link isRuntimeTxt}) is not one.
 */
export function isRequirementsFile(file: string, text: string): boolean {
  if (isRuntimeTxt(file, text)) return false;
  if (/requirements/.test(file)) return true;
  if (text.length > MAX_SCANNED_SIZE) return false;
  let lines: ReturnType<typeof readRequirementsTxt>;
  try {
    lines = readRequirementsTxt(file, text);
  } catch {
    return false;
  }
  return lines.length > 0 || readIncludes(text).length > 0;
}

/**
 * Whether a file is a Heroku `runtime.txt` (https://devcenter.heroku.com/articles/python-runtimes): named `runtime.txt`,
 * its one line `python-<version>` (`python-3.12.1`). It states the project's Python (read for the Python version,
 * python-version.ts) and is not a requirements file: dependabot-core's scan took it for one (`python-3.12.1` reads as a
 * package name), declaring a package `python-3.12.1` that no index has.
 */
export function isRuntimeTxt(file: string, text: string): boolean {
  return (file.split('/').at(-1) ?? file) === 'runtime.txt' && /^\s*python-\d[\w.]*\s*$/.test(text);
}

/**
 * The files of the map the {@link REQUIREMENTS_PATTERNS} name that are requirements files ({@link isRequirementsFile}),
 * in reading order: those of the directory by path, then those of subdirectories by path.
 */
export function scannedRequirementsFiles(files: Readonly<Record<string, string>>): string[] {
  const patterns = [...REQUIREMENTS_PATTERNS.required, ...REQUIREMENTS_PATTERNS.optional];
  const depth = (path: string) => path.split('/').length;
  return Object.keys(files)
    .filter((path) => patterns.some((pattern) => matchesFilePattern(pattern, path)))
    .sort((a, b) => depth(a) - depth(b) || (a < b ? -1 : a > b ? 1 : 0))
    .filter((path) => isRequirementsFile(path, files[path] ?? ''));
}

/**
 * The type of what a requirements file lists: as {@link REQUIREMENTS_FILES} says for those, else (a scanned or included
 * file) development when its name holds `dev` or `test` (dependabot-core's `group_from_filename` reads `dev`; `test` as
 * the named files above), else runtime.
 */
export function requirementsFileType(file: string): DependencyType {
  const known = REQUIREMENTS_FILES.find((entry) => entry.file === file);
  if (known) return known.type;
  return /dev|test/i.test(file.split('/').at(-1) ?? file) ? 'development' : 'runtime';
}

/**
 * The requirements files of the files map with their roles ({@link requirementsFileRoles}): the named ones of
 * {@link REQUIREMENTS_FILES}, the other requirements files the patterns found ({@link scannedRequirementsFiles}), and
 * what they reference with `-r`/`-c` (present in the map), in reading order; and `extra` files a caller names (read as
 * requirements files unless they are a role already). A scanned file that a requirements file names with `-c` and none
 * with `-r` is a constraints file (`constraints.txt` beside the `requirements.txt` that constrains with it), not a
 * requirements file of its own: dependabot-core's parser read every file it fetched as requirements, which made a
 * constraints file's pins dependencies.
 */
export function pipRequirementsFiles(files: Readonly<Record<string, string>>, extra: readonly string[] = []): RequirementsFileRole[] {
  const named = REQUIREMENTS_FILES.map((entry) => entry.file);
  const scanned = scannedRequirementsFiles(files).filter((file) => !named.includes(file));
  const referenced = { requirement: new Set<string>(), constraint: new Set<string>() };
  for (const file of [...named, ...scanned]) {
    for (const include of readIncludes(files[file] ?? '')) referenced[include.kind].add(resolveInclude(file, include.path));
  }
  const roots = scanned.filter((file) => !referenced.constraint.has(file) || referenced.requirement.has(file));
  return requirementsFileRoles(files, [...named, ...roots, ...extra]);
}

/** The most include paths {@link pipIncludes} gives in one call. */
export const MAX_INCLUDES_PER_CALL = 100;

/**
 * The files the requirements files of the map (read by name, found by the patterns, or themselves included: every file
 * of {@link pipRequirementsFiles}) reference with `-r`/`-c`, relative to the config's directory (resolved against the
 * including file's own directory; may start with `../`), each once, for the worker's further reads
 * ({@link EcosystemFiles.related}); those already in the map are left out. Asked again with what they add, this follows
 * `-r` chains (`requirements.txt` → `requirements/dev.txt` → `requirements/base.txt`). A path holding `*`, `?` or `[`
 * is left out: pip does not expand patterns in `-r`/`-c` paths, and `files.related` would read such a path as a
 * pattern over the repository's tree. At most {@link MAX_INCLUDES_PER_CALL} paths are given per call (the first in
 * reading order), so a file of 100,000 `-r` lines does not make the worker read 100,000 files.
 */
export function pipIncludes(files: Readonly<Record<string, string>>): string[] {
  const out = new Set<string>();
  for (const { file } of pipRequirementsFiles(files)) {
    for (const include of readIncludes(files[file] ?? '')) {
      if (/[*?[]/.test(include.path)) continue;
      const path = resolveInclude(file, include.path);
      if (path !== '' && files[path] === undefined) out.add(path);
      if (out.size >= MAX_INCLUDES_PER_CALL) return [...out];
    }
  }
  return [...out];
}
