import type { Declaration, Located } from '../update/declarations.ts';
import { allows, type RequirementRewriter, type Rewrite, widenedUpperBound } from '../update/rewrite.ts';
import { readGradle } from './declarations.ts';
import { compareGradleVersions } from './version-order.ts';
import { type GradleRange, gradleVersions, inGradleRange, parseGradleRequirement } from './versions.ts';

/**
 * Does a Gradle declaration let `target` be used? A plain (required) version only when it names the target (Gradle
 * would resolve the declared one unless something else asks for more), anything else when it matches the target.
 */
export function gradleAllows(target: string, requirement: string): boolean {
  try {
    const parsed = parseGradleRequirement(requirement);
    if (parsed.kind === 'required') return compareGradleVersions(parsed.version, target) === 0;
  } catch {
    return false;
  }
  return allows(gradleVersions, target, requirement);
}

/** Replaces group 2 of `pattern`'s match in `raw` with `replacement`; null when it does not match. */
function replaceGroup(raw: string, pattern: RegExp, replacement: string): string | null {
  const match = pattern.exec(raw);
  return match ? `${match[1]}${replacement}${match[3]}` : null;
}

/**
 * Rewrites one Gradle range (`raw` as written, `range` as read) that does not hold `target`, as Dependabot's updater
 * moves Maven-style ranges: `[x]` becomes `[target]`; an inclusive upper bound becomes the target; an exclusive one is
 * widened past the target at its own precision (`[1.0,2.0)` → `[1.0,3.0)`, `]1.0,2.0[` → `]1.0,3.0[`), the brackets
 * as written. Cannot: a lower bound above the target (lower bounds are not moved), a bound that cannot be widened, or a
 * result Gradle would still not satisfy with the target (the exclusive bound's prefix rule).
 */
function rewriteRange(raw: string, range: GradleRange, target: string): Rewrite {
  const text = raw.trim();
  const { lower, upper } = range;
  if (lower && upper && lower.version === upper.version && lower.inclusive && upper.inclusive) {
    const exact = replaceGroup(raw, /^(\s*\[\s*)([^\],\s]+)(\s*\]\s*)$/, target);
    return exact === null ? { cannot: `cannot edit '${text}'` } : { parts: [exact] };
  }
  if (lower && !inGradleRange(target, { lower })) {
    return { cannot: `the lower bound of '${text}' excludes ${target}, and lower bounds are not moved` };
  }
  if (!upper) return { cannot: `cannot edit '${text}'` };
  const bound = upper.inclusive ? target : widenedUpperBound(upper.version, target);
  const widened = bound === null ? null : replaceGroup(raw, /^(\s*[[\](][^,]*,\s*)([^\s\][)]+)(\s*[\][)]\s*)$/, bound);
  if (widened === null || !gradleVersions.satisfies(target, widened)) {
    return { cannot: `the upper bound of '${text}' cannot be widened to admit ${target}` };
  }
  return { parts: [widened] };
}

/**
 * Rewrites a Gradle version declaration for `target`, as Dependabot's Gradle updater does
 * (https://github.com/dependabot/dependabot-core/blob/main/gradle/lib/dependabot/gradle/update_checker/requirements_updater.rb):
 * a plain version becomes the target; `x!!` becomes `target!!`; a prefix version that does not match takes the target's
 * leading numbers at the same precision (`1.+` → `2.+`, `1.2.+` → `1.3.+`); `+` and `latest.*` already allow everything
 * (`latest.release` and a pre-release target cannot be rewritten); ranges, in either bracket notation, move their upper
 * bound (`[1.0,2.0)` → `[1.0,3.0)`, `]1.0,2.0[` → `]1.0,3.0[`; see {@link rewriteRange}). Versions compare by Gradle's
 * order ({@link compareGradleVersions}).
 */
