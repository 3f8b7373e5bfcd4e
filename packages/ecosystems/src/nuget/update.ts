import type { Declaration, Located } from '../update/declarations.ts';
import { allows, type RequirementRewriter, widenedUpperBound } from '../update/rewrite.ts';
import { readNuGet } from './manifests.ts';
import { nugetVersions, parseNuGetRequirement, parseNuGetVersion } from './versions.ts';

/**
 * Does a NuGet requirement let `target` be used? NuGet resolves the lowest version a requirement allows
 * (https://learn.microsoft.com/nuget/concepts/dependency-resolution#lowest-applicable-version), so a bare version
 * (`1.2.3`, a minimum) only when it is the target; an interval or a floating version when it holds the target.
 */
export function nugetAllows(target: string, requirement: string): boolean {
  try {
    const parsed = parseNuGetRequirement(requirement);
    if (parsed.kind === 'minimum') return nugetVersions.compare(parsed.version, target) === 0;
  } catch {
    return false;
  }
  return allows(nugetVersions, target, requirement);
}

/**
 * Rewrites a NuGet requirement for `target`, after Dependabot's NuGet requirements updater
 * (https://github.com/dependabot/dependabot-core/blob/main/nuget/lib/dependabot/nuget/update_checker/requirements_updater.rb):
 * a bare version becomes the target; `[x]` becomes `[target]`; a floating version that does not match takes the target's
 * numbers at its precision (`1.*` → `2.*`, `1.2.*-*` → `1.3.*-*`); an interval that holds the target stays, otherwise its
 * exclusive upper bound is widened (`[1.0,2.0)` → `[1.0,3.0)`) or its inclusive one becomes the target. Cannot: a lower
 * bound above the target, a floating pre-release label the target does not match.
 */
export const nugetRewrite: RequirementRewriter = (parts, target) => {
  const raw = parts[0] ?? '';
  let parsed: ReturnType<typeof parseNuGetRequirement>;
  try {
    parsed = parseNuGetRequirement(raw);
  } catch (error) {
    return { cannot: (error as Error).message };
  }
  if (parsed.kind === 'minimum') {
    if (nugetVersions.compare(parsed.version, target) === 0) return { unchanged: `version ${parsed.version} is already ${target}` };
    return { parts: [raw.replace(parsed.version, target)] };
  }
  if (nugetVersions.satisfies(target, raw)) return { unchanged: `'${raw.trim()}' already allows ${target}` };
  if (parsed.kind === 'floating') {
    const numbers = parseNuGetVersion(target)?.numbers.slice(0, parsed.numbers.length) ?? [];
    const written = /^\s*((?:\d+\.)*\d*)/.exec(raw)?.[1] ?? '';
    const fixed = written.endsWith('.') || written === '' ? `${numbers.join('.')}${numbers.length ? '.' : ''}` : numbers.join('.');
    const rewritten = raw.replace(written, fixed);
    return nugetVersions.satisfies(target, rewritten)
      ? { parts: [rewritten] }
      : { cannot: `floating version '${raw.trim()}' cannot be moved to allow ${target}` };
  }
  const { lower, upper } = parsed;
  if (lower && upper && lower.version === upper.version && lower.inclusive && upper.inclusive) {
    return { parts: [raw.replace(lower.version, target)] };
  }
  if (lower && nugetVersions.compare(target, lower.version) <= 0) {
    return { cannot: `the lower bound of '${raw.trim()}' excludes ${target}, and lower bounds are not moved` };
  }
  if (!upper) return { cannot: `cannot edit '${raw.trim()}'` };
  const bound = upper.inclusive ? target : widenedUpperBound(upper.version, target);
  const match = /^(\s*[[(][^,]*,\s*)([^\s\])]+)(\s*[\])]\s*)$/.exec(raw);
  if (bound === null || !match) return { cannot: `the upper bound of '${raw.trim()}' cannot be widened to admit ${target}` };
  return { parts: [`${match[1]}${bound}${match[3]}`] };
};

/**
 * The declarations of package `name` (case-insensitive) in the NuGet files (see {@link readNuGet}): each version where
 * it is written: a `Version`/`VersionOverride` attribute or `<Version>` element, the MSBuild property a `$(Name)` refers
 * to, a `packages.config` `version`, a `global.json` `msbuild-sdks` value. A declaration without a version (central
 * package management, an `Update` item) is unchanged. Cannot: an undefined property, a version mixing text and
 * properties, markup or entities. When a property is shared with other packages the note names them.
 * @throws ManifestParseError when a file does not parse
 */
export function locateNuGet(files: Readonly<Record<string, string>>, name: string): Located {
  const all = readNuGet(files);
  const wanted = name.trim().toLowerCase();
  const declarations: Declaration[] = [];
  const unchanged: string[] = [];
  const shared = new Map<string, { file: string; start: number }>();
  for (const declaration of all) {
    if (declaration.name.toLowerCase() !== wanted) continue;
    const site = declaration.version;
    if (site === null) {
      unchanged.push(`${declaration.file} (${declaration.where}): no version, it is given centrally or by another item`);
      continue;
    }
    if ('unresolved' in site) return { cannot: `${declaration.file} (${declaration.where}): ${site.unresolved}` };
    if (site.via !== undefined) shared.set(site.via, { file: site.file, start: site.start });
    declarations.push({
      file: site.file,
      where: site.via === undefined ? declaration.where : `${declaration.where}, ${site.via}`,
      parts: [{ start: site.start, end: site.end }],
      rewrite: nugetRewrite,
      requirement: site.text,
    });
  }
  const notes = [...shared].flatMap(([via, at]) => {
    const others = all
      .filter((d) => d.name.toLowerCase() !== wanted)
      .filter((d) => d.version !== null && 'file' in d.version && d.version.file === at.file && d.version.start === at.start)
      .map((d) => d.name);
    return others.length ? [`${via} is also the version of ${[...new Set(others)].join(', ')}, which move with it`] : [];
  });
  return { declarations, unchanged, ...(notes.length ? { note: notes.join('; ') } : {}) };
}
