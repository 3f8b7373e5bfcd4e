import semver from 'semver';
import type { LockfileRequest } from '../ecosystem.ts';
import type { RegistryVersionDetails } from '../registry-data.ts';
import { alias, readPackageJson } from './package-json.ts';
import { pinEntries, ROOT_MANIFEST, resolutionApplies, rootScope } from './workspace.ts';
import { lockfile, parseYarnClassic, type YarnClassicEntry } from './yarn-lock.ts';

/** What {@link updateYarnLock} gives: the new text, why nothing changes, or why it cannot be done faithfully. */
export type YarnLockResult = { text: string } | { unchanged: string } | { needsResolution: string };

const FILE = 'yarn.lock';

/** One entry of the text: its lines `[start, end)` (header included, the blank line after it not) and its patterns. */
interface Block {
  start: number;
  end: number;
  patterns: string[];
}

/** Splits a header line (`"@a/b@^1", "@a/b@^1.2":`) into its patterns, unquoted as Yarn's parser reads them. */
function headerPatterns(line: string): string[] {
  const body = line.replace(/:\s*$/, '');
  const patterns: string[] = [];
  for (const match of body.matchAll(/"((?:[^"\\]|\\.)*)"|([^,\s][^,]*)/g)) {
    if (match[1] !== undefined) patterns.push(JSON.parse(`"${match[1]}"`) as string);
    else if (match[2] !== undefined) patterns.push(match[2].trim());
  }
  return patterns;
}

/** The top-level entries of a Yarn 1 lockfile text, by line: a header is an unindented line that is not a comment. */
function blocksOf(lines: readonly string[]): Block[] {
  const blocks: Block[] = [];
  let current: Block | undefined;
  for (const [index, line] of lines.entries()) {
    if (/^\s/.test(line) && line.trim() !== '') continue;
    if (current) {
      current.end = index;
      blocks.push(current);
      current = undefined;
    }
    if (line.trim() !== '' && !line.startsWith('#')) current = { start: index, end: lines.length, patterns: headerPatterns(line) };
  }
  if (current) blocks.push(current);
  return blocks;
}

/** Yarn's order of patterns and entries (`sortAlpha` of Yarn 1: code units, then length). */
const yarnOrder = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The range of a pattern of `name` (`name@^1.2`, `alias@npm:name@^1.2`), undefined for a tag, URL or git source. */
function patternRange(pattern: string, key: string): string | undefined {
  const spec = pattern.slice(key.length + 1);
  const aliased = alias(spec);
  const range = aliased ? aliased.range : spec;
  return semver.validRange(range) === null ? undefined : range;
}

/** The text of one entry as Yarn 1 writes it (`@yarnpkg/lockfile`'s `stringify`: quoting, field and pattern order). */
function entryText(patterns: readonly string[], entry: YarnClassicEntry): string[] {
  const object = Object.fromEntries(patterns.map((pattern) => [pattern, entry]));
  return lockfile.stringify(object, true).replace(/\n+$/, '').split('\n');
}

/**
 * The fields Yarn 1 writes for the target (https://classic.yarnpkg.com/lang/en/docs/yarn-lock/): `version`; `resolved`
 * the tarball URL with `#<sha1 hex>` (the registry's `shasum`), on the old entry's host when that is Yarn's alias of the
 * public npm registry (`registry.yarnpkg.com` for `registry.npmjs.org`); `integrity` the registry's SRI digests;
 * `dependencies` (runtime) and `optionalDependencies`. Peer dependencies are not written, as Yarn does not.
 */
function targetEntry(target: RegistryVersionDetails, old: YarnClassicEntry): YarnClassicEntry | string {
  const artifact = target.artifacts[0];
  if (artifact === undefined) return `the registry lists no tarball for ${target.name}@${target.version}`;
  const sha1 = artifact.digests.find((d) => d.algorithm === 'sha1' && d.encoding === 'hex')?.value;
  let url = artifact.url;
  if (old.resolved?.startsWith('https://registry.yarnpkg.com/') && url.startsWith('https://registry.npmjs.org/')) {
    url = `https://registry.yarnpkg.com/${url.slice('https://registry.npmjs.org/'.length)}`;
  }
  const integrity = artifact.digests
    .filter((d) => d.encoding === 'sri')
    .map((d) => d.value)
    .join(' ');
  const section = (kind: 'runtime' | 'optional') => {
    const listed = (target.dependencies ?? []).filter((d) => d.kind === kind);
    return listed.length === 0 ? undefined : Object.fromEntries(listed.map((d) => [d.name, d.requirement]));
  };
  const dependencies = section('runtime');
  const optionalDependencies = section('optional');
  return {
    version: target.version,
    resolved: sha1 ? `${url}#${sha1}` : url,
    ...(integrity ? { integrity } : {}),
    ...(dependencies ? { dependencies } : {}),
    ...(optionalDependencies ? { optionalDependencies } : {}),
  };
}

/** The key of a yarn.lock pattern (`@s/a@^1` → `@s/a`, `alias@npm:real@^1` → `alias`). */
const patternKey = (pattern: string): string => pattern.slice(0, pattern.indexOf('@', 1));

