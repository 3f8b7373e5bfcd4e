import type { Declaration, Located, Span } from '../update/declarations.ts';
import { clauseRewriter, pessimisticKind, type RequirementSyntax } from '../update/rewrite.ts';
import { readGemfile } from './gemfile.ts';
import { rubyVersions } from './versions.ts';

/**
 * `Gem::Requirement` clauses as a Gemfile writes them, one or more per string literal
 * (https://guides.rubygems.org/patterns/#declaring-dependencies): a bare version or `=` pins, `~>` is
 * compatible (`~> 6.0.3` → `~> 6.1.0`), `<`/`<=` are upper bounds, `>`/`>=` lower bounds, `!=` an exclusion.
 */
export const rubySyntax: RequirementSyntax = {
  scheme: rubyVersions,
  operators: '!=|>=|<=|~>|=|>|<',
  version: String.raw`[0-9]+(?:\.[0-9A-Za-z]+)*(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?`,
  between: String.raw`[\s,]*`,
  or: null,
  hyphen: false,
  kind: pessimisticKind,
  clauseText: (operator, version) => `${operator || '='} ${version}`,
  join: ', ',
};

const rewrite = clauseRewriter(rubySyntax);

/** A string literal's content span and quote, or null for an argument that is not one plain literal. */
type Argument = (Span & { quote: string }) | null;

/**
 * The arguments of the `gem` call starting on the line at `start`, as {@link readGemfile} reads it: continued on
 * the next line after a trailing `,` or `\`, ended by a trailing `if`/`unless`/`do`, comments skipped. Null when
 * the line does not start with `gem` or a string is not closed.
 */
function gemArguments(text: string, start: number): Argument[] | null {
  const blank = (c: string) => c === ' ' || c === '\t' || c === '\r';
  let pos = start;
  while (blank(text.charAt(pos))) pos++;
  if (!text.startsWith('gem', pos)) return null;
  pos += 3;
  while (blank(text.charAt(pos))) pos++;
  const parenthesised = text.charAt(pos) === '(';
  if (parenthesised) pos++;
  let depth = 0; // of brackets inside the arguments
  const args: Argument[] = [];
  let literal: Argument = null;
  let other = false;
  let last = ''; // last significant character of the current line
  const endArgument = () => {
    args.push(other ? null : literal);
    literal = null;
    other = false;
  };
  for (; pos < text.length; pos++) {
    const c = text.charAt(pos);
    if (c === '"' || c === "'") {
      const close = text.indexOf(c, pos + 1);
      if (close < 0) return null;
      const content = text.slice(pos + 1, close);
      if (literal !== null || depth !== 0 || content.includes('\\') || content.includes('\n') || (c === '"' && content.includes('#{')))
        other = true;
      else literal = { start: pos + 1, end: close, quote: c };
      last = c;
      pos = close;
    } else if (c === '#') {
      while (pos + 1 < text.length && text.charAt(pos + 1) !== '\n') pos++;
    } else if (c === '\n') {
      if (last !== ',' && last !== '\\') break;
      last = '';
    } else if (blank(c)) {
      if (depth === 0 && /^\s+(?:if|unless|do)\b/.test(text.slice(pos, pos + 10))) break;
    } else if (c === '\\' && /^\\[ \t\r]*(?:\n|$)/.test(text.slice(pos, pos + 20))) {
      last = c;
    } else {
      last = c;
      if (c === ',' && depth === 0) {
        endArgument();
        continue;
      }
      if (c === ')' && depth === 0 && parenthesised) break;
      if ('([{'.includes(c)) depth++;
      else if (')]}'.includes(c)) depth--;
      other = true;
    }
  }
  endArgument();
  return args;
}

/**
 * The declarations of gem `name` (case-insensitive) in the Gemfile: the version string literals of each `gem`
 * call (`gem "rails", "~> 6.0.3"`, `gem 'puma', '>= 5.0', '< 7'`), edited inside their quotes. A call without a
 * version is unchanged; git and path gems, calls with arguments computed at run time (`gem "rack", rack_version`) and
 * interpolated or escaped literals cannot be rewritten.
 * @throws ManifestParseError when the Gemfile does not parse
 */
export function locateBundler(files: Readonly<Record<string, string>>, name: string): Located {
  const text = files.Gemfile;
  if (text === undefined) return { cannot: 'no Gemfile' };
  const wanted = name.trim().toLowerCase();
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  const declarations: Declaration[] = [];
  const unchanged: string[] = [];
  for (const gem of readGemfile('Gemfile', text)) {
    if (gem.name.toLowerCase() !== wanted) continue;
    const where = `line ${gem.line}`;
    if (gem.source !== 'rubygems')
      return { cannot: `${where}: '${gem.name}' comes from ${gem.source === 'git' ? 'a git repository' : 'a local path'}` };
    if (gem.partial) return { cannot: `${where}: some arguments of '${gem.name}' are computed when Ruby runs (a variable, a splat)` };
    if (gem.requirement === null) {
      unchanged.push(`Gemfile (${where}): no version requirement`);
      continue;
    }
    const args = gemArguments(text, starts[gem.line - 1] ?? 0);
    const parts = (args ?? []).slice(1).filter((a): a is Span & { quote: string } => a !== null);
    const read = parts.map((p) => text.slice(p.start, p.end).trim()).join(', ');
    if (read !== gem.requirement) return { cannot: `${where}: the version arguments of '${gem.name}' are not plain string literals` };
    declarations.push({ file: 'Gemfile', where, parts: parts.map(({ start, end }) => ({ start, end })), rewrite });
  }
  return { declarations, unchanged };
}
