import semver from 'semver';
import type { LockfileRequest } from '../ecosystem.ts';
import type { RegistryVersionDetails } from '../registry-data.ts';
import { alias, readPackageJson } from './package-json.ts';
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

/**
 * Updates a Yarn 1 lockfile (`# yarn lockfile v1`, https://classic.yarnpkg.com/lang/en/docs/yarn-lock/) for the
 * dependency of `request.use` by rewriting its entry in the text; every other byte stays.
 *
 * The entry is the one whose patterns include the manifest's `key@spec` (as package.json declared it before the
 * update). It gets the target's `version`, `resolved`, `integrity`, `dependencies` and `optionalDependencies` (see
 * `targetEntry`), and its patterns become: the updated manifest's `key@spec`, plus each other pattern of the entry
 * whose range the target satisfies (the old `key@spec` too when another entry's dependencies still ask for it). The
 * patterns the target does not satisfy keep the old entry (the entry is split, as Yarn would hold two versions); a
 * new entry goes where Yarn's order puts it (entries sorted by their first pattern).
 *
 * Each dependency and optional dependency the target declares must be satisfied by a version yarn.lock already locks
 * for that name: its `name@range` pattern is then added to that entry's header (the highest such version), as Yarn
 * does when it reuses a locked version; a dependency nothing locked satisfies needs resolution.
 * @returns `needsResolution` for a Yarn 2+ lockfile (`__metadata:`), a dependency without an entry, a target whose
 *   dependencies the registry does not publish, or one nothing locked satisfies; `unchanged` when the entry already
 *   locks the target under the same pattern
 * @throws ManifestParseError when yarn.lock or package.json does not parse
 */
export function updateYarnLock(request: LockfileRequest): YarnLockResult {
  const text = request.files[FILE];
  if (text === undefined) return { unchanged: `no ${FILE}` };
  if (/^__metadata:/m.test(text)) return { needsResolution: 'a Yarn 2+ lockfile (`__metadata:`) is only rewritten by Yarn itself' };
  const parsed = parseYarnClassic(FILE, text);
  const before = readPackageJson('package.json', request.files['package.json'] ?? '{}').find((e) => e.name === request.use.name);
  const after = readPackageJson('package.json', request.updated['package.json'] ?? '{}').find((e) => e.name === request.use.name);
  if (!before || !after) return { needsResolution: `package.json does not declare ${request.use.name}` };
  const { target } = request;
  const oldPattern = `${before.key}@${before.spec}`;
  const newPattern = `${after.key}@${after.spec}`;
  const old = parsed[oldPattern];
  if (old === undefined) return { needsResolution: `no entry for ${oldPattern}` };
  if (old.version === target.version && oldPattern === newPattern)
    return { unchanged: `${FILE} already locks ${oldPattern} at ${target.version}` };
  if (target.dependencies === null)
    return { needsResolution: `the registry does not publish the dependencies of ${target.name}@${target.version}` };

  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const lines = text.split(eol);
  const blocks = blocksOf(lines);
  const block = blocks.find((b) => b.patterns.includes(oldPattern));
  if (block === undefined) return { needsResolution: `no entry for ${oldPattern}` };

  // Who else asks for the old pattern: another entry's dependency on the same key and range.
  const oldAskedByOthers = Object.entries(parsed).some(
    ([pattern, entry]) =>
      entry !== old &&
      !pattern.startsWith(`${before.key}@`) &&
      [entry.dependencies, entry.optionalDependencies].some((deps) => deps?.[before.key] === before.spec),
  );
  const moved = new Set([newPattern]);
  const kept: string[] = [];
  for (const pattern of block.patterns) {
    if (pattern === oldPattern && oldPattern !== newPattern && !oldAskedByOthers) continue;
    const range = patternRange(pattern, before.key);
    if (range !== undefined && semver.satisfies(target.version, range)) moved.add(pattern);
    else if (pattern !== newPattern) kept.push(pattern);
  }

  const entry = targetEntry(target, old);
  if (typeof entry === 'string') return { needsResolution: entry };

  // Every dependency the target declares, on a version already locked (its pattern added to that entry's header).
  const replaced = new Map<Block, string[]>();
  for (const dependency of target.dependencies) {
    if (dependency.kind !== 'runtime' && dependency.kind !== 'optional') continue;
    const wanted = `${dependency.name}@${dependency.requirement}`;
    if (parsed[wanted] !== undefined) continue;
    const candidates = blocks
      .map((b) => ({ b, version: parsed[b.patterns[0] ?? '']?.version }))
      .filter(
        ({ b, version }) => b.patterns.some((p) => p.startsWith(`${dependency.name}@`) && !p.includes('@npm:')) && version !== undefined,
      )
      .filter(({ version }) => semver.satisfies(version as string, dependency.requirement))
      .sort((x, y) => semver.rcompare(x.version as string, y.version as string));
    const best = candidates[0];
    if (best === undefined) {
      return { needsResolution: `${target.name}@${target.version} needs ${wanted}, which no version in ${FILE} satisfies` };
    }
    const patterns = [...(replaced.get(best.b) ?? best.b.patterns), wanted].sort(yarnOrder);
    replaced.set(best.b, patterns);
  }
  if (replaced.has(block)) return { needsResolution: `${target.name}@${target.version} depends on ${target.name} itself` };

  // Rewrite: every entry keeps its lines and the lines after it (blank lines, comments) but the entry updated, whose
  // block goes; headers of reused entries get their new patterns; the new entries go where Yarn's order puts them.
  const firstOf = (patterns: readonly string[]) => [...patterns].sort(yarnOrder)[0] ?? '';
  const items = blocks.map((b, i) => ({
    first: firstOf(b.patterns),
    lines: replaced.has(b)
      ? [...entryText(replaced.get(b) ?? [], parsed[b.patterns[0] ?? ''] ?? {}).slice(0, 1), ...lines.slice(b.start + 1, b.end)]
      : lines.slice(b.start, b.end),
    trailer: lines.slice(b.end, blocks[i + 1]?.start ?? lines.length),
    block: b as Block | undefined,
  }));
  const at = items.findIndex((item) => item.block === block);
  const [removed] = items.splice(at, 1);
  if (removed && at === items.length && at > 0) {
    // the last entry goes: the one before it ends the file as it did
    const previous = items[at - 1];
    if (previous) previous.trailer = removed.trailer;
  }
  const fresh = [{ patterns: [...moved].sort(yarnOrder), entry }];
  if (kept.length > 0) fresh.push({ patterns: [...kept].sort(yarnOrder), entry: old });
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
  return result === text ? { unchanged: `${FILE} already locks ${newPattern} at ${target.version}` } : { text: result };
}
