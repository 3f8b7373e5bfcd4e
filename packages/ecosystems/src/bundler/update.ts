import { lineStarts } from '../shared/lines.ts';
import type { Declaration, Located, Span } from '../update/declarations.ts';
import { clauseRewriter, pessimisticKind, type RequirementRewriter, type RequirementSyntax } from '../update/rewrite.ts';
import type { GemspecLiteral } from './gemspec.ts';
import { bundlerDeclarations } from './manifests.ts';
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
 * The arguments of the `gem` call starting on the line at `start`, as `readGemfile` reads it: continued on
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

/** A gemspec requirement rewritten under `widen` becomes a range of two literals where it was `~>` (see {@link gemspecRewriter}). */
const gemspecRange = clauseRewriter({ ...rubySyntax, range: (lower, upper) => `>= ${lower}, < ${upper}` });

/**
 * The rewriter of a gemspec declaration, whose requirement is one span from its first literal's content to its last's
 * (`~> 1.2', '>= 1.2.3` of `'~> 1.2', '>= 1.2.3'`): the literals' contents (at `literals`, offsets relative to the
 * span) are rewritten as a Gemfile's, by dependabot-core's Bundler `RequirementsUpdater#update_gemspec_requirement`:
 * under `widen` a runtime dependency's `~>` that excludes the target becomes a range (`convert_twiddle_to_range`:
 * `'~> 6.0'` → `'>= 6.0', '< 8.0'` for 7.1.0, the new literal written with the old one's quotes and `.freeze`), while a
 * development dependency's is bumped as `increase-if-necessary` moves it (`bumped_requirements`); `%w[]` words, which
 * cannot hold the space a clause is written with, are bumped too. The text between the literals stays.
 */
function gemspecRewriter(literals: readonly (Span & GemspecLiteral)[], development: boolean): RequirementRewriter {
  const words = literals.some((literal) => literal.word);
  return (parts, target, strategy) => {
    const span = parts[0] ?? '';
    const contents = literals.map((literal) => span.slice(literal.start, literal.end));
    const widens = strategy === 'widen' && !development && !words;
    const moves = strategy === 'widen' && !widens ? 'increase-if-necessary' : strategy;
    const result = (widens ? gemspecRange : rewrite)(contents, target, moves);
    if (!('parts' in result)) return result;
    let out = '';
    let at = 0;
    for (const [i, literal] of literals.entries()) {
      const text = result.parts[i] ?? '';
      const split = (contents[i] ?? '').includes(',') ? [text] : text.split(/\s*,\s*/);
      out += span.slice(at, literal.start) + split.join(`${literal.close}${literal.suffix}, ${literal.open}`);
      at = literal.end;
    }
    return { parts: [out + span.slice(at)] };
  };
}

/**
 * The declarations of gem `name` (case-insensitive) in the files read: the version string literals of each `gem` call of
 * the Gemfile (`gems.rb` or `Gemfile`: `gem "rails", "~> 6.0.3"`, `gem 'puma', '>= 5.0', '< 7'`), edited inside their
 * quotes, and the requirement literals of each gemspec `add_*dependency` call (`spec.add_dependency "rack", ">= 2.0",
 * "< 4"`, arrays, `%w[]`, `.freeze`), edited as one span from the first literal's content to the last's
 * ({@link gemspecRewriter}). A call without a version is unchanged; git and path gems, calls with arguments computed at
 * run time (`gem "rack", rack_version`, `spec.add_dependency "rails", "= #{VERSION}"`) and interpolated or escaped
 * literals cannot be rewritten.
 * @throws ManifestParseError when the Gemfile or a gemspec read does not parse
 */
export function locateBundler(files: Readonly<Record<string, string>>, name: string): Located {
  const wanted = name.trim().toLowerCase();
  const declarations: Declaration[] = [];
  const unchanged: string[] = [];
  const startsOf = new Map<string, number[]>();
  for (const gem of bundlerDeclarations(files).declarations) {
    if (gem.name.toLowerCase() !== wanted) continue;
    const text = files[gem.file] ?? '';
    const where = `line ${gem.line}`;
    if (gem.source !== 'rubygems')
      return { cannot: `${gem.file} (${where}): '${gem.name}' comes from ${gem.source === 'git' ? 'a git repository' : 'a local path'}` };
    if (gem.partial)
      return { cannot: `${gem.file} (${where}): some arguments of '${gem.name}' are computed when Ruby runs (a variable, a splat)` };
    if (gem.requirement === null) {
      unchanged.push(`${gem.file} (${where}): no version requirement`);
      continue;
    }
    if (gem.gemspec) {
      const { literals } = gem.gemspec;
      const start = literals[0]?.start ?? 0;
      const end = literals.at(-1)?.end ?? start;
      const relative = literals.map((literal) => ({ ...literal, start: literal.start - start, end: literal.end - start }));
      declarations.push({
        file: gem.file,
        where,
        parts: [{ start, end }],
        rewrite: gemspecRewriter(relative, gem.type === 'development'),
        requirement: gem.requirement,
      });
      continue;
    }
    const starts = startsOf.get(gem.file) ?? lineStarts(text);
    startsOf.set(gem.file, starts);
    const args = gemArguments(text, starts[gem.line - 1] ?? 0);
    const parts = (args ?? []).slice(1).filter((a): a is Span & { quote: string } => a !== null);
    const read = parts.map((p) => text.slice(p.start, p.end).trim()).join(', ');
    if (read !== gem.requirement) return { cannot: `${where}: the version arguments of '${gem.name}' are not plain string literals` };
    declarations.push({ file: gem.file, where, parts: parts.map(({ start, end }) => ({ start, end })), rewrite });
  }
  return { declarations, unchanged };
}
