import { ManifestParseError } from '../errors.ts';

/**
 * Reading `.gitmodules` (https://git-scm.com/docs/gitmodules), a file in git's configuration syntax
 * (https://git-scm.com/docs/git-config#_syntax).
 */

/** One `[submodule "<name>"]` section, with the values it sets (the last one of a key, as `git config --get` reads it). */
export interface Submodule {
  /** The section's subsection name, e.g. `vendor/lib` (case-sensitive). */
  name: string;
  /** `path`: where the gitlink is, relative to the repository's root (`./` and trailing `/` removed); null when unset. */
  path: string | null;
  /** `url` as written, e.g. `https://github.com/acme/lib.git`; null when unset. */
  url: string | null;
  /** `branch`: the remote branch `git submodule update --remote` follows; null when unset (the remote's default branch). */
  branch: string | null;
  /** The 1-based line of the section header. */
  line: number;
}

/** A variable line's value: what is left of the line once quotes, escapes, comments and outer whitespace are read. */
interface ValueRead {
  value: string;
  /** The value continues on the next line (a `\` at the end). */
  continues: boolean;
}

const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', n: '\n', t: '\t', b: '\b' };

/**
 * Reads a value from `text` (the rest of a line after `=`, or a continuation line), as git's config parser does: whitespace
 * before and after the value is dropped, whitespace inside it kept; `"` quotes (removed) keep `#`, `;` and whitespace;
 * `\"`, `\\`, `\n`, `\t`, `\b` escapes; `#` or `;` outside quotes starts a comment; a final `\` continues the value on the
 * next line. `quoted`: a quote is open from the previous line; `started`: the value has characters already.
 * @throws Error with the reason (an unknown escape, an unterminated quote)
 */
function readValue(text: string, quoted: boolean, started: boolean): ValueRead & { quoted: boolean } {
  let value = '';
  let pendingSpace = '';
  let inQuotes = quoted;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] ?? '';
    if (c === '\\') {
      const next = text[i + 1];
      if (next === undefined) return { value: value + pendingSpace, continues: true, quoted: inQuotes };
      const escaped = ESCAPES[next];
      if (escaped === undefined) throw new Error(`unknown escape '\\${next}'`);
      value += pendingSpace + escaped;
      pendingSpace = '';
      i++;
    } else if (c === '"') {
      value += pendingSpace;
      pendingSpace = '';
      inQuotes = !inQuotes;
    } else if (inQuotes) value += c;
    else if (c === '#' || c === ';') break;
    else if (c === ' ' || c === '\t') {
      if (started || value !== '') pendingSpace += c;
    } else {
      value += pendingSpace + c;
      pendingSpace = '';
    }
  }
  if (inQuotes) throw new Error('unterminated quoted value');
  return { value, continues: false, quoted: false };
}

/** A section header `[section "subsection"]` or `[section.subsection]` at the start of `text`, and the rest of the line. */
function readHeader(text: string): { section: string; subsection: string | null; rest: string } {
  const plain = /^\[\s*([A-Za-z0-9.-]+)\s*\]/.exec(text);
  if (plain) {
    const full = plain[1] ?? '';
    const dot = full.indexOf('.');
    // The deprecated `[section.subsection]` form: the subsection is read lower-cased.
    return dot === -1
      ? { section: full.toLowerCase(), subsection: null, rest: text.slice(plain[0].length) }
      : { section: full.slice(0, dot).toLowerCase(), subsection: full.slice(dot + 1).toLowerCase(), rest: text.slice(plain[0].length) };
  }
  const quoted = /^\[\s*([A-Za-z0-9.-]+)\s+"((?:[^"\\\n]|\\.)*)"\s*\]/.exec(text);
  if (!quoted) throw new Error('malformed section header');
  return {
    section: (quoted[1] ?? '').toLowerCase(),
    subsection: (quoted[2] ?? '').replace(/\\(.)/g, '$1'),
    rest: text.slice(quoted[0].length),
  };
}

/** `path` as git stores it: without a leading `./` and trailing slashes. */
const normalisePath = (path: string) => path.replace(/^(?:\.\/)+/, '').replace(/\/+$/, '');

/**
 * The submodules `text` (the `.gitmodules` file `file`) declares, in file order: every `[submodule "<name>"]` section
 * (also written `[Submodule "<name>"]`, section names are case-insensitive) with its `path`, `url` and `branch` (keys are
 * case-insensitive; a key set twice keeps its last value, and sections with the same name merge, as git reads them). Other
 * sections and keys are ignored. Blank lines, `#`/`;` comments, quoted values, escapes and `\` line continuations are read
 * as git reads them.
 * @throws ManifestParseError naming `file` and the line: a malformed section header, a variable before any section or with
 *   an invalid name, an unknown escape, an unterminated quote
 */
