import semver from 'semver';
import { parseJsonObject, tableAt } from '../shared/parse.ts';
import type { Declaration, Located } from '../update/declarations.ts';
import { jsonStringAt, jsonStrings } from '../update/json-spans.ts';
import { clauseRewriter, type RequirementSyntax } from '../update/rewrite.ts';
import { alias, isRegistrySpec, SECTIONS } from './package-json.ts';
import { npmVersions } from './versions.ts';

const FULL = /^\d+\.\d+\.\d+(?:[-+].*)?$/;

/**
 * node-semver ranges as npm writes them (https://docs.npmjs.com/cli/v10/using-npm/semver): clauses separated by
 * spaces, `||` alternatives, hyphen ranges; a `v` after the operator stays as written. A bare full version or
 * `=1.2.3` is a pin; a bare partial version (`1.2`, `1.x`) is compatible like `^`/`~`. `widen` appends an alternative
 * (`^1.2.3` → `^1.2.3 || ^2.0.1`), the form dependabot-core's npm updater appends (`" || ^#{version}"`).
 */
export const npmSyntax: RequirementSyntax = {
  scheme: npmVersions,
  operators: String.raw`(?:<=|>=|<|>|=|\^|~)?\s*[vV]?`,
  version: String.raw`(?:\d+|[xX*])(?:\.(?:\d+|[xX*])){0,2}(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?`,
  between: String.raw`\s*`,
  or: String.raw`\|\|`,
  hyphen: true,
  kind(operator, version) {
    const op = operator.replace(/[\svV]/g, '');
    if (op === '' || op === '=') return FULL.test(version) ? 'exact' : 'compatible';
    if (op === '^' || op === '~') return 'compatible';
    if (op === '<') return 'upper';
    if (op === '<=') return 'upperInclusive';
    return 'lower';
  },
  clauseText: (operator, version) => `${operator.replace(/\s/g, '')}${version}`,
  join: '',
  orSeparator: ' || ',
};

const rewrite = clauseRewriter(npmSyntax);

/**
 * The declarations of the registry package `name` in package.json's `dependencies`, `optionalDependencies`,
 * `devDependencies` and `peerDependencies` (an `npm:name@range` alias by its real name: only the range is
 * edited). A dist-tag (`latest`) is left unchanged; a git, path, URL, `file:`, `link:` or `workspace:` spec, a
 * pnpm `catalog:` reference or a value with JSON escapes cannot be rewritten.
 * @throws ManifestParseError when package.json does not parse
 */
export function locateNpm(files: Readonly<Record<string, string>>, name: string): Located {
  const text = files['package.json'];
  if (text === undefined) return { cannot: 'no package.json' };
  const manifest = parseJsonObject('package.json', text);
  const strings = jsonStrings(text);
  const declarations: Declaration[] = [];
  const unchanged: string[] = [];
  for (const { key: section } of SECTIONS) {
    for (const [key, value] of Object.entries(tableAt('package.json', manifest, section) ?? {})) {
      if (typeof value !== 'string') continue;
      const aliased = alias(value);
      if ((aliased?.name ?? key) !== name) continue;
      if (/^\s*catalog:/.test(value))
        return { cannot: `${section}: '${value}' takes its range from the pnpm workspace catalog, which is not read` };
      if (!aliased && !isRegistrySpec(value))
        return { cannot: `${section}: '${value}' is not a registry range (git, path, URL or workspace source)` };
      const span = jsonStringAt(strings, [section, key]);
      if (!span || text.slice(span.start, span.end) !== value)
        return { cannot: `${section}: the value of '${key}' is written with escapes` };
      const nameEnd = aliased ? value.indexOf(aliased.name) + aliased.name.length : 0;
      const at = aliased ? (value.charAt(nameEnd) === '@' ? nameEnd + 1 : value.length) : 0;
      const range = value.slice(at);
      if (range.trim() === '' || semver.validRange(range) === null) {
        unchanged.push(`${section}: '${value}' is a dist-tag or any version`);
        continue;
      }
      declarations.push({ file: 'package.json', where: section, parts: [{ start: span.start + at, end: span.end }], rewrite });
    }
  }
  return { declarations, unchanged };
}
