import type { LockfileRequest, LockfileUpdate } from '../ecosystem.ts';
import { ManifestParseError } from '../errors.ts';
import type { RegistryDependency } from '../registry-data.ts';
import { isTable, parseJsonObject, type Table } from '../shared/parse.ts';
import { normaliseComposerName } from './composer-json.ts';
import { composerContentHash } from './content-hash.ts';
import { constraintInRoot, isNamedBranch, readComposerStability } from './stability.ts';
import { composerVersions } from './versions.ts';

/** Platform packages (https://getcomposer.org/doc/01-basic-usage.md#platform-packages): never locked, never resolved here. */
const PLATFORM = /^(php(-64bit|-ipv6|-zts|-debug)?|hhvm|ext-.+|lib-.+|composer(-plugin-api|-runtime-api)?)$/i;

/** A JSON value's span in the text, and where its member key starts (for object members). */
interface Span {
  start: number;
  end: number;
  keyStart?: number;
}

/**
 * The span of every value of a JSON text by its key path (array indexes as decimal strings; a key written twice keeps
 * the last, as `JSON.parse` does). The text must already have passed `JSON.parse`.
 */
function jsonValueSpans(text: string): Map<string, Span> {
  const spans = new Map<string, Span>();
  let pos = 0;
  const skip = () => {
    while (pos < text.length && ' \t\r\n\uFEFF'.includes(text.charAt(pos))) pos++;
  };
  const string = () => {
    pos++;
    while (text.charAt(pos) !== '"') pos += text.charAt(pos) === '\\' ? 2 : 1;
    pos++;
  };
  const value = (path: string, keyStart?: number) => {
    skip();
    const start = pos;
    const c = text.charAt(pos);
    if (c === '"') string();
    else if (c === '{' || c === '[') {
      pos++;
      skip();
      for (let index = 0; text.charAt(pos) !== (c === '{' ? '}' : ']'); index++) {
        if (c === '{') {
          const at = pos;
          string();
          const key = JSON.parse(text.slice(at, pos)) as string;
          skip();
          pos++; // ':'
          value(`${path}\u0000${key}`, at);
        } else value(`${path}\u0000${index}`);
        skip();
        if (text.charAt(pos) === ',') pos++;
        skip();
      }
      pos++;
    } else pos += /^(?:true|false|null|-?\d[\d.eE+-]*)/.exec(text.slice(pos, pos + 64))?.[0].length ?? 1;
    spans.set(path, { start, end: pos, ...(keyStart === undefined ? {} : { keyStart }) });
  };
  value('');
  return spans;
}

const pathKey = (...keys: (string | number)[]) => keys.map((key) => `\u0000${key}`).join('');

/**
 * A Composer version's `version_normalized`, as Composer's `VersionParser::normalize` writes it
 * (https://github.com/composer/semver/blob/main/src/VersionParser.php): four numeric parts, the `v` dropped, a
 * stability suffix expanded (`a` → `alpha`, `b` → `beta`, `p`/`pl` → `patch`, `rc` → `RC`) and its number appended
 * (`v7.1.0-BETA1` → `7.1.0.0-beta1`, `2.0-RC2` → `2.0.0.0-RC2`), a `-dev` suffix kept (`1.0.0-dev` → `1.0.0.0-dev`,
 * `1.0.0-beta1-dev` → `1.0.0.0-beta1-dev`; after `stable` it is dropped, as `normalize` returns a stable version as
 * it is), and a numeric branch's wildcard parts written 9999999 (`normalizeBranch`: `6.4.x-dev` →
 * `6.4.9999999.9999999-dev`). Undefined for what is not such a version (named branches: `dev-main`).
 */
