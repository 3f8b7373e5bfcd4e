/**
 * A reader of `.gitmodules` (https://git-scm.com/docs/gitmodules), the git-config file naming each submodule's path
 * and URL: `[submodule "<name>"]` sections with `path = …` and `url = …` (and `branch = …`).
 */

/** One submodule as `.gitmodules` declares it. */
export interface GitmoduleEntry {
  name: string;
  path: string;
  url: string;
  /** The `branch` to follow, when given. */
  branch?: string;
}

/**
 * The `value` of a git-config line: surrounding blanks dropped, double-quoted parts unquoted (with `\"`, `\\`, `\n`,
 * `\t` escapes), and a `#` or `;` outside quotes starting a comment (https://git-scm.com/docs/git-config#_syntax).
 */
function configValue(raw: string): string {
  let out = '';
  let quoted = false;
  for (let i = 0; i < raw.length; i += 1) {
    const c = raw[i] as string;
    if (c === '\\' && i + 1 < raw.length) {
      const next = raw[i + 1] as string;
      out += next === 'n' ? '\n' : next === 't' ? '\t' : next;
      i += 1;
    } else if (c === '"') quoted = !quoted;
    else if (!quoted && (c === '#' || c === ';')) break;
    else out += c;
  }
  return out.trim();
}

/**
 * The submodules of a `.gitmodules` text, in file order; a section without both `path` and `url` is left out, and
 * keys are case-insensitive, as git reads them. Never throws: a line it cannot read is skipped.
 */
export function parseGitmodules(text: string): GitmoduleEntry[] {
  const sections: { name: string; values: Map<string, string> }[] = [];
  let current: { name: string; values: Map<string, string> } | undefined;
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[\s*submodule\s+"((?:[^"\\]|\\.)*)"\s*\]/i.exec(line);
    if (header) {
      current = { name: (header[1] as string).replace(/\\(.)/g, '$1'), values: new Map() };
      sections.push(current);
      continue;
    }
    if (line.startsWith('[')) {
      current = undefined;
      continue;
    }
    const pair = /^([A-Za-z][A-Za-z0-9-]*)\s*=(.*)$/.exec(line);
    if (current && pair) current.values.set((pair[1] as string).toLowerCase(), configValue(pair[2] as string));
  }
  return sections.flatMap(({ name, values }) => {
    const path = values.get('path');
    const url = values.get('url');
    if (!path || !url) return [];
    const branch = values.get('branch');
    return [{ name, path: path.replace(/^\/+|\/+$/g, ''), url, ...(branch ? { branch } : {}) }];
  });
}
