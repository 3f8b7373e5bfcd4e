import type { LockfileRequest, LockfileUpdate } from '../ecosystem.ts';
import { ManifestParseError } from '../errors.ts';
import type { RegistryDependency } from '../registry-data.ts';
import { isTable, parseToml, type Table } from '../shared/parse.ts';
import { normaliseCrateName } from './cargo-toml.ts';
import { cargoVersions } from './versions.ts';
import { cargoLayout, ownPackageNames, ROOT_MANIFEST, readLockedManifests } from './workspace.ts';

/** One line of the lockfile: its text without the line break, and the break itself (`\n`, `\r\n` or none at the end). */
interface Line {
  text: string;
  eol: string;
}

/** A `[[package]]` table as Cargo writes it: its lines and the key lines the update edits. */
interface Block {
  /** Index of the `[[package]]` line; the block runs to the line before the next table header (blank lines included). */
  start: number;
  end: number;
  name: string;
  version: string;
  source: string | null;
  versionLine: number;
  sourceLine: number | null;
  checksumLine: number | null;
  /** The line of `dependencies = [` and of its closing `]`, null when the package has none. */
  dependencyArray: { open: number; close: number } | null;
  /** The array's items: their line and their text (`name`, `name version` or `name version (source)`). */
  dependencies: { line: number; text: string }[];
}

/** Splits text into lines keeping each line's own break. */
function linesOf(text: string): Line[] {
  return (text.match(/[^\n]*\n|[^\n]+$/g) ?? []).map((raw) => {
    const eol = raw.endsWith('\r\n') ? '\r\n' : raw.endsWith('\n') ? '\n' : '';
    return { text: raw.slice(0, raw.length - eol.length), eol };
  });
}

/** A key line with a TOML basic string as Cargo writes its lockfile strings (no escapes in names, versions, sources). */
const KEY_LINE = /^(name|version|source|checksum) = "([^"\\]*)"$/;

/**
 * The `[[package]]` blocks of the text in Cargo's own layout (one `key = "value"` per line, `dependencies` one item
 * per line), checked against the parsed TOML; undefined when the text is laid out otherwise.
 */
function blocksOf(lines: readonly Line[], packages: readonly Table[]): Block[] | undefined {
  const blocks: Block[] = [];
  let current: Block | undefined;
  let inArray = false;
  for (const [index, { text }] of lines.entries()) {
    if (/^\[/.test(text)) {
      if (current) current.end = index;
      current = undefined;
      inArray = false;
      if (text.trimEnd() === '[[package]]') {
        current = {
          start: index,
          end: lines.length,
          name: '',
          version: '',
          source: null,
          versionLine: -1,
          sourceLine: null,
          checksumLine: null,
          dependencyArray: null,
          dependencies: [],
        };
        blocks.push(current);
      }
      continue;
    }
    if (!current) continue;
    if (inArray) {
      const item = /^ "([^"\\]*)",$/.exec(text);
      if (item) current.dependencies.push({ line: index, text: item[1] ?? '' });
      else if (text === ']' && current.dependencyArray) {
        current.dependencyArray.close = index;
        inArray = false;
      } else return undefined;
      continue;
    }
    const [, key, value = ''] = KEY_LINE.exec(text) ?? [];
    if (key === 'name') current.name = value;
    else if (key === 'version') {
      current.version = value;
      current.versionLine = index;
    } else if (key === 'source') {
      current.source = value;
      current.sourceLine = index;
    } else if (key === 'checksum') current.checksumLine = index;
    else if (text === 'dependencies = [') {
      current.dependencyArray = { open: index, close: -1 };
      inArray = true;
    }
  }
  if (inArray || blocks.length !== packages.length) return undefined;
  const agrees = blocks.every((block, index) => {
    const parsed = packages[index];
    const dependencies = Array.isArray(parsed?.dependencies) ? parsed.dependencies : [];
    return (
      parsed?.name === block.name &&
      parsed.version === block.version &&
      (parsed.source ?? null) === block.source &&
      block.versionLine >= 0 &&
      (typeof parsed.checksum === 'string') === (block.checksumLine !== null) &&
      dependencies.length === block.dependencies.length &&
      dependencies.every((item, at) => item === block.dependencies[at]?.text)
    );
  });
  return agrees ? blocks : undefined;
}

