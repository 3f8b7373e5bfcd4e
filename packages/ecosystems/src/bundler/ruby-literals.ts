import { ManifestParseError } from '../errors.ts';

/**
 * A literal of Ruby source (https://docs.ruby-lang.org/en/master/syntax/literals_rdoc.html) as {@link scanRuby} finds it:
 * `'...'`, `"..."`, `%q(...)`/`%Q[...]`/`%(...)` strings, `%w[...]` word arrays, and the literals whose text is skipped
 * (`%i[]`, `%r{}`/`/.../` regexps, backticks, heredocs). Offsets are UTF-16 positions in the source.
 */
export interface RubyLiteral {
  /** Start of the literal (its opening delimiter, `%q<` or `<<~EOS` included). */
  start: number;
  /** End of the literal (after its closing delimiter). */
  end: number;
  /** The content between the delimiters (for a heredoc: the `<<~EOS` token itself). */
  contentStart: number;
  contentEnd: number;
  /** `string` for string literals, `words` for `%w`/`%W` arrays, `other` for the rest. */
  kind: 'string' | 'words' | 'other';
  /** True when the content is exactly the value: no `#{}` interpolation and no backslash escape. */
  plain: boolean;
  /** The opening and closing delimiters as written (`'`, `%q<` and `>`). */
  open: string;
  close: string;
  /** For `words`: each word's span. */
  words?: { start: number; end: number }[];
}

/** What {@link scanRuby} gives: the source with comments and heredoc bodies blanked, and its literals by start offset. */
export interface RubyScan {
  /**
   * The source, same length: comments, `=begin`/`=end` blocks, heredoc bodies and text after `__END__` become spaces,
   * each literal's characters `\uE000` (line breaks stay everywhere), so brackets and commas read in it are code.
   */
  code: string;
  literals: Map<number, RubyLiteral>;
}

const BRACKETS: Record<string, string> = { '(': ')', '[': ']', '{': '}', '<': '>' };
/** Characters after which a `/` or `%(` starts a literal rather than dividing (what ends a value: names, `)`, literals). */
const VALUE_END = /[\w)\]}\uE000]/;
const KEYWORDS_BEFORE_VALUE = /(?:^|[^\w])(?:if|unless|when|and|or|not|return|then|elsif|while|until|in)$/;

/**
 * Scans Ruby source for its literals without running it: enough of Ruby's lexer to tell code from strings, comments and
 * heredocs (`<<~EOS`, `<<-'EOS'`, `<<EOS`), with `#{}` interpolation read as nested code. A `/` starts a regexp where a
 * value is expected (after an operator, `(`, `,`, a keyword, or a method name and a space as in `grep /x/`); a `%`
 * followed by a delimiter likewise. Character literals (`?a`) are not read.
 * @throws ManifestParseError (`file`) on a string, regexp, heredoc or `=begin` comment left open
 */
