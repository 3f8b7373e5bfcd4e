import type { DependencyUse, ManifestUpdate, RequirementStrategy, VersioningStrategy, VersionScheme } from '../ecosystem.ts';
import { InvalidVersionError } from '../errors.ts';
import { allows, type RequirementRewriter } from './rewrite.ts';

type Files = Readonly<Record<string, string>>;

/** A span of a file's text: `[start, end)` in UTF-16 code units. */
export interface Span {
  start: number;
  end: number;
}

/** One declaration of a dependency that carries a requirement: where it is written and how to rewrite it. */
export interface Declaration {
  file: string;
  /** Human-readable place, e.g. `devDependencies` or `line 4`, for messages. */
  where: string;
  /** The requirement's parts in the file's text: one span, or one per Gemfile string literal. */
  parts: Span[];
  rewrite: RequirementRewriter;
  /** The requirement the declaration stands for when it is not the parts themselves (a Maven `${property}`'s value). */
  requirement?: string;
}

/**
 * Where an ecosystem finds a dependency's requirements: the declarations to rewrite, and what was left alone
 * (`unchanged`: declarations without a requirement or not from a registry, by reason). `cannot` when the
 * dependency is written in a way that cannot be edited faithfully.
 */
export type Located = { declarations: Declaration[]; unchanged: string[]; note?: string } | { cannot: string };

/** The parts' text of a declaration in `files`. */
const partsOf = (files: Files, declaration: Declaration) =>
  declaration.parts.map((p) => (files[declaration.file] ?? '').slice(p.start, p.end));

/** What an ecosystem gives {@link updateDeclarations}. */
export interface UpdateTarget {
  /** Scheme name for errors, e.g. `npm`. */
  schemeName: string;
  scheme: VersionScheme;
  /** The ecosystem's `findDependency`, to check the result. */
  find(files: Files, name: string): DependencyUse | undefined;
  /** Locates the declarations of `name` in the files (throws ManifestParseError like `findDependency`). */
  locate(files: Files, name: string): Located;
  /** Does `requirement` (as a declaration stands for it) let `target` be used? Default: `scheme.satisfies`. */
  allows?(target: string, requirement: string): boolean;
  /** The target as the manifest writes it (e.g. without a `v`). Default: as given. */
  written?(target: string): string;
  /** Do the files publish a package ({@link Ecosystem.isLibrary})? What `auto` reads; absent: an application. */
  isLibrary?(files: Files): boolean;
}

/**
 * The strategy `strategy` stands for in `files` (`auto`: `widen` for a library, else `increase`; see
 * {@link VersioningStrategy}). @throws ManifestParseError from the ecosystem's library detection
 */
export function resolveStrategy(
  ecosystem: Pick<UpdateTarget, 'isLibrary'>,
  files: Files,
  strategy: VersioningStrategy,
): RequirementStrategy {
  if (strategy !== 'auto') return strategy;
  return ecosystem.isLibrary?.(files) ? 'widen' : 'increase';
}

/**
 * The common part of every ecosystem's `updateManifest`: locates the declarations of `use.name`, rewrites each
 * requirement by `strategy` (see {@link RequirementRewriter}; `increase-if-necessary` when not given, `auto` resolved by
 * {@link resolveStrategy}), splices the new requirements into the files at their spans, and checks the result: the
 * declarations located again in the new text, and `findDependency`'s requirement, must allow the target, else the
 * answer is `cannot` (a file is never given that would not install the target).
 * @throws InvalidVersionError when `targetVersion` is not valid in the scheme; ManifestParseError from the readers
 */
export function updateDeclarations(
  ecosystem: UpdateTarget,
  files: Files,
  use: DependencyUse,
  targetVersion: string,
  strategy: VersioningStrategy = 'increase-if-necessary',
): ManifestUpdate {
  const scheme = ecosystem.scheme;
  if (!scheme.isValid(targetVersion)) throw new InvalidVersionError(ecosystem.schemeName, targetVersion);
  const target = ecosystem.written?.(targetVersion.trim()) ?? targetVersion.trim();
  const allowed = (requirement: string) => ecosystem.allows?.(target, requirement) ?? allows(scheme, target, requirement);
  if (ecosystem.find(files, use.name) === undefined) return { cannot: `'${use.name}' is not declared in the files read` };
  const located = ecosystem.locate(files, use.name);
  if ('cannot' in located) return located;
  const moves = resolveStrategy(ecosystem, files, strategy);
  const reasons = [...located.unchanged];
  const edits = new Map<string, { start: number; end: number; text: string }[]>();
  for (const declaration of located.declarations) {
    const result = declaration.rewrite(partsOf(files, declaration), target, moves);
    if ('cannot' in result) return { cannot: `${declaration.file} (${declaration.where}): ${result.cannot}` };
    if ('unchanged' in result) {
      reasons.push(`${declaration.file} (${declaration.where}): ${result.unchanged}`);
      continue;
    }
    const list = edits.get(declaration.file) ?? [];
    for (const [i, span] of declaration.parts.entries()) {
      const text = result.parts[i] ?? '';
      if (list.some((e) => e.start === span.start && e.end === span.end)) continue; // a property shared by two declarations
      list.push({ ...span, text });
    }
    edits.set(declaration.file, list);
  }
  if (edits.size === 0) {
    return { unchanged: reasons.length ? `${reasons.join('; ')}; the lockfile moves, the manifest does not` : 'no requirement to change' };
  }
  const changed: Record<string, string> = {};
  for (const [file, list] of edits) {
    let text = files[file] ?? '';
    const sorted = [...list].sort((a, b) => b.start - a.start);
    for (const [i, edit] of sorted.entries()) {
      const next = sorted[i - 1];
      if (next && edit.end > next.start) return { cannot: `${file}: overlapping requirement spans` };
      text = text.slice(0, edit.start) + edit.text + text.slice(edit.end);
    }
    if (text !== files[file]) changed[file] = text;
  }
  return checked(ecosystem, files, changed, use.name, target, allowed, located.note);
}

/** The update when the new files still read and every declaration now allows the target, else `cannot`. */
function checked(
  ecosystem: UpdateTarget,
  files: Files,
  changed: Record<string, string>,
  name: string,
  target: string,
  allowed: (requirement: string) => boolean,
  note: string | undefined,
): ManifestUpdate {
  const merged = { ...files, ...changed };
  let use: DependencyUse | undefined;
  let again: Located;
  try {
    use = ecosystem.find(merged, name);
    again = ecosystem.locate(merged, name);
  } catch (error) {
    return { cannot: `the rewritten manifest no longer reads: ${(error as Error).message}` };
  }
  if (use === undefined || 'cannot' in again) return { cannot: `'${name}' is no longer found in the rewritten manifest` };
  if (use.requirement !== null && !allows(ecosystem.scheme, target, use.requirement)) {
    return { cannot: `the rewritten requirement '${use.requirement}' does not allow ${target}` };
  }
  for (const declaration of again.declarations) {
    const requirement = declaration.requirement ?? partsOf(merged, declaration).join(', ');
    if (!allowed(requirement))
      return { cannot: `${declaration.file} (${declaration.where}): '${requirement}' still does not allow ${target}` };
  }
  return { files: changed, requirement: use.requirement, ...(note ? { note } : {}) };
}