export const gradleRewrite: RequirementRewriter = (parts, target) => {
  const raw = parts[0] ?? '';
  let parsed: ReturnType<typeof parseGradleRequirement>;
  try {
    parsed = parseGradleRequirement(raw);
  } catch (error) {
    return { cannot: (error as Error).message };
  }
  switch (parsed.kind) {
    case 'required':
      if (compareGradleVersions(parsed.version, target) === 0) return { unchanged: `version ${parsed.version} is already ${target}` };
      return { parts: [raw.replace(parsed.version, target)] };
    case 'strict':
      if (compareGradleVersions(parsed.version, target) === 0) return { unchanged: `version ${parsed.version}!! is already ${target}` };
      return { parts: [raw.replace(parsed.version, target)] };
    case 'latest':
      if (gradleVersions.satisfies(target, raw)) return { unchanged: `'${raw.trim()}' already allows ${target}` };
      return { cannot: `'${raw.trim()}' only allows releases, and ${target} is a pre-release` };
    case 'prefix': {
      if (target.startsWith(parsed.prefix)) return { unchanged: `'${raw.trim()}' already allows ${target}` };
      const dotted = parsed.prefix.endsWith('.');
      const segments = (dotted ? parsed.prefix.slice(0, -1) : parsed.prefix).split('.');
      if (!segments.every((s) => /^\d+$/.test(s))) return { cannot: `prefix '${parsed.prefix}' is not numeric` };
      const kept = target.split('.').slice(0, segments.length);
      if (kept.length < segments.length || !kept.every((s) => /^\d+$/.test(s))) {
        return { cannot: `${target} has no numeric prefix of ${segments.length} parts` };
      }
      const prefix = `${kept.join('.')}${dotted ? '.' : ''}`;
      return { parts: [raw.replace(`${parsed.prefix}+`, `${prefix}+`)] };
    }
    case 'range':
      if (inGradleRange(target, parsed.range)) return { unchanged: `range '${raw.trim()}' already allows ${target}` };
      return rewriteRange(raw, parsed.range, target);
  }
};

/**
 * The declarations of `name` in the Gradle files (see {@link readGradle}): each version as written, inline in a build
 * script, in the property it refers to (a `def`/`val`/`ext` of a build script or a `gradle.properties` entry), or in the
 * catalog (the entry's own version, or the `[versions]` entry its `version.ref` names). A declaration without a version
 * is unchanged. Cannot: a version the files do not define (a property set elsewhere), one mixing text and references.
 * When a property or catalog version is shared with other dependencies, the note names them: they move with it.
 * @throws ManifestParseError when the catalog does not parse
 */
export function locateGradle(files: Readonly<Record<string, string>>, name: string): Located {
  const all = readGradle(files);
  const declarations: Declaration[] = [];
  const unchanged: string[] = [];
  const shared = new Map<string, { file: string; start: number }>();
  for (const declaration of all) {
    if (declaration.name !== name) continue;
    const site = declaration.version;
    if (site === null) {
      unchanged.push(`${declaration.file} (${declaration.where}): no version, it is managed elsewhere (a platform or BOM)`);
      continue;
    }
    if ('unresolved' in site) return { cannot: `${declaration.file} (${declaration.where}): ${site.unresolved}` };
    if (site.via !== undefined) shared.set(site.via, { file: site.file, start: site.start });
    declarations.push({
      file: site.file,
      where: site.via === undefined ? declaration.where : `${declaration.where}, ${site.via}`,
      parts: [{ start: site.start, end: site.end }],
      rewrite: gradleRewrite,
      requirement: site.text,
    });
  }
  const notes = [...shared].flatMap(([via, at]) => {
    const others = all
      .filter((d) => d.name !== name && d.version !== null && 'file' in d.version)
      .filter((d) => d.version !== null && 'file' in d.version && d.version.file === at.file && d.version.start === at.start)
      .map((d) => d.name);
    return others.length ? [`${via} is also the version of ${[...new Set(others)].join(', ')}, which move with it`] : [];
  });
  return { declarations, unchanged, ...(notes.length ? { note: notes.join('; ') } : {}) };
}
