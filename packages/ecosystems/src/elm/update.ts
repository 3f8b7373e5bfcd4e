import type { RegistryVersionDetails } from '../registry-data.ts';
import type { Declaration, Located } from '../update/declarations.ts';
import { jsonStringAt, jsonStrings } from '../update/json-spans.ts';
import type { RequirementRewriter } from '../update/rewrite.ts';
import { readElmJson } from './elm-json.ts';
import { elmVersions, parseElmConstraint, parseElmVersion } from './versions.ts';

/**
 * Rewrites an Elm constraint for a target: an application's exact version becomes the target; a package range that does
 * not allow it gets the upper bound `<next major>.0.0` (`1.0.0 <= v < 2.0.0` → `1.0.0 <= v < 3.0.0` for 2.x), as
 * `elm install` writes ranges; a target below the lower bound is `cannot`.
 */
export const elmRewrite: RequirementRewriter = (parts, target) => {
  const requirement = parts[0] ?? '';
  let constraint: ReturnType<typeof parseElmConstraint>;
  try {
    constraint = parseElmConstraint(requirement);
  } catch {
    return { cannot: `'${requirement}' is not an Elm constraint` };
  }
  if (elmVersions.satisfies(target, requirement)) return { unchanged: `'${requirement}' already allows ${target}` };
  if (constraint.kind === 'exact') return { parts: [target] };
  const version = parseElmVersion(target) as [number, number, number];
  if (elmVersions.compare(target, constraint.lower.join('.')) < 0)
    return { cannot: `${target} is below the lower bound of '${requirement}'` };
  const upper = `${version[0] + 1}.0.0`;
  const match = /^(.*?)(\d+\.\d+\.\d+)(\s*)$/.exec(requirement);
  const rewritten = `${match?.[1] ?? ''}${upper}${match?.[3] ?? ''}`.replace(/<=(\s*)(\d+\.\d+\.\d+\s*)$/, '<$1$2');
  return { parts: [rewritten] };
};

/**
 * Where the target's own dependencies (its elm.json, as the registry describes it) are not met by an application's
 * pinned versions (direct and indirect, of `dependencies`, and of `test-dependencies` for a test dependency): the
 * reasons, empty when all are met. `elm install` would move or add those indirect dependencies; that is resolution.
 */
export function unmetByApplication(text: string, name: string, target: RegistryVersionDetails): string[] {
  const { declarations } = readElmJson('elm.json', text);
  const own = declarations.find((d) => d.name === name && d.scope === 'direct');
  const pinned = new Map<string, string>();
  for (const d of declarations) if (d.type === 'runtime' || own?.type === 'development') pinned.set(d.name, d.requirement);
  const reasons: string[] = [];
  for (const dependency of target.dependencies ?? []) {
    if (dependency.kind !== 'runtime') continue;
    const version = pinned.get(dependency.name);
    let met = false;
    try {
      met = version !== undefined && elmVersions.satisfies(version, dependency.requirement);
    } catch {
      met = false;
    }
    if (!met) {
      reasons.push(
        `${name} ${target.version} needs ${dependency.name} ${dependency.requirement} (${version === undefined ? 'not in elm.json' : `pinned at ${version}`})`,
      );
    }
  }
  return reasons;
}

/**
 * The declarations of `name` in elm.json: its direct entries (`dependencies.direct` / `test-dependencies.direct` of an
 * application, `dependencies` / `test-dependencies` of a package). An indirect entry is never edited alone.
 * @throws ManifestParseError when elm.json does not parse
 */
export function locateElm(files: Readonly<Record<string, string>>, name: string): Located {
  const text = files['elm.json'];
  if (text === undefined) return { cannot: 'no elm.json' };
  const strings = jsonStrings(text);
  const declarations: Declaration[] = [];
  for (const declaration of readElmJson('elm.json', text).declarations) {
    if (declaration.name !== name || declaration.scope === 'indirect') continue;
    const span = jsonStringAt(strings, declaration.path);
    const where = declaration.path.slice(0, -1).join('.');
    if (!span) return { cannot: `elm.json (${where}): the constraint holds escapes` };
    declarations.push({ file: 'elm.json', where, parts: [{ start: span.start, end: span.end }], rewrite: elmRewrite });
  }
  return { declarations, unchanged: [] };
}
