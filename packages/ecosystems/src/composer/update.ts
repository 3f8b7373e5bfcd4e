import { parseJsonObject, tableAt } from '../shared/parse.ts';
import type { Declaration, Located } from '../update/declarations.ts';
import { jsonStringAt, jsonStrings } from '../update/json-spans.ts';
import { clauseRewriter, type RequirementSyntax } from '../update/rewrite.ts';
import { normaliseComposerName } from './composer-json.ts';
import { composerVersions } from './versions.ts';

/**
 * Composer constraints as written (https://getcomposer.org/doc/articles/versions.md): clauses separated by
 * `,` or spaces, `||`/`|` alternatives, hyphen ranges, stability flags (`@beta`, kept as written), a `v` prefix
 * kept outside the version. A bare full version, `=` and `==` pin; `^`, `~` and wildcards (`1.2.*`) are
 * compatible; `!=`/`<>` exclude.
 */
export const composerSyntax: RequirementSyntax = {
  scheme: composerVersions,
  operators: String.raw`(?:>=|<=|!=|<>|==|=|>|<|\^|~)?\s*[vV]?`,
  version: String.raw`(?:\d+|[*xX])(?:\.(?:\d+|[*xX])){0,3}(?:[-.]?[A-Za-z]+(?:[.-]?\d+)?)?`,
  between: String.raw`(?:[\s,]|@[A-Za-z]+)*`,
  or: String.raw`\|\|?`,
  hyphen: true,
  kind(operator, version) {
    const op = operator.replace(/[\svV]/g, '');
    if (op === '' || op === '=' || op === '==') return /[*xX]/.test(version) ? 'compatible' : 'exact';
    if (op === '^' || op === '~') return 'compatible';
    if (op === '<') return 'upper';
    if (op === '<=') return 'upperInclusive';
    return op === '>' || op === '>=' ? 'lower' : 'not';
  },
  clauseText: (operator, version) => `${operator.replace(/\s/g, '')}${version}`,
  join: '',
  // dependabot-core's Composer updater widens a library's caret, tilde or wildcard by appending an alternative.
  orSeparator: ' || ',
};

const rewrite = clauseRewriter(composerSyntax);

/**
 * The declarations of `name` (case-insensitive) in composer.json's `require` and `require-dev`. A value written
 * with JSON escapes cannot be rewritten.
 * @throws ManifestParseError when composer.json does not parse
 */
export function locateComposer(files: Readonly<Record<string, string>>, name: string): Located {
  const text = files['composer.json'];
  if (text === undefined) return { cannot: 'no composer.json' };
  const manifest = parseJsonObject('composer.json', text);
  const strings = jsonStrings(text);
  const wanted = normaliseComposerName(name);
  const declarations: Declaration[] = [];
  for (const section of ['require', 'require-dev']) {
    for (const [key, value] of Object.entries(tableAt('composer.json', manifest, section) ?? {})) {
      if (typeof value !== 'string' || normaliseComposerName(key) !== wanted) continue;
      const span = jsonStringAt(strings, [section, key]);
      if (!span || text.slice(span.start, span.end) !== value)
        return { cannot: `${section}: the constraint of '${key}' is written with escapes` };
      declarations.push({ file: 'composer.json', where: section, parts: [{ start: span.start, end: span.end }], rewrite });
    }
  }
  return { declarations, unchanged: [] };
}
