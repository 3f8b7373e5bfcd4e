import { createRequire } from 'node:module';
import { ManifestParseError } from '../errors.ts';

/**
 * @yarnpkg/lockfile is a CommonJS bundle flagged `__esModule`, whose default export differs between Node and
 * bundler-style loaders (vitest); `require` gives the same object everywhere.
 */
const lockfile = createRequire(import.meta.url)('@yarnpkg/lockfile') as typeof import('@yarnpkg/lockfile');

/** Entry key (`name@range`) → locked version. */
type YarnEntries = ReadonlyMap<string, string>;

/** Yarn 1 lockfiles, via @yarnpkg/lockfile (each `a@^1, a@^1.2:` header becomes one key per pattern). */
function parseClassic(file: string, text: string): YarnEntries {
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
  const entries = new Map<string, string>();
  for (const [key, entry] of Object.entries(parsed.object)) {
    if (typeof entry?.version === 'string') entries.set(key, entry.version);
  }
  return entries;
}

const unquote = (s: string) => s.trim().replace(/^"(.*)"$/, '$1');

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
      current = line.slice(0, -1).split(',').map(unquote);
      continue;
    }
    const version = /^ {2}version: (.+)$/.exec(line);
    if (version?.[1]) for (const key of current) entries.set(key, unquote(version[1]));
  }
  return entries;
}

/**
 * The version yarn.lock resolved `key@spec` to: exact entry `key@spec` (Yarn 1) or `key@npm:spec` (Yarn 2+);
 * failing that, the only version locked for `key` when all its entries agree.
 * @returns the version, or undefined when yarn.lock has no (unambiguous) entry
 * @throws ManifestParseError when yarn.lock does not parse or holds an unresolved merge conflict
 */
export function versionInYarnLock(file: string, text: string, key: string, spec: string): string | undefined {
  const entries = text.includes('__metadata:') ? parseBerry(file, text) : parseClassic(file, text);
  const exact = entries.get(`${key}@${spec}`) ?? entries.get(`${key}@npm:${spec}`);
  if (exact !== undefined) return exact;
  const versions = new Set<string>();
  for (const [entryKey, version] of entries) {
    if (entryKey.startsWith(`${key}@`)) versions.add(version);
  }
  return versions.size === 1 ? [...versions][0] : undefined;
}
