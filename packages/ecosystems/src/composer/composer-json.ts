import type { DependencyType } from '../ecosystem.ts';
import { ManifestParseError } from '../errors.ts';
import { isTable, parseJsonObject, tableAt } from '../shared/parse.ts';
import { lockedReference } from './stability.ts';

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
 * Reads composer.json's `require` (runtime) and `require-dev` (development)
 * (https://getcomposer.org/doc/04-schema.md#require), in that order and file order within each, one entry per
 * package (names compared case-insensitively); platform packages (`php`, `ext-*`, `lib-*`, ...) and non-string
 * values are skipped. A package in both is runtime with the `require` constraint.
 * @throws ManifestParseError when composer.json is not a JSON object or a section is not an object
 */
export function readComposerJson(file: string, text: string): ComposerRequire[] {
  const manifest = parseJsonObject(file, text);
  const out = new Map<string, ComposerRequire>();
  for (const [section, type] of [
    ['require', 'runtime'],
    ['require-dev', 'development'],
  ] as const) {
    for (const [key, value] of Object.entries(tableAt(file, manifest, section) ?? {})) {
      const name = normaliseComposerName(key);
      if (PLATFORM.test(key) || out.has(name) || typeof value !== 'string') continue;
      out.set(name, { name: key, type, requirement: value.trim() });
    }
  }
  return [...out.values()];
}

/** A composer.lock entry as read: the version as written and, when recorded, the commit (`source.reference`, else `dist.reference`). */
export interface ComposerLocked {
  version: string;
  reference?: string;
}

/**
 * The entries composer.lock locks, by normalised package name, from `packages` then `packages-dev` (the first entry of
 * a name wins): the version as written (`v5.4.0` keeps its `v`, a named branch is `dev-main`) and the commit
 * (https://getcomposer.org/doc/01-basic-usage.md#commit-your-composer-lock-file-to-version-control).
 * @throws ManifestParseError when composer.lock is not a JSON object or `packages`/`packages-dev` is not an array
 */
export function readComposerLockEntries(file: string, text: string): Map<string, ComposerLocked> {
  const lock = parseJsonObject(file, text);
  const out = new Map<string, ComposerLocked>();
  for (const section of ['packages', 'packages-dev']) {
    const list = lock[section] ?? [];
    if (!Array.isArray(list)) throw new ManifestParseError(file, `'${section}' is not an array`);
    for (const entry of list) {
      if (!isTable(entry) || typeof entry.name !== 'string' || typeof entry.version !== 'string') continue;
      const name = normaliseComposerName(entry.name);
      const reference = lockedReference(entry);
      if (!out.has(name)) out.set(name, { version: entry.version, ...(reference === undefined ? {} : { reference }) });
    }
  }
  return out;
}

/**
 * The versions composer.lock locks, by normalised package name, as written ({@link readComposerLockEntries}).
 * @throws ManifestParseError when composer.lock is not a JSON object or `packages`/`packages-dev` is not an array
 */
export function readComposerLock(file: string, text: string): Map<string, string> {
  return new Map([...readComposerLockEntries(file, text)].map(([name, { version }]) => [name, version]));
}
