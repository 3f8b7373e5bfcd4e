import type { Declaration, Located } from '../update/declarations.ts';
import { clauseRewriter, pessimisticKind, type RequirementSyntax } from '../update/rewrite.ts';
import { readMixExs } from './mix-exs.ts';
import { hexVersions } from './versions.ts';

/**
 * Elixir requirements as written (https://hexdocs.pm/elixir/Version.html#module-requirements): `~>` is compatible
 * (`~> 1.4` → `~> 2.1`, `~> 1.4.0` → `~> 2.1.3`), `==` or a bare version a pin, `<` an upper bound to widen, `<=` an
 * inclusive one, `>`/`>=` lower bounds, `!=` exclusions; `and` joins clauses, `or` alternatives (a new one is appended
 * when none allows the target).
 */
export const hexSyntax: RequirementSyntax = {
  scheme: hexVersions,
  operators: '~>|>=|<=|==|!=|>|<',
  version: String.raw`\d+\.\d+(?:\.\d+)?(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?`,
  between: String.raw`\s*(?:\band\b)?\s*`,
  or: String.raw`\bor\b`,
  hyphen: false,
  kind: pessimisticKind,
  clauseText: (operator, version) => (operator === '' ? version : `${operator} ${version}`),
  join: ' and ',
  orSeparator: ' or ',
};

const rewrite = clauseRewriter(hexSyntax);

/**
 * The declarations of Hex package `name` in mix.exs: each tuple's requirement string, or the module attribute's string
 * it names (edited once, and the note says when other tuples use it). A tuple without requirement is `unchanged`; a
 * git/path dependency, an attribute not set to a string, or a string with escapes or interpolation is `cannot`.
 * @throws ManifestParseError when mix.exs does not parse
 */
export function locateHex(files: Readonly<Record<string, string>>, name: string): Located {
  const text = files['mix.exs'];
  if (text === undefined) return { cannot: 'no mix.exs' };
  const all = readMixExs('mix.exs', text);
  const declarations: Declaration[] = [];
  const unchanged: string[] = [];
  let note: string | undefined;
  for (const dependency of all.filter((d) => d.name === name)) {
    const where = `{:${dependency.app}, ...}`;
    if (dependency.source !== 'hex') return { cannot: `mix.exs (${where}): a ${dependency.source} dependency` };
    if (dependency.span === undefined) {
      if (dependency.unresolved !== null) return { cannot: `mix.exs (${where}): @${dependency.unresolved} is not set to a string` };
      unchanged.push(`mix.exs (${where}): no requirement`);
      continue;
    }
    if (dependency.span.escaped) return { cannot: `mix.exs (${where}): the requirement string holds escapes or interpolation` };
    const attribute = dependency.span.attribute;
    if (attribute !== null) {
      const others = all.filter((d) => d.name !== name && d.span?.attribute === attribute).map((d) => d.app);
      if (others.length > 0) note = `@${attribute} is also the requirement of ${others.join(', ')}`;
    }
    declarations.push({ file: 'mix.exs', where, parts: [{ start: dependency.span.start, end: dependency.span.end }], rewrite });
  }
  return { declarations, unchanged, ...(note ? { note } : {}) };
}
