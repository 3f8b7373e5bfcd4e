import { ManifestParseError } from '../errors.ts';
import { type Pep508Requirement, parsePep508 } from './pep508.ts';

/** A requirement line of a requirements file, with its 1-based line number. */
export interface RequirementLine extends Pep508Requirement {
  line: number;
}

/** Lines pip reads as something other than a named requirement: options, URLs, paths, archives, variables. */
function isIgnored(line: string): boolean {
  if (/^[A-Za-z0-9][A-Za-z0-9._-]*\s*(?:\[[^\]]*\]\s*)?@/.test(line)) return false; // name @ url (PEP 508 direct reference)
  return (
    line.startsWith('-') || // -r other.txt, -c constraints.txt, -e ..., --index-url ..., -i ...
    /^[a-z][a-z0-9+.-]*:\/\//i.test(line) || // https://..., git+https://...#egg=x
    /^[./~\\]/.test(line) || // ./local, ../pkg, /abs/path
    /^\$\{/.test(line) || // ${VAR}/pkg
    /\.(whl|zip|tar\.gz|tgz|tar\.bz2)$/i.test(line) || // archives
    /[/\\]/.test(line.split(/[\s;]/)[0] ?? '') // relative paths like sub/dir
  );
}

/**
 * The lines of the texts read last (by text: a line does not depend on the file's name), so that the many reads of one
 * directory's files (finding, locating, checking an update) parse each text once; frozen, as they are shared.
 */
const readTexts = new Map<string, readonly RequirementLine[]>();
const READ_TEXTS = 64;

/**
 * Reads a pip requirements file (https://pip.pypa.io/en/stable/reference/requirements-file-format/):
 * one PEP 508 requirement a line (`name==1.2.3`, `name>=1,<2`, `name[extra]`, `name; python_version<"3.8"`,
 * `name @ https://...`), `\` continuations, `#` comments (at line start or after whitespace) and per-line
 * options such as `--hash=...` stripped. Option lines (`-r other.txt`, `-c`, `-e`, `--index-url`), bare URLs,
 * local paths and archives are skipped: included files are not followed. The lines are frozen (a text read again gives
 * the same line objects, parsed once).
 * @throws ManifestParseError naming `file` and the line that is none of the above
 */
export function readRequirementsTxt(file: string, text: string): RequirementLine[] {
  const known = readTexts.get(text);
  if (known) return [...known];
  const out: RequirementLine[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const start = i;
    // The continued lines are gathered, then joined once (joining them one by one was quadratic on many `\` lines).
    const parts = [lines[i] ?? ''];
    for (let last = parts[0] ?? ''; last.endsWith('\\') && i + 1 < lines.length; last = parts.at(-1) ?? '') {
      parts[parts.length - 1] = last.slice(0, -1);
      i++;
      parts.push(lines[i] ?? '');
    }
    let line = parts.join(' ').replace(/(^|\s)#.*$/, '');
    // A per-line option (`--hash=…`) and what follows it is dropped, with the white space before it: found with a
    // fixed-length expression, as `\s+--?[a-z].*$` backtracked quadratically on long runs of spaces.
    const option = /\s--?[a-z]/i.exec(line);
    if (option) line = line.slice(0, option.index);
    line = line.trim();
    if (line === '' || isIgnored(line)) continue;
    const parsed = parsePep508(line);
    if (!parsed) throw new ManifestParseError(file, `line ${start + 1}: cannot read requirement '${line}'`);
    out.push(Object.freeze({ ...parsed, line: start + 1 }));
  }
  if (readTexts.size >= READ_TEXTS) readTexts.delete(readTexts.keys().next().value as string);
  readTexts.set(text, Object.freeze([...out]));
  return out;
}
