import { createRequire } from 'node:module';
import { ManifestParseError } from '../errors.ts';

/**
 * @yarnpkg/lockfile is a CommonJS bundle flagged `__esModule`, whose default export differs between Node and
 * bundler-style loaders (vitest); `require` gives the same object everywhere.
 */
export const lockfile = createRequire(import.meta.url)('@yarnpkg/lockfile') as typeof import('@yarnpkg/lockfile');

/** Entry key (`name@range`) → locked version. */
type YarnEntries = ReadonlyMap<string, string>;

/** A Yarn 1 entry as @yarnpkg/lockfile reads it (https://classic.yarnpkg.com/lang/en/docs/yarn-lock/). */
export interface YarnClassicEntry {
  version?: string;
  resolved?: string;
  integrity?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  [field: string]: unknown;
}

/**
 * Parses a Yarn 1 lockfile with @yarnpkg/lockfile: one key per pattern of each header (`a@^1, a@^1.2:` gives `a@^1`
 * and `a@^1.2`, both to the same entry object).
 * @throws ManifestParseError when it does not parse (an unterminated string, a syntax error) or holds an unresolved
 *   merge conflict
 */
export function parseYarnClassic(file: string, text: string): Record<string, YarnClassicEntry> {
  // the parser's tokenizer runs away (seconds, then a RangeError) on an unterminated string: refuse those first
  for (const [index, line] of text.split(/\r?\n/).entries()) {
    if ((line.match(/(?<!\\)"/g) ?? []).length % 2 !== 0) throw new ManifestParseError(file, `line ${index + 1}: unterminated string`);
  }
  let parsed: ReturnType<typeof lockfile.parse>;
  try {
    parsed = lockfile.parse(text);
  } catch (error) {
    throw new ManifestParseError(file, `invalid yarn.lock: ${(error as Error).message}`);
  }
  if (parsed.type === 'conflict') throw new ManifestParseError(file, 'unresolved merge conflict');
  return parsed.object as Record<string, YarnClassicEntry>;
}

/** Yarn 1 lockfiles, via @yarnpkg/lockfile (each `a@^1, a@^1.2:` header becomes one key per pattern). */
function parseClassic(file: string, text: string): YarnEntries {
  const entries = new Map<string, string>();
  for (const [key, entry] of Object.entries(parseYarnClassic(file, text))) {
    if (typeof entry?.version === 'string') entries.set(key, entry.version);
  }
  return entries;
}

const unquote = (s: string) => s.trim().replace(/^"(.*)"$/, '$1');

/**
 * The patterns of a Yarn 2+ entry header without its final `:`. The whole list may be one quoted string
 * (`"lodash@npm:^4.17.0, lodash@npm:^4.17.21"`, as Yarn writes it) or each pattern may be quoted on its own; every
 * pattern is returned unquoted and trimmed (`['lodash@npm:^4.17.0', 'lodash@npm:^4.17.21']`).
 */
export function berryHeaderPatterns(header: string): string[] {
  // a pattern never holds a `"` or a `,`: the quotes left at either end of each piece are the list's or its own
  return header
    .split(',')
    .map((piece) => piece.trim().replace(/^"|"$/g, '').trim())
    .filter((pattern) => pattern !== '');
}

/**
 * The version Yarn 2+ writes for a package that is not fetched from a registry (a workspace, `link:` or `portal:`
 * target): https://github.com/yarnpkg/berry, `packages/yarnpkg-core/sources/Project.ts` (`0.0.0-use.local`).
 */
const LOCAL_VERSION = '0.0.0-use.local';

/**
 * Yarn 2+ ("berry") lockfiles are YAML with a `__metadata:` entry; only what is needed here is read: top-level
 * headers (`"lodash@npm:^4.17.21, lodash@npm:^4.0.0":`) and their `version:` line.
 */
function parseBerry(file: string, text: string): YarnEntries {
  const entries = new Map<string, string>();
  let current: string[] = [];
  for (const [index, line] of text.split(/\r?\n/).entries()) {
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    if (!/^\s/.test(line)) {
      if (!line.endsWith(':')) throw new ManifestParseError(file, `line ${index + 1}: expected an entry header ending with ':'`);
      current = berryHeaderPatterns(line.slice(0, -1));
      continue;
    }
    const version = /^ {2}version: (.+)$/.exec(line);
    if (version?.[1]) for (const key of current) entries.set(key, unquote(version[1]));
  }
  return entries;
}

/**
 * The version yarn.lock resolved a package key and spec to: null for a package Yarn does not fetch from a registry
 * (locked as `0.0.0-use.local`: workspaces, `link:`, `portal:`), undefined when it has no (unambiguous) entry.
 */
export type YarnLockLookup = (key: string, spec: string) => string | null | undefined;

/**
 * Parses yarn.lock once and returns the lookup of the version it resolved `key@spec` to: exact entry `key@spec`
 * (Yarn 1) or `key@npm:spec` (Yarn 2+); failing that, the only version locked for `key` when all its entries agree;
 * null instead of Yarn's `0.0.0-use.local` placeholder.
 * @throws ManifestParseError when yarn.lock does not parse or holds an unresolved merge conflict
 */
export function readYarnLock(file: string, text: string): YarnLockLookup {
  const entries = text.includes('__metadata:') ? parseBerry(file, text) : parseClassic(file, text);
  return (key, spec) => {
    const exact = entries.get(`${key}@${spec}`) ?? entries.get(`${key}@npm:${spec}`);
    if (exact !== undefined) return exact === LOCAL_VERSION ? null : exact;
    const versions = new Set<string>();
    for (const [entryKey, version] of entries) {
      if (entryKey.startsWith(`${key}@`)) versions.add(version);
    }
    const only = versions.size === 1 ? [...versions][0] : undefined;
    return only === LOCAL_VERSION ? null : only;
  };
}