export function scanRuby(file: string, text: string): RubyScan {
  const code = text.split('');
  const literals = new Map<number, RubyLiteral>();
  const lineOf = (pos: number) => text.slice(0, pos).split('\n').length;
  const fail = (pos: number, what: string): never => {
    throw new ManifestParseError(file, `line ${lineOf(pos)}: ${what} not closed`);
  };
  const blank = (from: number, to: number, by: string) => {
    for (let i = from; i < to; i++) if (code[i] !== '\n') code[i] = by;
  };
  const pendingHeredocs: { id: string; indented: boolean; at: number }[] = [];

  /** Skips the bodies of the heredocs opened on the line that ends at `pos` (a `\n`); returns where code resumes. */
  const heredocBodies = (pos: number): number => {
    let at = pos + 1;
    while (pendingHeredocs.length > 0) {
      const heredoc = pendingHeredocs.shift() as (typeof pendingHeredocs)[number];
      for (;;) {
        if (at >= text.length) fail(heredoc.at, `heredoc ${heredoc.id}`);
        const eol = text.indexOf('\n', at);
        const lineEnd = eol < 0 ? text.length : eol;
        const line = text.slice(at, lineEnd).replace(/\r$/, '');
        blank(at, lineEnd, ' ');
        at = lineEnd + 1;
        if ((heredoc.indented ? line.trim() : line) === heredoc.id) break;
      }
    }
    return at - 1;
  };

  /** The previous character of code that is not a blank, and whether blanks separate it from `pos`. */
  const before = (pos: number): { char: string; spaced: boolean; word: string } => {
    let i = pos - 1;
    while (i >= 0 && (code[i] === ' ' || code[i] === '\t')) i--;
    const char = i >= 0 ? (code[i] ?? '') : '';
    const word = /\w+$/.exec(code.slice(Math.max(0, i - 10), i + 1).join(''))?.[0] ?? '';
    return { char, spaced: i < pos - 1, word };
  };
  /** Does a value-starting literal (`/re/`, `%(...)`) fit at `pos`, given what precedes it? */
  const valueExpected = (pos: number): boolean => {
    const { char, spaced, word } = before(pos);
    if (char === '' || char === '\n' || !VALUE_END.test(char)) return true;
    if (KEYWORDS_BEFORE_VALUE.test(word)) return true;
    // `grep /x/`, `puts %(...)`: a method name, a space, and no space after the delimiter
    const next = text.charAt(pos + 1);
    return spaced && /^[a-z_]\w*[?!]?$/.test(word) && next !== ' ' && next !== '=';
  };

  /** Scans a delimited literal's content from `pos` (after the opening delimiter); returns the closing delimiter's offset. */
  const scanContent = (pos: number, open: string, close: string, interpolates: boolean, flags: { plain: boolean }): number => {
    let depth = 0;
    for (let i = pos; i < text.length; i++) {
      const c = text.charAt(i);
      if (c === '\\') {
        flags.plain = false;
        i++;
      } else if (interpolates && c === '#' && text.charAt(i + 1) === '{') {
        flags.plain = false;
        i = scanCode(i + 2, true);
      } else if (c === close && depth === 0) return i;
      else if (open !== close && c === open) depth++;
      else if (open !== close && c === close) depth--;
    }
    return fail(pos, 'literal');
  };

  /** Records a literal and blanks it in `code`. */
  const add = (literal: RubyLiteral) => {
    literals.set(literal.start, literal);
    blank(literal.start, literal.end, '\uE000');
  };

  /** Scans code from `pos` to the end (or, with `inBraces`, to the `}` closing an interpolation); returns that offset. */
  function scanCode(pos: number, inBraces: boolean): number {
    let depth = 0;
    for (let i = pos; i < text.length; i++) {
      const c = text.charAt(i);
      const lineStart = i === 0 || text.charAt(i - 1) === '\n';
      if (lineStart && !inBraces && text.startsWith('=begin', i) && /^=begin(\s|$)/.test(text.slice(i, i + 7))) {
        const end = /^=end\b.*$/m.exec(text.slice(i));
        if (!end) return fail(i, '=begin comment');
        const stop = i + end.index + end[0].length;
        blank(i, stop, ' ');
        i = stop - 1;
      } else if (
        lineStart &&
        !inBraces &&
        /^__END__\r?$/.test(text.slice(i, text.indexOf('\n', i) < 0 ? text.length : text.indexOf('\n', i)))
      ) {
        blank(i, text.length, ' ');
        return text.length;
      } else if (c === '#') {
        const eol = text.indexOf('\n', i);
        const stop = eol < 0 ? text.length : eol;
        blank(i, stop, ' ');
        i = stop - 1;
      } else if (c === '\n') {
        if (pendingHeredocs.length > 0) i = heredocBodies(i);
      } else if (c === '{') depth++;
      else if (c === '}') {
        if (inBraces && depth === 0) return i;
        depth--;
      } else if (c === '$' && i + 1 < text.length && /[^\w\s{]/.test(text.charAt(i + 1))) {
        i++; // `$'`, `$"`, `$:`, `$;`: punctuation globals, not delimiters
      } else if (c === "'" || c === '"' || c === '`') {
        const flags = { plain: true };
        const close = scanContent(i + 1, c, c, c !== "'", flags);
        const plain = flags.plain && c !== '`';
        add({
          start: i,
          end: close + 1,
          contentStart: i + 1,
          contentEnd: close,
          kind: c === '`' ? 'other' : 'string',
          plain,
          open: c,
          close: c,
        });
        i = close;
      } else if (c === '<' && text.charAt(i + 1) === '<') {
        const heredoc = /^<<([~-]?)(?:(['"`])([^'"`\n]+)\2|([A-Za-z_]\w*))/.exec(text.slice(i, i + 100));
        const id = heredoc?.[3] ?? heredoc?.[4];
        const { char } = before(i);
        const bareOk = heredoc?.[1] !== '' || heredoc?.[2] !== undefined || /^[A-Z_][A-Z0-9_]*$/.test(id ?? '');
        if (heredoc && id && bareOk && !/[\w)\]]/.test(text.charAt(i - 1)) && char !== '') {
          pendingHeredocs.push({ id, indented: heredoc[1] !== '', at: i });
          const end = i + heredoc[0].length;
          add({ start: i, end, contentStart: i, contentEnd: end, kind: 'other', plain: false, open: '', close: '' });
          i = end - 1;
        } else i++;
      } else if (c === '/' && valueExpected(i)) {
        const flags = { plain: true };
        const close = scanContent(i + 1, '/', '/', true, flags);
        let end = close + 1;
        while (/[imxounse]/.test(text.charAt(end))) end++;
        add({ start: i, end, contentStart: i + 1, contentEnd: close, kind: 'other', plain: false, open: '/', close: '/' });
        i = end - 1;
      } else if (c === '%') {
        const percent = /^%([qQwWiIrsx]?)([^\w\s])/.exec(text.slice(i, i + 3));
        const type = percent?.[1] ?? '';
        const delimiter = percent?.[2] ?? '';
        const literal = percent !== null && (type !== '' ? !/[\w)\]}]/.test(text.charAt(i - 1)) : valueExpected(i) && delimiter !== '=');
        if (!literal) continue;
        const close = BRACKETS[delimiter] ?? delimiter;
        const flags = { plain: true };
        const contentStart = i + 2 + type.length;
        const end = scanContent(contentStart, delimiter, close, /^[QWIrx]?$/.test(type), flags);
        let stop = end + 1;
        if (type === 'r') while (/[imxounse]/.test(text.charAt(stop))) stop++;
        const kind = type === 'w' || type === 'W' ? 'words' : type === '' || type === 'q' || type === 'Q' ? 'string' : 'other';
        const words =
          kind === 'words'
            ? [...text.slice(contentStart, end).matchAll(/\S+/g)].map((m) => ({
                start: contentStart + m.index,
                end: contentStart + m.index + m[0].length,
              }))
            : undefined;
        const open = text.slice(i, contentStart);
        add({ start: i, end: stop, contentStart, contentEnd: end, kind, plain: flags.plain, open, close, ...(words ? { words } : {}) });
        i = stop - 1;
      }
    }
    if (inBraces) return fail(pos, 'interpolation');
    if (pendingHeredocs.length > 0) fail(pendingHeredocs[0]?.at ?? pos, `heredoc ${pendingHeredocs[0]?.id}`);
    return text.length;
  }

  scanCode(0, false);
  return { code: code.join(''), literals };
}
