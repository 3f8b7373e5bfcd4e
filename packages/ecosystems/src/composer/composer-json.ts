import type { DependencyType } from '../ecosystem.ts';
import { ManifestParseError } from '../errors.ts';
import { isTable, parseJsonObject, tableAt } from '../shared/parse.ts';

/** Platform packages Composer provides itself (https://getcomposer.org/doc/01-basic-usage.md#platform-packages); never "used" here. */
const PLATFORM = /^(php(-64bit|-ipv6|-zts|-debug)?|hhvm|ext-.+|lib-.+|composer(-plugin-api|-runtime-api)?)$/i;

/** Composer package names are case-insensitive (`vendor/package`, stored lowercase). */
export const normaliseComposerName = (name: string) => name.trim().toLowerCase();

/** A package required by composer.json. */
export interface ComposerRequire {
  name: string;
  type: DependencyType;
  requirement: string;
}

/**
 * Finds `name` in composer.json's `require` (runtime) and `require-dev` (development)
 * (https://getcomposer.org/doc/04-schema.md#require); platform packages (`php`, `ext-*`, `lib-*`, ...) are
 * skipped. A package in both is runtime with the `require` constraint.
 * @throws ManifestParseError when composer.json is not a JSON object or a section is not an object
 */
export function findInComposerJson(file: string, text: string, name: string): ComposerRequire | undefined {
  const manifest = parseJsonObject(file, text);
  const wanted = normaliseComposerName(name);
  for (const [section, type] of [
    ['require', 'runtime'],
    ['require-dev', 'development'],
  ] as const) {
    for (const [key, value] of Object.entries(tableAt(file, manifest, section) ?? {})) {
      if (PLATFORM.test(key) || normaliseComposerName(key) !== wanted || typeof value !== 'string') continue;
      return { name: key, type, requirement: value.trim() };
    }
  }
  return undefined;
}

/**
 * The version composer.lock locks `name` at, as written (`v5.4.0` keeps its `v`), from `packages` or
 * `packages-dev` (https://getcomposer.org/doc/01-basic-usage.md#commit-your-composer-lock-file-to-version-control).
 * @returns the version, or undefined when the package is not locked
 * @throws ManifestParseError when composer.lock is not a JSON object or `packages`/`packages-dev` is not an array
 */
export function versionInComposerLock(file: string, text: string, name: string): string | undefined {
  const lock = parseJsonObject(file, text);
  const wanted = normaliseComposerName(name);
  for (const section of ['packages', 'packages-dev']) {
    const list = lock[section] ?? [];
    if (!Array.isArray(list)) throw new ManifestParseError(file, `'${section}' is not an array`);
    for (const entry of list) {
      if (
        isTable(entry) &&
        typeof entry.name === 'string' &&
        normaliseComposerName(entry.name) === wanted &&
        typeof entry.version === 'string'
      ) {
        return entry.version;
      }
    }
  }
  return undefined;
}