/**
 * Updates a Yarn 1 lockfile (`# yarn lockfile v1`, https://classic.yarnpkg.com/lang/en/docs/yarn-lock/) for the
 * dependency of `request.use` by rewriting its entry in the text; every other byte stays.
 *
 * The manifests are the root package.json and its workspace members (https://classic.yarnpkg.com/lang/en/docs/workspaces/,
 * one yarn.lock for all; see {@link rootScope}). The entries are those whose patterns include a manifest's `key@spec`
 * (as each manifest declared it before the update). The updated manifests' `key@spec` patterns get one entry with the
 * target's `version`, `resolved`, `integrity`, `dependencies` and `optionalDependencies` (see `targetEntry`), joined by
 * each other pattern of those entries whose range the target satisfies (an old `key@spec` too when another entry's
 * dependencies still ask for it). The patterns the target does not satisfy keep their old entry (the entry is split, as
 * Yarn would hold two versions); new entries go where Yarn's order puts them (entries sorted by their first pattern).
 *
 * Each dependency and optional dependency the target declares must be satisfied by a version yarn.lock already locks
 * for that name: its `name@range` pattern is then added to that entry's header (the highest such version), as Yarn
 * does when it reuses a locked version; a dependency nothing locked satisfies needs resolution.
 *
 * The root's `resolutions` (https://classic.yarnpkg.com/lang/en/docs/selective-version-resolutions/) are respected: one
 * that applies to the dependency itself (`name`, `**\/name`) must allow the target, else the update needs resolution,
 * and every pattern of the dependency then moves to the target (the resolution decides the version of them all); one
 * that applies to a dependency of the target (`dep`, `**\/dep`, `<target>/dep`) makes that dependency's pattern join the
 * entry locking a version the resolution allows (the range is not asked), as Yarn resolves it.
 * @returns `needsResolution` for a Yarn 2+ lockfile (`__metadata:`), a dependency without an entry, a target whose
 *   dependencies the registry does not publish, one nothing locked satisfies, or a resolution that excludes the target;
 *   `unchanged` when the entries already lock the target under the same patterns
 * @throws ManifestParseError when yarn.lock or a package.json does not parse
 */