export function readGitmodules(file: string, text: string): Submodule[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const submodules = new Map<string, Submodule>();
  let current: Submodule | null | undefined; // null: a section that is not a submodule
  for (let index = 0; index < lines.length; index++) {
    const lineNumber = index + 1;
    const fail = (reason: string): never => {
      throw new ManifestParseError(file, `line ${lineNumber}: ${reason}`);
    };
    let rest = (lines[index] ?? '').trimStart();
    if (rest.startsWith('[')) {
      let header: ReturnType<typeof readHeader>;
      try {
        header = readHeader(rest);
      } catch (error) {
        return fail((error as Error).message);
      }
      if (header.section === 'submodule' && header.subsection !== null) {
        const name = header.subsection;
        current = submodules.get(name);
        if (!current) {
          current = { name, path: null, url: null, branch: null, line: lineNumber };
          submodules.set(name, current);
        }
      } else current = null;
      rest = header.rest.trimStart();
    }
    if (rest === '' || rest.startsWith('#') || rest.startsWith(';')) continue;
    const variable = /^([A-Za-z][A-Za-z0-9-]*)\s*(=?)/.exec(rest);
    if (!variable) return fail(`cannot read '${rest.trimEnd()}'`);
    if (current === undefined) return fail('a variable before any section');
    const key = (variable[1] ?? '').toLowerCase();
    let value = '';
    if (variable[2] === '=') {
      let source = rest.slice(variable[0].length);
      let quoted = false;
      for (;;) {
        let read: ReturnType<typeof readValue>;
        try {
          read = readValue(source, quoted, value !== '');
        } catch (error) {
          return fail((error as Error).message);
        }
        value += read.value;
        if (!read.continues) break;
        index++;
        if (index >= lines.length) return fail('a line continuation at the end of the file');
        source = lines[index] ?? '';
        quoted = read.quoted;
      }
    } else {
      const after = rest.slice(variable[0].length).trim();
      if (after !== '' && !after.startsWith('#') && !after.startsWith(';')) return fail(`cannot read '${rest.trimEnd()}'`);
    }
    if (current === null) continue;
    if (key === 'path') current.path = normalisePath(value);
    else if (key === 'url') current.url = value;
    else if (key === 'branch') current.branch = value;
  }
  return [...submodules.values()];
}

/**
 * The dependency name of a submodule URL on GitHub: `github.com/<owner>/<repo>`, lower-cased, from
 * `https://github.com/o/r(.git)`, `http://`, `git://`, `ssh://[git@]github.com[:22]/o/r(.git)`, the scp-like
 * `git@github.com:o/r.git`, with or without a trailing `/`; undefined for other hosts, relative URLs (`../r.git`) and
 * local paths.
 */
export function submoduleDependencyName(url: string): string | undefined {
  const trimmed = url.trim();
  const parts =
    /^(?:https?|git|ssh|git\+ssh):\/\/(?:[^@/]+@)?(?:www\.)?github\.com(?::\d+)?\/([^/]+)\/([^/]+?)\/?$/i.exec(trimmed) ??
    /^(?:[^@/:]+@)?github\.com:\/?([^/]+)\/([^/]+?)\/?$/i.exec(trimmed);
  if (!parts) return undefined;
  const owner = parts[1] ?? '';
  const repo = (parts[2] ?? '').replace(/\.git$/i, '');
  if (!/^[A-Za-z0-9-]+$/.test(owner) || !/^[A-Za-z0-9_.-]+$/.test(repo) || repo === '.' || repo === '..') return undefined;
  return `github.com/${owner}/${repo}`.toLowerCase();
}

/** A `.gitmodules` entry on GitHub: its dependency name (`github.com/<owner>/<repo>`), gitlink path and branch. */
export interface GithubSubmodule {
  dependency: string;
  /** Where its gitlink is (see {@link Submodule.path}). */
  path: string;
  /** The branch it follows as written, null when unset. */
  branch: string | null;
}

/**
 * The submodules of a `.gitmodules` ({@link readGitmodules}) whose URL is a GitHub repository
 * ({@link submoduleDependencyName}) and that have a path, in file order; the others (other hosts, relative URLs, entries
 * without `url` or `path`) are left out.
 * @throws ManifestParseError as {@link readGitmodules} does
 */
export function readGithubSubmodules(file: string, text: string): GithubSubmodule[] {
  return readGitmodules(file, text).flatMap((submodule) => {
    const dependency = submodule.url === null ? undefined : submoduleDependencyName(submodule.url);
    return dependency === undefined || !submodule.path ? [] : [{ dependency, path: submodule.path, branch: submodule.branch }];
  });
}
