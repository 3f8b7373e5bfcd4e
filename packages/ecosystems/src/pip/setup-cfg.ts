import type { DependencyType, SkippedDeclaration } from '../ecosystem.ts';
import { ManifestParseError } from '../errors.ts';

/**
 * The requirements of a setuptools `setup.cfg` (https://setuptools.pypa.io/en/latest/userguide/declarative_config.html):
 * `[options]` `install_requires`, `setup_requires`, `tests_require` and each key of `[options.extras_require]`, read
 * with the rules of Python's configparser as setuptools configures it (https://docs.python.org/3/library/configparser.html):
 * `key = value` or `key: value`, keys lower-cased, values continued on indented lines, whole-line `#`/`;` comments (no
 * inline comments, so `;` inside a value is a PEP 508 marker), blank lines inside a value kept. setuptools' list rule
 * (`_parse_list_semicolon`): a value of several lines is one requirement a line, a one-line value is split at `;`.
 */

/** One requirement of setup.cfg with its place. */
export interface SetupCfgRequirement {
  /** The requirement text, trimmed. */
  value: string;
  /** `install_requires`, `setup_requires`, `tests_require` or `extras_require:<extra>`. */
  group: string;
  /** `install_requires` is runtime; the others development (as for setup.py). */
  type: DependencyType;
  /** Span of `value` in the file. */
  start: number;
  end: number;
  /** 1-based line. */
  line: number;
}

/** A value line of an INI option: its text (trimmed) and where it is. */
interface ValueLine {
  text: string;
  start: number;
  line: number;
}

/** An option of an INI section: its key (lower-cased) and value lines (the first, possibly empty, on the key's line). */
interface IniOption {
  key: string;
  line: number;
  lines: ValueLine[];
}

/**
 * The sections of an INI text as configparser reads them (section name → options in order). Only what setuptools reads
 * is kept: no interpolation, no defaults.
 * @throws ManifestParseError on a line that is neither a section header, an option, a continuation nor a comment
 */
function readIni(file: string, text: string): Map<string, IniOption[]> {
  const sections = new Map<string, IniOption[]>();
  let options: IniOption[] | undefined;
  let current: IniOption | undefined;
  let offset = 0;
  for (const [index, raw] of text.split('\n').entries()) {
    const start = offset;
    offset += raw.length + 1;
    const line = raw.replace(/\r$/, '');
    const stripped = line.trim();
    if (stripped.startsWith('#') || stripped.startsWith(';')) continue;
    const indented = /^\s/.test(line);
    if (stripped === '') {
      if (current) current.lines.push({ text: '', start: start + line.length, line: index + 1 });
      continue;
    }
    if (current && indented) {
      current.lines.push({ text: stripped, start: start + line.indexOf(stripped), line: index + 1 });
      continue;
    }
    const header = /^\[(.+)\]\s*$/.exec(stripped);
    if (header?.[1]) {
      options = sections.get(header[1]) ?? [];
      sections.set(header[1], options);
      current = undefined;
      continue;
    }
    // The key ends at its last non-space character before the first `=`/`:` (a lazy key before `\s*` was quadratic on spaces).
    const option = /^([^=:]*[^=:\s])\s*[=:]\s*(.*)$/.exec(stripped);
    if (!option?.[1] || !options) throw new ManifestParseError(file, `line ${index + 1}: cannot read '${stripped}'`);
    const value = option[2] ?? '';
    const valueStart = start + line.indexOf(stripped) + stripped.length - value.length;
    current = { key: option[1].toLowerCase(), line: index + 1, lines: [{ text: value.trim(), start: valueStart, line: index + 1 }] };
    options.push(current);
  }
  return sections;
}

const OPTION_GROUPS = ['install_requires', 'setup_requires', 'tests_require'];

/**
 * The requirements setup.cfg declares, in file order, and the values it skipped (a `file:` or `attr:` directive, which
 * names another file).
 * @throws ManifestParseError on text configparser would reject
 */
export function readSetupCfg(file: string, text: string): { requirements: SetupCfgRequirement[]; skipped: SkippedDeclaration[] } {
  const sections = readIni(file, text);
  const requirements: SetupCfgRequirement[] = [];
  const skipped: SkippedDeclaration[] = [];
  const read = (option: IniOption, group: string) => {
    const lines = option.lines.filter((l) => l.text !== '');
    if (lines[0]?.text.startsWith('file:') || lines[0]?.text.startsWith('attr:')) {
      skipped.push({ file, line: option.line, text: `${option.key} = ${lines[0].text}`, reason: 'a file: directive is not read' });
      return;
    }
    const type: DependencyType = group === 'install_requires' ? 'runtime' : 'development';
    // configparser drops the blank lines that end a value; what is left on one line is split at `;`
    const lastWritten = option.lines.findLastIndex((l) => l.text !== '');
    const items: ValueLine[] =
      lastWritten > 0
        ? lines
        : lines.flatMap((l) => {
            let at = 0;
            return l.text.split(';').map((part) => {
              const item = { text: part.trim(), start: l.start + at + (part.length - part.trimStart().length), line: l.line };
              at += part.length + 1;
              return item;
            });
          });
    for (const item of items) {
      if (item.text === '') continue;
      requirements.push({ value: item.text, group, type, start: item.start, end: item.start + item.text.length, line: item.line });
    }
  };
  for (const option of sections.get('options') ?? []) if (OPTION_GROUPS.includes(option.key)) read(option, option.key);
  for (const option of sections.get('options.extras_require') ?? []) read(option, `extras_require:${option.key}`);
  requirements.sort((a, b) => a.start - b.start);
  return { requirements, skipped };
}