export function normaliseComposerVersion(version: string): string | undefined {
  const text = version.trim();
  const branch = /^v?(\d+)(?:\.(\d+|[xX*]))?(?:\.(\d+|[xX*]))?(?:\.(\d+|[xX*]))?[.-]?dev$/i.exec(text);
  if (branch && /[xX*]/.test(text.replace(/dev$/i, ''))) {
    const parts = [branch[1], branch[2], branch[3], branch[4]].map((part) => (part === undefined || /[xX*]/.test(part) ? '9999999' : part));
    return `${parts.join('.')}-dev`;
  }
  const match =
    /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:\.(\d+))?(?:[._-]?(stable|beta|b|RC|alpha|a|patch|pl|p)((?:[.-]?\d+)*)?)?([.-]?dev)?$/i.exec(text);
  if (!match) return undefined;
  const parts = [match[1], match[2] ?? '0', match[3] ?? '0', match[4] ?? '0'].join('.');
  const flag = match[5]?.toLowerCase();
  const dev = match[7] ? '-dev' : '';
  if (flag === 'stable') return parts;
  if (flag === undefined) return `${parts}${dev}`;
  const stability = { a: 'alpha', alpha: 'alpha', b: 'beta', beta: 'beta', p: 'patch', pl: 'patch', patch: 'patch', rc: 'RC' }[flag];
  return `${parts}-${stability}${(match[6] ?? '').replace(/^[.-]/, '')}${dev}`;
}

/** A package entry of composer.lock with where it sits. */
interface Locked {
  section: 'packages' | 'packages-dev';
  index: number;
  entry: Table;
}

/** Every package entry of composer.lock (`packages` then `packages-dev`), as objects with a string `name`. */
function lockedEntries(lock: Table): Locked[] {
  const out: Locked[] = [];
  for (const section of ['packages', 'packages-dev'] as const) {
    const list = lock[section] ?? [];
    if (!Array.isArray(list)) throw new ManifestParseError('composer.lock', `'${section}' is not an array`);
    list.forEach((entry, index) => {
      if (isTable(entry) && typeof entry.name === 'string') out.push({ section, index, entry });
    });
  }
  return out;
}

const stringsOf = (value: unknown): Record<string, string> =>
  isTable(value) ? Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string')) : {};

/** Does `version` satisfy the Composer constraint `constraint` (false for what the scheme cannot read: branches, `self.version`)? */
function allows(version: string, constraint: string): boolean {
  try {
    return composerVersions.satisfies(version, constraint);
  } catch {
    return false;
  }
}

/**
 * Is `dependency` satisfied by a locked package of `candidates`: one of its name whose version the requirement allows,
 * or one that `replace`s or `provide`s it at such a version (`self.version` meaning the package's own)?
 */
function satisfiedBy(dependency: RegistryDependency, candidates: readonly Locked[]): boolean {
  const wanted = normaliseComposerName(dependency.name);
  return candidates.some(({ entry }) => {
    const version = String(entry.version);
    if (normaliseComposerName(String(entry.name)) === wanted) return allows(version, dependency.requirement);
    return ['replace', 'provide'].some((link) =>
      Object.entries(stringsOf(entry[link])).some(
        ([name, given]) =>
          normaliseComposerName(name) === wanted && allows(given.trim() === 'self.version' ? version : given, dependency.requirement),
      ),
    );
  });
}