/**
 * The package a `dependencies` item names, among `blocks`: `name` (the only package of that name), `name version`, or
 * `name version (source)` (https://doc.rust-lang.org/cargo/reference/resolver.html; Cargo's `EncodableDependency`).
 */
function resolveItem(item: string, byName: ReadonlyMap<string, readonly Block[]>): Block | undefined {
  const match = /^(\S+)(?: (\S+))?(?: \((.+)\))?$/.exec(item);
  if (!match) return undefined;
  const [, name, version, source] = match;
  const candidates = (byName.get(name ?? '') ?? []).filter(
    (block) => (version === undefined || block.version === version) && (source === undefined || block.source === source),
  );
  return candidates.length === 1 ? candidates[0] : undefined;
}

/** The blocks by their exact name. */
function indexByName(blocks: readonly Block[]): Map<string, Block[]> {
  const out = new Map<string, Block[]>();
  for (const block of blocks) out.set(block.name, [...(out.get(block.name) ?? []), block]);
  return out;
}

/**
 * How Cargo writes a dependency on `block` given the packages locked (`encodable_package_id`): lockfile v1 always
 * `name version (source)` (no source for path packages); v2+ `name`, with ` version` when several versions of the name are
 * locked, and ` (source)` when several sources lock that name and version.
 */
function encodeItem(block: Block, byName: ReadonlyMap<string, readonly Block[]>, format: number): string {
  const withSource = block.source === null ? '' : ` (${block.source})`;
  if (format === 1) return `${block.name} ${block.version}${withSource}`;
  const sameName = byName.get(block.name) ?? [];
  if (sameName.length === 1) return block.name;
  const sameVersion = sameName.filter((other) => other.version === block.version);
  return sameVersion.length === 1 ? `${block.name} ${block.version}` : `${block.name} ${block.version}${withSource}`;
}

