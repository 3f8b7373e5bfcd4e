import { isTable, parseJsonObject } from '../shared/parse.ts';
import { isComposerPrerelease, parseComposerConstraint } from './constraint.ts';

/**
 * The root package's stability settings (https://getcomposer.org/doc/04-schema.md#minimum-stability,
 * https://getcomposer.org/doc/04-schema.md#prefer-stable) and how they reach a dependency's requirement.
 */

/** Composer's stabilities as composer.json writes them (`VersionParser::normalizeStability`: lowercase, `RC`). */
export type ComposerStability = 'dev' | 'alpha' | 'beta' | 'RC' | 'stable';

const ORDER: readonly ComposerStability[] = ['dev', 'alpha', 'beta', 'RC', 'stable'];
const rank = (stability: string): number => ORDER.findIndex((s) => s.toLowerCase() === stability.toLowerCase());

/** composer.json's `minimum-stability` (default `stable`) and `prefer-stable` (default false). */
export interface ComposerStabilitySettings {
  minimumStability: ComposerStability;
  preferStable: boolean;
}

/**
 * Reads `minimum-stability` and `prefer-stable` from composer.json's text. A `minimum-stability` that is not one of
 * Composer's stabilities (which `composer validate` refuses) counts as the default `stable`; `prefer-stable` counts
 * only as the JSON `true`.
 * @throws ManifestParseError when composer.json is not a JSON object
 */
export function readComposerStability(file: string, text: string): ComposerStabilitySettings {
  const manifest = parseJsonObject(file, text);
  const written = manifest['minimum-stability'];
  const at = typeof written === 'string' ? rank(written.trim()) : -1;
  return { minimumStability: ORDER[at] ?? 'stable', preferStable: manifest['prefer-stable'] === true };
}

/** Does the constraint carry an explicit stability flag (`^1.0@beta`, `dev-main@dev`)? */
const flagged = (constraint: string) => /@(?:stable|rc|beta|alpha|dev)(?=$|[\s,|])/i.test(constraint);

/** Is the version (or constraint) a named branch (`dev-main`, `dev-feature/x`), not a numeric one (`6.4.x-dev`)? */
export const isNamedBranch = (version: string): boolean => /^dev-/i.test(version.trim());

/**
 * The constraint as Composer applies it to the package in the root's settings (composer/composer
 * `RootPackageLoader::extractStabilityFlags` and the pool's `isPackageAcceptable`,
 * https://github.com/composer/composer/blob/main/src/Composer/Package/Loader/RootPackageLoader.php): a constraint with
 * an explicit flag (`^1.0@beta`) keeps it, whatever `minimum-stability` says; otherwise the package admits the least
 * stable of `minimum-stability` and the stability a single version in the constraint names (`^2.0.0-RC1`), so when
 * `minimum-stability` is the less stable the constraint gets it as a flag (`^1.0` with `"minimum-stability": "dev"` →
 * `^1.0@dev`, which Composer reads alike). With `prefer-stable: true`, Composer takes the newest stable version that
 * satisfies, and a less stable one only when none does (`DefaultPolicy` orders stability before version); the flag is
 * then given only when `locked` (the version in use from composer.lock) is itself below stable, which shows that no
 * stable one satisfied: otherwise the constraint stays as written (stable versions only), so a new pre-release is not an
 * update while a stable version is in use. Branch constraints and constraints the scheme cannot read stay as written.
 */
export function constraintInRoot(constraint: string, settings: ComposerStabilitySettings, locked?: string | null): string {
  const text = constraint.trim();
  if (settings.minimumStability === 'stable' || flagged(text) || isNamedBranch(text)) return text;
  let implicit: string;
  try {
    implicit = parseComposerConstraint(text).minimumStability;
  } catch {
    return text;
  }
  if (rank(implicit) <= rank(settings.minimumStability)) return text;
  if (settings.preferStable && !(locked && isComposerPrerelease(locked))) return text;
  return `${text}@${settings.minimumStability}`;
}

/** The settings of a files map's composer.json (defaults without one). @throws ManifestParseError */
export function stabilityOf(files: Readonly<Record<string, string>>): ComposerStabilitySettings {
  const text = files['composer.json'];
  return text === undefined ? { minimumStability: 'stable', preferStable: false } : readComposerStability('composer.json', text);
}

/** The commit composer.lock records for an entry: `source.reference`, else `dist.reference`. */
export function lockedReference(entry: Record<string, unknown>): string | undefined {
  for (const key of ['source', 'dist']) {
    const value = entry[key];
    if (isTable(value) && typeof value.reference === 'string' && value.reference.trim() !== '') return value.reference.trim();
  }
  return undefined;
}
