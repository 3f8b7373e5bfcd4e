import { isTable, type Table, tableAt } from '../shared/parse.ts';
import { normaliseCrateName } from './cargo-toml.ts';

/**
 * The workspace root's `[patch]` and `[replace]` tables (https://doc.rust-lang.org/cargo/reference/overriding-dependencies.html):
 * what they take from elsewhere than the registry a dependency names. Cargo reads them in the workspace root only.
 */

/** The index URLs of crates.io, which a `[patch]` table may name instead of `crates-io`. */
const CRATES_IO = new Set([
  'crates-io',
  'https://github.com/rust-lang/crates.io-index',
  'https://github.com/rust-lang/crates.io-index/',
  'sparse+https://index.crates.io/',
  'sparse+https://index.crates.io',
]);

/** A crate the root takes from a patch or a replacement rather than from its registry. */
export interface CratePatch {
  /** The manifest holding the table (the workspace root's files-map key: `Cargo.toml`, `../Cargo.toml`). */
  file: string;
  /** The table, as written in messages: `patch.crates-io`, `patch.my-registry`, `replace`. */
  table: string;
  /** The entry's key (`x11-clipboard`, `"foo:1.2.3"` in `[replace]`). */
  key: string;
  /** The key path of the entry in the document (for its line). */
  path: readonly string[];
  /** The crate's registry name, normalised (`package` of the entry, else the key; a `[replace]` spec's name). */
  name: string;
  /** The registry whose crate it takes the place of: null for crates.io, a registry name, or `any` (`[replace]`, by name). */
  registry: string | null | 'any';
  /** What Cargo takes instead, e.g. `patched to the git repository https://…`. */
  reason: string;
}

/** What an entry's value takes the crate from, or undefined when it is the source patched itself (no patch, as Cargo refuses it). */
function replacement(value: unknown, patched: string | null): string | undefined {
  if (!isTable(value)) return patched === null ? undefined : `patched to the crates.io version '${String(value)}'`;
  if (typeof value.path === 'string') return `patched to the path '${value.path}'`;
  if (typeof value.git === 'string') return `patched to the git repository ${value.git}`;
  const registry = typeof value.registry === 'string' && value.registry !== 'crates-io' ? value.registry : null;
  if (registry === patched) return undefined;
  return registry === null ? 'patched to the crates.io version' : `patched to the registry '${registry}'`;
}

/**
 * The crates the root manifest `file` (parsed: `doc`) patches or replaces, as Cargo applies them to registry dependencies:
 * - `[patch.<source>] name = { path = … }` / `{ git = … }`: the crate of that source (crates.io for `crates-io` or its
 *   index URL, else the registry of that name) is the patch's; an entry naming another registry (`registry = "x"`) too;
 * - an entry with a registry version only patches the source with crates.io's version: for `[patch.crates-io]` that is
 *   the source itself, which Cargo refuses ("patches must point to different sources"), so it is no patch here; for a
 *   named registry's table it takes crates.io's crate instead;
 * - `[patch."<git URL>"]` tables patch git dependencies only, not a registry's crates: left out;
 * - `[replace] "name:1.2.3" = { path = … }` / `{ git = … }` (a package id spec, `name@1.2.3` or `<index>#name:1.2.3` too)
 *   replaces the crate whatever its registry (by name; the version the spec names is not compared); a replacement with a
 *   version only is one Cargo refuses, left out.
 * @throws ManifestParseError when `[patch]`, one of its tables or `[replace]` is not a table
 */
export function cratePatches(file: string, doc: Table): CratePatch[] {
  const out: CratePatch[] = [];
  const patch = tableAt(file, doc, 'patch') ?? {};
  for (const source of Object.keys(patch)) {
    const table = tableAt(file, patch, source) ?? {};
    const patched = CRATES_IO.has(source) ? null : /^[a-z+]+:/i.test(source) ? undefined : source;
    if (patched === undefined) continue;
    for (const [key, value] of Object.entries(table)) {
      const reason = replacement(value, patched);
      if (reason === undefined) continue;
      const name = isTable(value) && typeof value.package === 'string' ? value.package : key;
      const where = /^[A-Za-z0-9_-]+$/.test(source) ? `patch.${source}` : `patch."${source}"`;
      out.push({ file, table: where, key, path: ['patch', source, key], name: normaliseCrateName(name), registry: patched, reason });
    }
  }
  for (const [key, value] of Object.entries(tableAt(file, doc, 'replace') ?? {})) {
    if (!isTable(value)) continue;
    const by =
      typeof value.path === 'string'
        ? `replaced by the path '${value.path}'`
        : typeof value.git === 'string'
          ? `replaced by the git repository ${value.git}`
          : undefined;
    const name = /^(?:.*#)?([^:@#]+)/.exec(key)?.[1];
    if (by === undefined || name === undefined) continue;
    out.push({ file, table: 'replace', key, path: ['replace', key], name: normaliseCrateName(name), registry: 'any', reason: by });
  }
  return out;
}

/**
 * The patch that takes the place of crate `name` from `registry` (null: crates.io) among `patches`, if any.
 */
export function patchOf(patches: readonly CratePatch[], name: string, registry: string | null): CratePatch | undefined {
  const wanted = normaliseCrateName(name);
  return patches.find((p) => p.name === wanted && (p.registry === 'any' || p.registry === registry));
}