/** Cargo's order of package ids: name, then version (SemVer precedence), then source. */
function comparePackages(a: Block, b: Block): number {
  if (a.name !== b.name) return a.name < b.name ? -1 : 1;
  const byVersion = cargoVersions.compare(a.version, b.version);
  if (byVersion !== 0) return byVersion;
  const sa = a.source ?? '';
  const sb = b.source ?? '';
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

/** Packages reachable from `starts`, else from the packages without a source (workspace members and path packages). */
function reachable(
  blocks: readonly Block[],
  edges: (block: Block) => readonly (Block | undefined)[],
  starts?: readonly Block[],
): Set<Block> {
  const seen = new Set<Block>();
  const queue = starts ? [...starts] : blocks.filter((block) => block.source === null);
  for (let block = queue.pop(); block !== undefined; block = queue.pop()) {
    if (seen.has(block)) continue;
    seen.add(block);
    for (const next of edges(block)) if (next) queue.push(next);
  }
  return seen;
}

/** The lockfile format: the top-level `version` (3, 4…), else 1 when `[metadata]` holds `checksum …` keys, else 2. */
function formatOf(doc: Table): number {
  if (typeof doc.version === 'number') return doc.version;
  const metadata = doc.metadata;
  return isTable(metadata) && Object.keys(metadata).some((key) => key.startsWith('checksum ')) ? 1 : 2;
}

/** Does the caret requirement of `from` allow `to` (are they semver-compatible, Cargo's default)? */
const compatible = (from: string, to: string) => {
  try {
    return cargoVersions.satisfies(to, `^${from}`);
  } catch {
    return false;
  }
};

/**
 * Rewrites a Cargo.lock (https://doc.rust-lang.org/cargo/guide/cargo-toml-vs-cargo-lock.html; format versions 1–4 as
 * Cargo's `EncodableResolve` writes them) so that the registry package `request.use.name` `request.use.version` becomes
 * `request.target`, editing only:
 * - that `[[package]]`'s `version`, `checksum` (the index's `cksum`; in format 1 its `[metadata]` `"checksum name version
 *   (source)"` line instead) and `dependencies`: the target's `normal` and `build` dependencies, with the optional ones the
 *   old entry listed (an optional dependency is only locked when a feature enables it), each naming the highest locked
 *   version its requirement allows, written as Cargo writes them (see {@link encodeItem}) and sorted by package id;
 * - other packages' `dependencies` items whose spelling changes (`"x 1.0.3"` → `"x 1.0.4"`, or the version left out once
 *   only one version of a name remains);
 * - packages no longer reachable from the workspace once the old version's dependencies are gone are removed, as Cargo
 *   removes them (with their format-1 `[metadata]` lines); packages the workspace did not reach before are left as they
 *   were, with the packages they name.
 * Every other byte stays, line breaks included.
 *
 * `needsResolution` (no file) when: the package is not locked at the old version from a registry (or from two); the
 * registry does not list the target's dependencies; a `normal`/`build` dependency, or an optional one that is not
 * locked, has no locked version its requirement allows (features are not known, so an optional dependency not locked at
 * all might be enabled); the target is semver-incompatible with the old version and another package than this
 * manifest's own depends on it (its requirement is not in the lockfile); the updated Cargo.toml's requirement does not
 * allow the target; the target version is locked already as another entry; the package would move among the versions
 * of its name; the registry gives no SHA-256 where the lockfile records one; the lockfile is not in Cargo's layout or has a
 * `[root]` table. A semver-compatible target is taken to satisfy the other dependents' requirements, which the lockfile
 * does not record (Cargo's default caret requirements do; an exact `=` pin elsewhere would not).
 * The lockfile is the workspace's (see {@link cargoLayout}): `Cargo.lock`, or beside the workspace root above a member
 * directory configured on its own (`../Cargo.lock`, returned under that key). Every manifest read binds it: the
 * directory's, the root above's own dependencies and `[workspace.dependencies]`, and the path packages' (which are not
 * updated: a requirement of theirs that excludes the target needs resolution), and the packages read are the
 * workspace's own dependents; other packages without a source (members of a root above that are not read) are
 * dependents like any other.
 * A request without that lockfile updates nothing (`files` empty).
 * @throws ManifestParseError when Cargo.lock or a manifest does not parse
 */
export function updateCargoLock(request: LockfileRequest): LockfileUpdate {
  const layout = cargoLayout(request.files);
  const lockfile = layout.lockfile;
  const text = request.files[lockfile];
  if (text === undefined) return { files: {} };
  const doc = parseToml(lockfile, text);
  const packages = doc.package ?? [];
  // What readCargoLock checks, on the document parsed once.
  if (!Array.isArray(packages) || !packages.every(isTable)) throw new ManifestParseError(lockfile, "'package' is not an array of tables");
  const format = formatOf(doc);
  const lines = linesOf(text);
  const blocks = blocksOf(lines, packages);
  if (doc.root !== undefined) return { needsResolution: "Cargo.lock's [root] table (Cargo before 1.39) is not rewritten" };
  if (!blocks) return { needsResolution: 'Cargo.lock is not laid out as Cargo writes it' };
  const { use, target } = request;
  const wanted = normaliseCrateName(use.name);
  const fromRegistry = (block: Block) => block.source !== null && /^(registry|sparse)\+/.test(block.source);
  const own = blocks.filter((block) => normaliseCrateName(block.name) === wanted && block.version === use.version && fromRegistry(block));
  const block = own[0];
  if (block === undefined) return { needsResolution: `${use.name} is not locked at ${use.version ?? 'a known version'} from a registry` };
  if (own.length > 1) return { needsResolution: `${use.name} ${use.version} is locked from several registries` };
  if (!cargoVersions.isValid(target.version)) return { needsResolution: `${target.version} is not a SemVer version` };
  if (target.dependencies === null)
    return { needsResolution: `the registry does not list the dependencies of ${use.name} ${target.version}` };
  if (blocks.some((other) => other !== block && other.name === block.name && other.version === target.version)) {
    return { needsResolution: `${block.name} ${target.version} is locked already as another entry: the two would merge` };
  }

  const cksum = target.artifacts
    .find((artifact) => artifact.filename.endsWith('.crate'))
    ?.digests.find((digest) => digest.algorithm === 'sha256' && digest.encoding === 'hex')?.value;
  const metadata = isTable(doc.metadata) ? doc.metadata : {};
  const metadataKey = `checksum ${block.name} ${block.version} (${block.source})`;
  const metadataLine = lines.findIndex((line) => line.text.startsWith(`"${metadataKey}" = `));
  const recordsChecksum = block.checksumLine !== null || typeof metadata[metadataKey] === 'string';
  if (recordsChecksum && cksum === undefined) return { needsResolution: `the registry gives no SHA-256 of ${use.name} ${target.version}` };

  // Every manifest's requirement (the root's and its workspace members', the root above's, the path packages'), and
  // other dependents' when the update is semver-incompatible. A path package that is the directory's own Cargo.toml seen
  // from above reads as the updated one.
  const ownManifest = request.updated[ROOT_MANIFEST] ?? '';
  const manifests: Record<string, string> = {
    ...request.updated,
    ...Object.fromEntries(layout.aliases.map((alias) => [alias, ownManifest])),
  };
  const declared = readLockedManifests(manifests).filter((d) => normaliseCrateName(d.name) === wanted);
  for (const declaration of declared) {
    const { requirement } = declaration;
    if (requirement !== null && !cargoVersions.satisfies(target.version, requirement)) {
      return {
        needsResolution: `${declaration.file}'s requirement '${requirement}' of ${use.name} does not allow ${target.version}`,
      };
    }
  }
  const byNameBefore = indexByName(blocks);
  const edgesBefore = new Map(blocks.map((b) => [b, b.dependencies.map((item) => resolveItem(item.text, byNameBefore))]));
  if ([...edgesBefore.values()].some((edges) => edges.includes(undefined))) {
    return { needsResolution: 'Cargo.lock names a dependency it does not lock' };
  }
  if (!compatible(block.version, target.version)) {
    // The packages read (the root's, the members', the path packages' [package] names): their requirements were checked above.
    const ownPackages = ownPackageNames(manifests);
    const dependent = blocks.find((b) => edgesBefore.get(b)?.includes(block) && !(b.source === null && ownPackages.has(b.name)));
    if (dependent) {
      return {
        needsResolution: `${dependent.name} ${dependent.version} depends on ${block.name} ${block.version}; its requirement may not allow ${target.version}`,
      };
    }
  }

  // The target's dependencies, each on the highest locked version its requirement allows.
  const oldNames = new Set(block.dependencies.map((item) => item.text.split(' ')[0]));
  const chosen: Block[] = [];
  const lockedFor = (dependency: RegistryDependency): Block | undefined =>
    blocks
      .filter((b) => b !== block && normaliseCrateName(b.name) === normaliseCrateName(dependency.name))
      .filter((b) => {
        try {
          return cargoVersions.satisfies(b.version, dependency.requirement);
        } catch {
          return false;
        }
      })
      .sort((a, b) => cargoVersions.compare(b.version, a.version))[0];
  for (const dependency of target.dependencies) {
    if (dependency.kind === 'dev' || dependency.kind === 'peer') continue;
    const locked = lockedFor(dependency);
    const listedBefore = oldNames.has(dependency.name);
    if (dependency.kind === 'optional' && !listedBefore && locked !== undefined) continue; // not enabled before
    if (locked === undefined) {
      const held = blocks.filter((b) => normaliseCrateName(b.name) === normaliseCrateName(dependency.name)).map((b) => b.version);
      const what = dependency.kind === 'optional' ? 'optional dependency' : 'dependency';
      return {
        needsResolution: `${use.name} ${target.version} has the ${what} ${dependency.name} '${dependency.requirement}' (${held.length === 0 ? 'not locked' : `locked at ${held.join(', ')}`})`,
      };
    }
    if (!chosen.includes(locked)) chosen.push(locked);
  }

  // The packages after the update: the target in place of the old version, without the packages nothing reaches any more.
  const updated: Block = { ...block, version: target.version };
  const swap = (b: Block | undefined) => (b === block ? updated : b);
  const all = blocks.map(swap) as Block[];
  const edgesAfter = (b: Block) => (b === updated ? chosen : (edgesBefore.get(b) ?? []).map(swap));
  const wasReachable = reachable(blocks, (b) => edgesBefore.get(b) ?? []);
  // Packages the workspace no longer reaches are removed; those it did not reach before stay as they were, with what they name.
  const starts = all.filter((b) => b.source === null || !wasReachable.has(b === updated ? block : b));
  const isReachable = reachable(all, edgesAfter, starts);
  const removed = new Set(all.filter((b) => !isReachable.has(b)));
  const kept = all.filter((b) => !removed.has(b));
  const byNameAfter = indexByName(kept);
  const sameName = kept.filter((b) => b.name === updated.name).sort(comparePackages);
  const order = kept.filter((b) => b.name === updated.name);
  if (sameName.some((b, index) => b !== order[index])) {
    return { needsResolution: `${updated.name} ${target.version} would move among the locked versions of ${updated.name}` };
  }

  const eol = lines.find((line) => line.eol !== '')?.eol ?? '\n';
  const replaced = new Map<number, string[]>();
  replaced.set(block.versionLine, [`version = "${target.version}"`]);
  if (block.checksumLine !== null) replaced.set(block.checksumLine, [`checksum = "${cksum}"`]);
  if (metadataLine >= 0) {
    replaced.set(metadataLine, [`"checksum ${block.name} ${target.version} (${block.source})" = "${cksum}"`]);
  }
  const items = [...chosen].sort(comparePackages).map((b) => ` "${encodeItem(b, byNameAfter, format)}",`);
  const array = items.length === 0 ? [] : ['dependencies = [', ...items, ']'];
  if (block.dependencyArray) {
    for (let index = block.dependencyArray.open; index <= block.dependencyArray.close; index++) replaced.set(index, []);
    replaced.set(block.dependencyArray.open, array);
  } else if (array.length > 0) {
    // Cargo writes the keys as name, version, source, checksum, dependencies.
    const after = block.checksumLine ?? block.sourceLine ?? block.versionLine;
    replaced.set(after, [...(replaced.get(after) ?? [lines[after]?.text ?? '']), ...array]);
  }
  for (const [index, b] of all.entries()) {
    const original = blocks[index] as Block;
    if (removed.has(b)) {
      for (let line = original.start; line < original.end; line++) replaced.set(line, []);
      if (format === 1) {
        const key = `"checksum ${original.name} ${original.version} (${original.source})" = `;
        const metadataOf = lines.findIndex((line) => line.text.startsWith(key));
        if (metadataOf >= 0) replaced.set(metadataOf, []);
      }
      continue;
    }
    if (original === block) continue;
    for (const [at, item] of original.dependencies.entries()) {
      const to = swap(edgesBefore.get(original)?.[at]);
      if (!to) continue;
      const written = encodeItem(to, byNameAfter, format);
      if (written !== item.text) replaced.set(item.line, [` "${written}",`]);
    }
  }

  const out = lines.flatMap((line, index) => {
    const replacement = replaced.get(index);
    if (replacement === undefined) return [`${line.text}${line.eol}`];
    return replacement.map((content, at) => `${content}${at === replacement.length - 1 ? line.eol : eol}`);
  });
  // A removed last block leaves the blank line that separated it; Cargo ends the file after the last table.
  let result = out.join('');
  if (!text.endsWith(`${eol}${eol}`)) while (result.endsWith(`${eol}${eol}`)) result = result.slice(0, -eol.length);
  return { files: { [lockfile]: result } };
}
