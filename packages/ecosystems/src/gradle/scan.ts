/**
 * Lexical help for Gradle build scripts (Groovy DSL `build.gradle` and Kotlin DSL `build.gradle.kts`): the text with
 * its comments blanked out, so that declarations can be found with regular expressions at the offsets of the original
 * text. Like Dependabot's Gradle file parser (https://github.com/dependabot/dependabot-core/blob/main/gradle/lib/dependabot/gradle/file_parser.rb),
 * this reads the common declaration forms, it does not evaluate the script.
 */

/**
 * `text` with every `//` line comment and `/* … *\/` block comment replaced by spaces (line breaks kept), string literals
 * (`'…'`, `"…"`, `'''…'''`, `"""…"""`) left as they are; same length as `text`, so offsets carry over.
 */
export function blankComments(text: string): string {
  const out = text.split('');
  let i = 0;
  const blank = (from: number, to: number) => {
    for (let j = from; j < to; j++) if (out[j] !== '\n' && out[j] !== '\r') out[j] = ' ';
  };
  while (i < text.length) {
    const c = text.charAt(i);
    if (c === '/' && text.charAt(i + 1) === '/') {
      const end = text.indexOf('\n', i);
      const stop = end < 0 ? text.length : end;
      blank(i, stop);
      i = stop;
    } else if (c === '/' && text.charAt(i + 1) === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : end + 2;
      blank(i, stop);
      i = stop;
    } else if (c === '"' || c === "'") {
      const triple = text.startsWith(c.repeat(3), i);
      const quote = triple ? c.repeat(3) : c;
      let j = i + quote.length;
      while (j < text.length && !text.startsWith(quote, j)) {
        if (!triple && text.charAt(j) === '\n') break;
        j += text.charAt(j) === '\\' ? 2 : 1;
      }
      i = Math.min(text.length, j + quote.length);
    } else i++;
  }
  return out.join('');
}

/** Escapes text for use inside a regular expression. */
export const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The 1-based line of offset `at` in `text`. */
export function lineAt(text: string, at: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < at; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** The offset just after the bracket that closes the one at `open` (`(`, `[` or `{`), skipping strings; -1 when unclosed. */
export function closingBracket(blanked: string, open: number): number {
  const pairs: Record<string, string> = { '(': ')', '[': ']', '{': '}' };
  const stack: string[] = [];
  for (let i = open; i < blanked.length; i++) {
    const c = blanked.charAt(i);
    if (c === '"' || c === "'") {
      const end = blanked.indexOf(c, i + 1);
      if (end < 0) return -1;
      i = end;
    } else if (pairs[c]) stack.push(pairs[c] as string);
    else if (c === stack.at(-1)) {
      stack.pop();
      if (stack.length === 0) return i + 1;
    }
  }
  return -1;
}
