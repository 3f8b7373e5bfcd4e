import { parseJsonObject, tableAt } from '../shared/parse.ts';
import type { Declaration, Located } from '../update/declarations.ts';
import { jsonStringAt, jsonStrings } from '../update/json-spans.ts';
import { clauseRewriter, type RequirementRewriter, type RequirementSyntax } from '../update/rewrite.ts';
import { normaliseComposerName, readComposerLock } from './composer-json.ts';
import { constraintInRoot, readComposerStability } from './stability.ts';
import { composerVersions } from './versions.ts';

/**
 * Composer constraints as written (https://getcomposer.org/doc/articles/versions.md): clauses separated by
 * `,` or spaces, `||`/`|` alternatives, hyphen ranges, stability flags (`@beta`, kept as written), a `v` prefix
 * kept outside the version. A bare full version, `=` and `==` pin; `^`, `~` and wildcards (`1.2.*`) are
 * compatible; `!=`/`<>` exclude. Branch constraints (`dev-main`, `6.4.x-dev`) and `-dev` versions are not clauses
 * (so `cannot`): they follow a branch, which no release replaces.
 */
export const composerSyntax: RequirementSyntax = {
  scheme: composerVersions,
  operators: String.raw`(?:>=|<=|!=|<>|==|=|>|<|\^|~)?\s*[vV]?`,
  // a `-dev` suffix (`1.0.0-dev`, the branch `6.4.x-dev`) is left outside, so such a constraint is not rewritten
  version: String.raw`(?:\d+|[*xX])(?:\.(?:\d+|[*xX])){0,3}(?:[-.]?(?!dev(?![A-Za-z]))[A-Za-z]+(?:[.-]?\d+)?)?`,
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
 * The rewriter of a constraint that the root's `minimum-stability` widens ({@link constraintInRoot}): unchanged when the
 * constraint as Composer applies it (`inRoot`, e.g. `^1.0@dev`) already allows the target, else the written clauses move.
 */
function inRootRewrite(inRoot: string): RequirementRewriter {
  return (parts, target, strategy) => {
    let allowed = false;
    try {
      allowed = composerVersions.satisfies(target, inRoot);
    } catch {
      allowed = false;
    }
    return allowed ? { unchanged: `'${inRoot}' (minimum-stability applied) already allows ${target}` } : rewrite(parts, target, strategy);
  };
}

/**
 * The declarations of `name` (case-insensitive) in composer.json's `require` and `require-dev`. A value written
 * with JSON escapes cannot be rewritten. Under a `minimum-stability` below stable, a declaration stands for the constraint
 * as Composer applies it ({@link constraintInRoot}, e.g. `^1.0@dev`): a target it admits leaves the text unchanged.
 * @throws ManifestParseError when composer.json does not parse
 */
export function locateComposer(files: Readonly<Record<string, string>>, name: string): Located {
  const text = files['composer.json'];
  if (text === undefined) return { cannot: 'no composer.json' };
  const manifest = parseJsonObject('composer.json', text);
  const strings = jsonStrings(text);
  const wanted = normaliseComposerName(name);
  const settings = readComposerStability('composer.json', text);
  const lock = files['composer.lock'];
  const locked =
    settings.minimumStability === 'stable' || lock === undefined ? undefined : readComposerLock('composer.lock', lock).get(wanted);
  const declarations: Declaration[] = [];
  for (const section of ['require', 'require-dev']) {
    for (const [key, value] of Object.entries(tableAt('composer.json', manifest, section) ?? {})) {
      if (typeof value !== 'string' || normaliseComposerName(key) !== wanted) continue;
      const span = jsonStringAt(strings, [section, key]);
      if (!span || text.slice(span.start, span.end) !== value)
        return { cannot: `${section}: the constraint of '${key}' is written with escapes` };
      const inRoot = constraintInRoot(value, settings, locked);
      declarations.push({
        file: 'composer.json',
        where: section,
        parts: [{ start: span.start, end: span.end }],
        ...(inRoot === value.trim() ? { rewrite } : { rewrite: inRootRewrite(inRoot), requirement: inRoot }),
      });
    }
  }
  return { declarations, unchanged: [] };
}