export function updateYarnLock(request: LockfileRequest): YarnLockResult {
  const text = request.files[FILE];
  if (text === undefined) return { unchanged: `no ${FILE}` };
  if (/^__metadata:/m.test(text)) return { needsResolution: 'a Yarn 2+ lockfile (`__metadata:`) is only rewritten by Yarn itself' };
  const parsed = parseYarnClassic(FILE, text);
  const declarations = (files: Readonly<Record<string, string>>) =>
    rootScope(files).flatMap((m) => readPackageJson(m.path, m.text).filter((e) => e.name === request.use.name));
  const before = declarations(request.files);
  const after = declarations(request.updated);
  if (before.length === 0 || after.length === 0) return { needsResolution: `package.json does not declare ${request.use.name}` };
  const { target } = request;
  const oldPatterns = [...new Set(before.map((e) => `${e.key}@${e.spec}`))];
  const newPatterns = [...new Set(after.map((e) => `${e.key}@${e.spec}`))];
  for (const pattern of oldPatterns) if (parsed[pattern] === undefined) return { needsResolution: `no entry for ${pattern}` };
  const resolutions = pinEntries(request.updated[ROOT_MANIFEST] ?? '{}').filter((pin) => pin.section === 'resolutions');
  const pinsOf = (name: string, parent?: string) =>
    resolutions.filter((pin) => resolutionApplies(pin.key, name, parent) && semver.validRange(pin.value) !== null);
  const ownPins = pinsOf(request.use.name);
  for (const pin of ownPins) {
    if (!semver.satisfies(target.version, pin.value)) {
      return { needsResolution: `resolutions '${pin.key}': '${pin.value}' does not allow ${target.name}@${target.version}` };
    }
  }
  const sameSet = oldPatterns.length === newPatterns.length && oldPatterns.every((p) => newPatterns.includes(p));
  if (sameSet && oldPatterns.every((p) => parsed[p]?.version === target.version))
    return { unchanged: `${FILE} already locks ${newPatterns.join(', ')} at ${target.version}` };
  if (target.dependencies === null)
    return { needsResolution: `the registry does not publish the dependencies of ${target.name}@${target.version}` };

  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const lines = text.split(eol);
  const blocks = blocksOf(lines);
  const involved = new Set(blocks.filter((b) => b.patterns.some((p) => oldPatterns.includes(p) || newPatterns.includes(p))));
  const firstBlock = blocks.find((b) => b.patterns.includes(oldPatterns[0] ?? ''));
  const old = parsed[oldPatterns[0] ?? ''];
  if (firstBlock === undefined || old === undefined) return { needsResolution: `no entry for ${oldPatterns[0]}` };

  // Who else asks for an old pattern: another entry's dependency on the same key and range.
  const askedByOthers = (pattern: string) => {
    const key = patternKey(pattern);
    const spec = pattern.slice(key.length + 1);
    return Object.entries(parsed).some(
      ([other, entry]) =>
        !other.startsWith(`${key}@`) && [entry.dependencies, entry.optionalDependencies].some((deps) => deps?.[key] === spec),
    );
  };
  const moved = new Set(newPatterns);
  const kept = new Map<Block, string[]>();
  for (const block of involved) {
    for (const pattern of block.patterns) {
      if (oldPatterns.includes(pattern) && !newPatterns.includes(pattern) && !askedByOthers(pattern)) continue;
      if (moved.has(pattern)) continue;
      const range = patternRange(pattern, patternKey(pattern));
      if (ownPins.length > 0 || (range !== undefined && semver.satisfies(target.version, range))) moved.add(pattern);
      else kept.set(block, [...(kept.get(block) ?? []), pattern]);
    }
  }

  const entry = targetEntry(target, old);
  if (typeof entry === 'string') return { needsResolution: entry };

  // Every dependency the target declares, on a version already locked (its pattern added to that entry's header).
  const replaced = new Map<Block, string[]>();
  for (const dependency of target.dependencies) {
    if (dependency.kind !== 'runtime' && dependency.kind !== 'optional') continue;
    const wanted = `${dependency.name}@${dependency.requirement}`;
    if (parsed[wanted] !== undefined) continue;
    const pins = pinsOf(dependency.name, target.name);
    const candidates = blocks
      .map((b) => ({ b, version: parsed[b.patterns[0] ?? '']?.version }))
      .filter(
        ({ b, version }) => b.patterns.some((p) => p.startsWith(`${dependency.name}@`) && !p.includes('@npm:')) && version !== undefined,
      )
      .filter(({ version }) =>
        pins.length > 0
          ? pins.every((pin) => semver.satisfies(version as string, pin.value))
          : semver.satisfies(version as string, dependency.requirement),
      )
      .sort((x, y) => semver.rcompare(x.version as string, y.version as string));
    const best = candidates[0];
    if (best === undefined) {
      const by = pins.length > 0 ? ` under resolutions ${pins.map((p) => `'${p.key}': '${p.value}'`).join(', ')}` : '';
      return { needsResolution: `${target.name}@${target.version} needs ${wanted}, which no version in ${FILE} satisfies${by}` };
    }
    const patterns = [...(replaced.get(best.b) ?? best.b.patterns), wanted].sort(yarnOrder);
    replaced.set(best.b, patterns);
  }
  if ([...involved].some((b) => replaced.has(b)))
    return { needsResolution: `${target.name}@${target.version} depends on ${target.name} itself` };

  // Rewrite: every entry keeps its lines and the lines after it (blank lines, comments) but the entries updated, whose
  // blocks go; headers of reused entries get their new patterns; the new entries go where Yarn's order puts them.
  const firstOf = (patterns: readonly string[]) => [...patterns].sort(yarnOrder)[0] ?? '';
  const items = blocks.map((b, i) => ({
    first: firstOf(b.patterns),
    lines: replaced.has(b)
      ? [...entryText(replaced.get(b) ?? [], parsed[b.patterns[0] ?? ''] ?? {}).slice(0, 1), ...lines.slice(b.start + 1, b.end)]
      : lines.slice(b.start, b.end),
    trailer: lines.slice(b.end, blocks[i + 1]?.start ?? lines.length),
    block: b as Block | undefined,
  }));
  for (let at = items.length - 1; at >= 0; at--) {
    const removed = items[at];
    if (removed?.block === undefined || !involved.has(removed.block)) continue;
    items.splice(at, 1);
    if (at === items.length && at > 0) {
      // the last entry goes: the one before it ends the file as it did
      const previous = items[at - 1];
      if (previous) previous.trailer = removed.trailer;
    }
  }
  const fresh: { patterns: string[]; entry: YarnClassicEntry }[] = [{ patterns: [...moved].sort(yarnOrder), entry }];
  for (const [block, patterns] of kept)
    fresh.push({ patterns: [...patterns].sort(yarnOrder), entry: parsed[block.patterns[0] ?? ''] ?? old });
  for (const { patterns, entry: value } of fresh) {
    const item = { first: patterns[0] ?? '', lines: entryText(patterns, value), trailer: [''], block: undefined };
    const index = items.findIndex((other) => yarnOrder(item.first, other.first) < 0);
    if (index === -1) {
      const last = items[items.length - 1];
      if (last) {
        // the new last entry ends the file as the old last one did; that one is followed by a blank line now
        item.trailer = last.trailer.length > 0 ? last.trailer : [];
        last.trailer = [''];
      }
      items.push(item);
    } else items.splice(index, 0, item);
  }
  const preamble = lines.slice(0, blocks[0]?.start ?? lines.length);
  const result = [...preamble, ...items.flatMap((item) => [...item.lines, ...item.trailer])].join(eol);
  return result === text ? { unchanged: `${FILE} already locks ${newPatterns.join(', ')} at ${target.version}` } : { text: result };
}