/** `value` in Composer's lockfile style (4-space pretty print, slashes and Unicode unescaped) at `indent`. */
function composerJson(value: Record<string, string>, indent: string): string {
  const entries = Object.entries(value);
  if (entries.length === 0) return '{}';
  return `{\n${entries.map(([k, v]) => `${indent}    ${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(',\n')}\n${indent}}`;
}

/** The indentation of the line holding offset `at`. */
const indentAt = (text: string, at: number) => /^[ \t]*/.exec(text.slice(text.lastIndexOf('\n', at - 1) + 1))?.[0] ?? '';

/**
 * Why a locked named branch (`dev-main`) cannot move to `target`, or undefined when it can: the registry must describe
 * the same branch (or name the commit itself as the version) and give its commit as the artifact's `reference`
 * (Packagist's `dist.reference`), which composer.lock then records; the version stays the branch.
 */
function branchMove(branch: string, target: LockfileRequest['target']): LockfileUpdate | undefined {
  const reference = target.artifacts[0]?.attributes?.reference;
  if (reference === undefined || reference.trim() === '')
    return { needsResolution: `the registry gives no commit for ${target.name} ${target.version}, the head of the branch ${branch}` };
  const version = target.version.trim();
  if (version.toLowerCase() !== branch.toLowerCase() && version !== reference)
    return { needsResolution: `composer.lock follows the branch ${branch}, not ${target.version}` };
  return undefined;
}

/**
 * composer.lock updated for `request` (see {@link Ecosystem.updateLockfiles}): the target's entry in `packages` or
 * `packages-dev` is rewritten in place (https://getcomposer.org/doc/01-basic-usage.md#commit-your-composer-lock-file-to-version-control):
 * `version` (as the registry spells it), `version_normalized` ({@link normaliseComposerVersion}), `source.reference`,
 * `dist.type`, `dist.url`, `dist.reference`, `dist.shasum` (the SHA-1, `""` when the registry gives none), `time`, and the
 * non-platform part of `require` (the platform requirements stay as locked: the registry port does not carry them).
 * Only fields the entry already has change (`require` is added after `dist` when needed); every other character stays.
 * `content-hash` is recomputed ({@link composerContentHash}) when composer.json changed and the locked hash is
 * reproduced from the original composer.json.
 *
 * A named branch (`dev-main`, locked at a commit) keeps its `version` and moves `source.reference`, `dist.reference` and the
 * dist to the commit the registry gives as the artifact's `reference` (Packagist's `dist.reference` of the branch), as
 * Dependabot updated a git dependency's reference; composer.json's constraint and the other packages' requirements are
 * not checked then (the branch is what they already accept). composer.json's constraint is read as Composer applies it
 * under the root's `minimum-stability` and `prefer-stable` ({@link constraintInRoot}).
 *
 * needsResolution when: the registry gives no dependencies or no dist (for a branch: no commit, or another branch); a
 * runtime requirement of the target is not met by a
 * locked package (in `packages` for a `packages` entry), by name or `replace`/`provide`; another locked package's
 * `require` does not allow the target version or its `conflict` matches it; composer.json's constraint does not allow it;
 * the content hash cannot be reproduced; the package is not locked.
 * @throws ManifestParseError when composer.lock or composer.json does not parse
 */
export function updateComposerLock(request: LockfileRequest): LockfileUpdate {
  const text = request.files['composer.lock'];
  if (text === undefined) return { files: {} };
  const { target } = request;
  const lock = parseJsonObject('composer.lock', text);
  const entries = lockedEntries(lock);
  const wanted = normaliseComposerName(request.use.name);
  const own = entries.find((e) => normaliseComposerName(String(e.entry.name)) === wanted);
  if (!own) return { needsResolution: `composer.lock does not lock ${request.use.name}` };
  if (target.dependencies === null)
    return { needsResolution: `the registry does not publish the dependencies of ${target.name} ${target.version}` };
  const artifact = target.artifacts[0];
  if (!artifact && isTable(own.entry.dist)) return { needsResolution: `the registry gives no dist of ${target.name} ${target.version}` };
  // a named branch (`dev-main`) stays the branch and moves to the target commit
  const branch = isNamedBranch(String(own.entry.version)) ? String(own.entry.version) : undefined;
  if (branch !== undefined) {
    const moved = branchMove(branch, target);
    if (moved !== undefined) return moved;
  }

  // the manifest allows the target (as Composer applies it under the root's minimum-stability and prefer-stable)
  const updatedManifest = request.updated['composer.json'] ?? '{}';
  const manifest = parseJsonObject('composer.json', updatedManifest);
  const settings = readComposerStability('composer.json', updatedManifest);
  for (const section of ['require', 'require-dev']) {
    for (const [name, constraint] of Object.entries(stringsOf(manifest[section]))) {
      if (branch !== undefined || normaliseComposerName(name) !== wanted) continue;
      if (!allows(target.version, constraintInRoot(constraint, settings, String(own.entry.version))))
        return { needsResolution: `composer.json ${section} '${constraint}' does not allow ${target.version}` };
    }
  }
  // the target's requirements are locked
  const others = entries.filter((e) => e !== own);
  const available = own.section === 'packages' ? others.filter((e) => e.section === 'packages') : others;
  const runtime = target.dependencies.filter((d) => d.kind === 'runtime' && !PLATFORM.test(d.name));
  for (const dependency of runtime) {
    if (!satisfiedBy(dependency, available))
      return {
        needsResolution: `${target.name} ${target.version} requires ${dependency.name} ${dependency.requirement}, which composer.lock does not satisfy`,
      };
  }
  // the other locked packages accept it (a branch keeps its version, so what they accept does not change)
  for (const { entry } of branch === undefined ? others : []) {
    for (const [name, constraint] of Object.entries(stringsOf(entry.require))) {
      if (normaliseComposerName(name) === wanted && !allows(target.version, constraint))
        return { needsResolution: `${String(entry.name)} requires ${name} ${constraint}, which ${target.version} does not satisfy` };
    }
    for (const [name, constraint] of Object.entries(stringsOf(entry.conflict))) {
      if (normaliseComposerName(name) === wanted && allows(target.version, constraint))
        return { needsResolution: `${String(entry.name)} conflicts with ${name} ${constraint}` };
    }
  }

  const spans = jsonValueSpans(text);
  const base = [own.section, own.index];
  const edits: { start: number; end: number; text: string }[] = [];
  const setString = (keys: (string | number)[], value: string | undefined) => {
    const span = spans.get(pathKey(...base, ...keys));
    if (value === undefined || !span || text.charAt(span.start) !== '"') return;
    edits.push({ start: span.start, end: span.end, text: JSON.stringify(value) });
  };
  if (branch === undefined) setString(['version'], target.version);
  if (branch === undefined && typeof own.entry.version_normalized === 'string') {
    const normalized = normaliseComposerVersion(target.version);
    if (normalized === undefined) return { needsResolution: `cannot normalise the version ${target.version}` };
    setString(['version_normalized'], normalized);
  }
  const attributes = artifact?.attributes ?? {};
  if (isTable(own.entry.source)) setString(['source', 'reference'], attributes['source-reference'] ?? attributes.reference);
  if (isTable(own.entry.dist) && artifact) {
    setString(['dist', 'type'], attributes.type);
    setString(['dist', 'url'], artifact.url);
    setString(['dist', 'reference'], attributes.reference);
    setString(['dist', 'shasum'], artifact.digests.find((d) => d.algorithm === 'sha1')?.value ?? '');
  }
  setString(['time'], attributes.time);

  const oldRequire = stringsOf(own.entry.require);
  const platform = Object.entries(oldRequire).filter(([name]) => PLATFORM.test(name));
  const newRequire = Object.fromEntries([...platform, ...runtime.map((d) => [d.name, d.requirement] as const)]);
  if (JSON.stringify(newRequire) !== JSON.stringify(oldRequire)) {
    const span = spans.get(pathKey(...base, 'require'));
    if (span && span.keyStart !== undefined) {
      const multiLine = text.slice(span.start, span.end).includes('\n');
      const written = multiLine
        ? composerJson(newRequire, indentAt(text, span.keyStart))
        : `{ ${Object.entries(newRequire)
            .map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`)
            .join(', ')} }`;
      edits.push({ start: span.start, end: span.end, text: written });
    } else if (Object.keys(newRequire).length > 0) {
      const after = ['dist', 'source', 'version'].map((key) => spans.get(pathKey(...base, key))).find((s) => s?.keyStart !== undefined);
      if (!after || after.keyStart === undefined) return { needsResolution: `cannot place 'require' in the entry of ${request.use.name}` };
      const indent = indentAt(text, after.keyStart);
      edits.push({ start: after.end, end: after.end, text: `,\n${indent}"require": ${composerJson(newRequire, indent)}` });
    }
  }

  const originalManifest = request.files['composer.json'];
  if (originalManifest !== undefined && request.updated['composer.json'] !== undefined && originalManifest !== updatedManifest) {
    const span = spans.get(pathKey('content-hash'));
    if (span && typeof lock['content-hash'] === 'string') {
      if (composerContentHash(originalManifest) !== lock['content-hash'])
        return { needsResolution: "composer.lock's content-hash is not reproduced from composer.json" };
      const hash = composerContentHash(updatedManifest);
      if (hash === null) return { needsResolution: "composer.lock's content-hash cannot be recomputed" };
      edits.push({ start: span.start, end: span.end, text: JSON.stringify(hash) });
    }
  }

  let out = text;
  for (const edit of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  return { files: { 'composer.lock': out } };
}
