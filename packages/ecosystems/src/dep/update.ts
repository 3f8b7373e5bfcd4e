import { ManifestParseError } from '../errors.ts';
import type { Declaration, Located } from '../update/declarations.ts';
import { clauseRewriter, type RequirementSyntax } from '../update/rewrite.ts';
import { tomlStringAt, tomlStrings } from '../update/toml-spans.ts';
import { readGopkgToml } from './gopkg.ts';
import { depVersions } from './versions.ts';

const MANIFEST = 'Gopkg.toml';

/**
 * dep constraints as written (https://golang.github.io/dep/docs/Gopkg.toml.html#version): comparators joined by `,`,
 * `||` alternatives, hyphen ranges, a `v` before a version kept outside it. A bare version is a caret (compatible, as
 * dep reads it), `=1.2.3` a pin, `^`, `~`, `~>` and wildcards compatible, `<`/`<=` upper bounds, `>`/`>=`/`=>` lower
 * bounds, `!=` an exclusion.
 */
export const depSyntax: RequirementSyntax = {
  scheme: depVersions,
  operators: String.raw`(?:>=|<=|=>|=<|!=|~>|>|<|=|\^|~)?\s*v?`,
  version: String.raw`(?:\d+|[*xX])(?:\.(?:\d+|[*xX])){0,2}(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?`,
  between: String.raw`[\s,]*`,
  or: String.raw`\|\|`,
  hyphen: true,
  kind(operator, version) {
    const op = operator.replace(/[\sv]/g, '');
    if (op === '=') return /[*xX]/.test(version) || version.split('.').length < 3 ? 'compatible' : 'exact';
    if (op === '' || op === '^' || op === '~' || op === '~>') return 'compatible';
    if (op === '<') return 'upper';
    if (op === '<=' || op === '=<') return 'upperInclusive';
    return op === '!=' ? 'not' : 'lower';
  },
  clauseText: (operator, version) => `${operator.replace(/\s/g, '')}${version}`,
  join: '',
};

const rewrite = clauseRewriter(depSyntax);

/**
 * The declarations of project `name` in Gopkg.toml: the `version` of every `[[constraint]]` and `[[override]]` naming it.
 * A rule pinning a `branch` or `revision`, or fetching from another `source`, cannot be rewritten (dep takes it from that
 * branch, commit or fork, not from the project's tags); a rule with none of `version`, `branch`, `revision` is left
 * (`unchanged`). A version written with escapes or across lines cannot be rewritten.
 * @throws ManifestParseError when Gopkg.toml does not parse
 */
export function locateDep(files: Readonly<Record<string, string>>, name: string): Located {
  const text = files[MANIFEST];
  if (text === undefined) return { cannot: 'no Gopkg.toml' };
  const rules = readGopkgToml(MANIFEST, text).filter((rule) => rule.name === name.trim());
  let strings: ReturnType<typeof tomlStrings>;
  try {
    strings = tomlStrings(text);
  } catch (error) {
    throw new ManifestParseError(MANIFEST, error instanceof Error ? error.message : String(error));
  }
  const declarations: Declaration[] = [];
  const unchanged: string[] = [];
  for (const rule of rules) {
    const where = `[[${rule.kind}]] ${rule.name}`;
    if (rule.branch !== null || rule.revision !== null) return { cannot: `${where} pins a branch or revision, not a version` };
    if (rule.source !== null) return { cannot: `${where} is fetched from ${rule.source}` };
    if (rule.version === null) {
      unchanged.push(`${where} has no version constraint`);
      continue;
    }
    const span = tomlStringAt(strings, [rule.kind, String(rule.index), 'version']);
    if (!span || text.slice(span.start, span.end) !== rule.version) return { cannot: `${where}: its version is written with escapes` };
    declarations.push({ file: MANIFEST, where, parts: [{ start: span.start, end: span.end }], rewrite });
  }
  return { declarations, unchanged };
}
