/**
 * pip's file references inside requirements files (https://pip.pypa.io/en/stable/reference/requirements-file-format/):
 * `-r file` / `--requirement file` include another requirements file, `-c file` / `--constraint file` name a constraints
 * file, whose entries only limit the versions of packages something else requires. Paths are relative to the file that
 * names them. Which files of a directory are requirements files, constraints files and pip-compile outputs.
 */

import { normaliseRelativePath } from '../shared/files.ts';

/** One `-r` or `-c` reference: `requirement` includes a requirements file, `constraint` names a constraints file. */
export interface RequirementsInclude {
  kind: 'requirement' | 'constraint';
  /** As written after the option. */
  path: string;
  /** 1-based line. */
  line: number;
}

const INCLUDE = /^(-r|--requirement|-c|--constraint)(?:\s*=\s*|\s+|(?=[^\s=-]))(\S+)/;
/**
 * A quick test for a text without any include line (most of a large pip-compile output's lines are `--hash` options).
 * `[ \t]*`, not `\s*`: under the `m` flag `\s*` runs across line breaks, which made the test quadratic on a text of
 * blank lines.
 */
const ANY_INCLUDE = /^[ \t]*(?:-r|-c|--requirement|--constraint)/m;

/**
 * The `-r`/`--requirement`/`-c`/`--constraint` lines of a requirements file, in order (`-rbase.txt`, `-r base.txt`,
 * `--requirement=base.txt`; a trailing `# comment` is not part of the path). URLs (`-r https://…`) and absolute paths
 * are left out: they do not name a file of the repository.
 */
export function readIncludes(text: string): RequirementsInclude[] {
  const out: RequirementsInclude[] = [];
  if (!ANY_INCLUDE.test(text)) return out;
  for (const [index, raw] of text.split(/\r?\n/).entries()) {
    const match = INCLUDE.exec(raw.trim());
    if (!match?.[1] || !match[2]) continue;
    const path = match[2];
    if (/^[a-z][a-z0-9+.-]*:/i.test(path) || path.startsWith('/') || path.startsWith('~')) continue;
    out.push({ kind: match[1] === '-c' || match[1] === '--constraint' ? 'constraint' : 'requirement', path, line: index + 1 });
  }
  return out;
}

/**
 * `path` as named in `from` (both relative to the config's directory, `/`-separated), relative to the config's
 * directory: `resolveInclude('requirements/dev.txt', 'base.txt')` is `requirements/base.txt`,
 * `resolveInclude('requirements.txt', '../shared/base.txt')` is `../shared/base.txt`. `.` segments are dropped and
 * `..` segments cancel the segment before them where there is one.
 */
export function resolveInclude(from: string, path: string): string {
  const base = from.split('/').slice(0, -1);
  return normaliseRelativePath([...base, path.replace(/\\/g, '/')].join('/'));
}

/** The role of a file of the files map that pip reads as a requirements file. */
export interface RequirementsFileRole {
  file: string;
  /** `requirement`: a requirements file whose lines are dependencies; `constraint`: only versions; `compiled`: pip-compile output. */
  role: 'requirement' | 'constraint' | 'compiled';
}

/**
 * The pip-compile output of a `.in` file of the map: the `.txt` of the same path (`requirements.in` →
 * `requirements.txt`), as dependabot-core's `PipCompileFileMatcher` (`manifest_for_lockfile_name`) pairs them.
 */
export function compiledOutputOf(file: string): string | undefined {
  return file.endsWith('.in') ? `${file.slice(0, -3)}.txt` : undefined;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The `.in` file of `inFiles` (the `.in` requirements files read, in reading order) whose pip-compile output `file` is,
 * after dependabot-core's `PipCompileFileMatcher` (`python/lib/dependabot/python/pip_compile_file_matcher.rb`): none
 * unless `file` is a `.txt` and some `.in` is read; the `.in` of the same path ({@link compiledOutputOf}); else, when
 * the text names the file as pip-compile's `--output-file` (`--output-file=requirements/main.txt`, the header
 * pip-compile writes: `#    pip-compile --output-file=requirements/main.txt requirements/main.in`), the first `.in`
 * of `inFiles` that line names, else the first of `inFiles` (Dependabot's `requirements_in_files.first`).
 */
export function compiledSourceOf(file: string, text: string, inFiles: readonly string[]): string | undefined {
  if (!file.endsWith('.txt') || inFiles.length === 0) return undefined;
  const same = inFiles.find((inFile) => compiledOutputOf(inFile) === file);
  if (same) return same;
  const header = new RegExp(String.raw`--output-file[= \t]+${escapeRegExp(file)}(?:\s|$)`, 'm');
  const match = header.exec(text);
  if (!match) return undefined;
  const line = text.slice(match.index, text.indexOf('\n', match.index) < 0 ? text.length : text.indexOf('\n', match.index));
  const named = line.split(/\s+/).find((word) => inFiles.includes(word.replace(/^\.\//, '')));
  return named?.replace(/^\.\//, '') ?? inFiles[0];
}

/**
 * The requirements files of a files map reachable from `roots` (the files read by name or found by the patterns, in
 * order) by `-r`/`-c` references, in reading order (each root, then what the roots reference, breadth first), each with
 * its role: a file reached by `-c` only is a constraints file, and a `.txt` that is the pip-compile output of a `.in`
 * read ({@link compiledSourceOf}) is `compiled` (its pins are versions in use, not declarations: dependabot-core's file
 * parser gives such files no requirements).
 */
export function requirementsFileRoles(files: Readonly<Record<string, string>>, roots: readonly string[]): RequirementsFileRole[] {
  const roles = new Map<string, 'requirement' | 'constraint'>();
  const queue: { file: string; role: 'requirement' | 'constraint' }[] = roots
    .filter((file) => files[file] !== undefined)
    .map((file) => ({ file, role: 'requirement' }));
  while (queue.length > 0) {
    const next = queue.shift();
    if (!next) break;
    const known = roles.get(next.file);
    if (known !== undefined && (known !== 'constraint' || next.role === 'constraint')) continue;
    roles.set(next.file, next.role);
    for (const include of readIncludes(files[next.file] ?? '')) {
      const path = resolveInclude(next.file, include.path);
      if (files[path] === undefined) continue;
      queue.push({ file: path, role: include.kind === 'constraint' || next.role === 'constraint' ? 'constraint' : 'requirement' });
    }
  }
  const inFiles = [...roles].filter(([file, role]) => role === 'requirement' && file.endsWith('.in')).map(([file]) => file);
  return [...roles].map(([file, role]) => ({
    file,
    role: compiledSourceOf(file, files[file] ?? '', inFiles) === undefined ? role : 'compiled',
  }));
}

/**
 * The pip-compile outputs among the requirements files of `roles` ({@link requirementsFileRoles}) and the `.in` each
 * is compiled from ({@link compiledSourceOf}): output path → `.in` path.
 */
export function compiledOutputs(files: Readonly<Record<string, string>>, roles: readonly RequirementsFileRole[]): Map<string, string> {
  const inFiles = roles.filter((r) => r.role === 'requirement' && r.file.endsWith('.in')).map((r) => r.file);
  const out = new Map<string, string>();
  for (const { file, role } of roles) {
    const source = role === 'compiled' ? compiledSourceOf(file, files[file] ?? '', inFiles) : undefined;
    if (source !== undefined) out.set(file, source);
  }
  return out;
}
