import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LockfileRegistry, LockfileRequest } from '../ecosystem.ts';
import { ManifestParseError } from '../errors.ts';
import { type RegistryCredentials, RegistryError } from '../registry-data.ts';
import { isTable, parseJsonObject, type Table } from '../shared/parse.ts';
import { readPackageJson, SECTIONS } from './package-json.ts';

/** The part of @npmcli/arborist (https://github.com/npm/cli/tree/latest/workspaces/arborist) used here. */
interface ArboristNode {
  package: Table;
  meta: { toString(): string } | null;
}
interface ArboristInstance {
  buildIdealTree(): Promise<ArboristNode>;
}
type ArboristConstructor = new (options: Record<string, unknown>) => ArboristInstance;

/** Arborist is CommonJS; `require` loads it the same way under Node and vitest. */
const Arborist = createRequire(import.meta.url)('@npmcli/arborist') as ArboristConstructor;

/** The lockfile names npm writes: npm-shrinkwrap.json (published) and package-lock.json. */
export type NpmLockfileName = 'package-lock.json' | 'npm-shrinkwrap.json';

/** What {@link updatePackageLock} gives: the new text, why nothing changes, or why it cannot be done faithfully. */
export type PackageLockResult = { text: string } | { unchanged: string } | { needsResolution: string };

/** Network bounds of the resolver's registry requests (npm-registry-fetch options; times in milliseconds). */
const FETCH_OPTIONS = {
  timeout: 30_000,
  fetchRetries: 2,
  fetchRetryFactor: 2,
  fetchRetryMintimeout: 250,
  fetchRetryMaxtimeout: 2_000,
};

/** npm-registry-fetch / make-fetch-happen error codes of a registry that did not answer. */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'ESOCKETTIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'ERR_SOCKET_TIMEOUT',
  'FETCH_ERROR',
  'E429',
]);

/** A registry's "nerf dart": `//host[:port]/path/`, the prefix npm keys per-registry credentials with (https://docs.npmjs.com/cli/v10/configuring-npm/npmrc#auth-related-configuration). */
function nerfDart(url: URL): string {
  return `//${url.host}${url.pathname.endsWith('/') ? url.pathname : `${url.pathname}/`}`;
}

/**
 * npm's per-registry credential settings for one registry, keyed by its nerf dart so npm-registry-fetch sends them to
 * URLs under that host and path only: a token as `:_authToken`, a user and password as `:username` + `:_password`
 * (base64), a whole `Authorization` value when it is `Bearer <token>` (`:_authToken`) or `Basic <base64>` (`:_auth`).
 * @returns undefined for an `Authorization` of another scheme, which npm cannot send
 */
function credentialSettings(url: URL, credentials: RegistryCredentials): Record<string, string> | undefined {
  const key = nerfDart(url);
  if ('token' in credentials) return { [`${key}:_authToken`]: credentials.token };
  if ('username' in credentials) {
    return {
      [`${key}:username`]: credentials.username,
      [`${key}:_password`]: Buffer.from(credentials.password, 'utf8').toString('base64'),
    };
  }
  const match = /^(bearer|basic)\s+(\S+)$/i.exec(credentials.authorization.trim());
  if (!match?.[2]) return undefined;
  return match[1]?.toLowerCase() === 'bearer' ? { [`${key}:_authToken`]: match[2] } : { [`${key}:_auth`]: match[2] };
}

const scopeOf = (name: string): string | undefined => (name.startsWith('@') ? name.slice(0, name.indexOf('/')) : undefined);

/** The package name of a v2/v3 `packages` key (`node_modules/a/node_modules/@s/b` → `@s/b`). */
const nameOfLocation = (location: string): string => location.slice(location.lastIndexOf('node_modules/') + 'node_modules/'.length);

/** Scopes whose packages the lockfile resolved from `base` (v2/v3 `packages`, v1 nested `dependencies`). */
function scopesResolvedFrom(lock: Table, base: string): Set<string> {
  const scopes = new Set<string>();
  const add = (name: string, entry: unknown) => {
    const scope = scopeOf(name);
    if (scope && isTable(entry) && typeof entry.resolved === 'string' && entry.resolved.startsWith(base)) scopes.add(scope);
  };
  if (isTable(lock.packages)) for (const [location, entry] of Object.entries(lock.packages)) add(nameOfLocation(location), entry);
  const walk = (dependencies: unknown) => {
    if (!isTable(dependencies)) return;
    for (const [name, entry] of Object.entries(dependencies)) {
      add(name, entry);
      if (isTable(entry)) walk(entry.dependencies);
    }
  };
  walk(lock.dependencies);
  return scopes;
}

/**
 * npm's registry settings for the update (https://docs.npmjs.com/cli/v10/using-npm/registry, scoped registries
 * https://docs.npmjs.com/cli/v10/using-npm/scope#associating-a-scope-with-a-registry): the default `registry` is the
 * last of `registries` (the public one); with a private registry before it, every scope the lockfile already resolved
 * from it, and the target's scope when the target's tarball is served by it, map to it (`@scope:registry`), and an
 * unscoped target served by it makes it the default registry (it then stands for a registry that also serves the
 * public packages). Each registry's credentials are keyed by its own nerf dart only.
 * @returns undefined (with the reason) when credentials cannot be expressed as npm settings
 */
function registrySettings(
  registries: readonly LockfileRegistry[],
  lock: Table,
  name: string,
  tarballUrl: string | undefined,
): { settings: Record<string, string> } | { cannot: string } {
  const urls = registries.map((r) => new URL(r.url.endsWith('/') ? r.url : `${r.url}/`));
  const publicUrl = urls.at(-1);
  if (publicUrl === undefined) return { cannot: 'no registry to resolve from' };
  const settings: Record<string, string> = { registry: publicUrl.href };
  const privateUrl = urls.length > 1 ? urls[0] : undefined;
  if (privateUrl !== undefined) {
    const scopes = scopesResolvedFrom(lock, privateUrl.href);
    const targetScope = scopeOf(name);
    const fromPrivate = tarballUrl?.startsWith(privateUrl.href) === true;
    if (fromPrivate && targetScope) scopes.add(targetScope);
    if (fromPrivate && !targetScope) settings.registry = privateUrl.href;
    for (const scope of scopes) settings[`${scope}:registry`] = privateUrl.href;
  }
  for (const [index, registry] of registries.entries()) {
    const url = urls[index];
    if (registry.credentials === undefined || url === undefined) continue;
    const auth = credentialSettings(url, registry.credentials);
    if (auth === undefined)
      return { cannot: `the credentials of ${url.origin}${url.pathname} use an Authorization scheme npm cannot send` };
    Object.assign(settings, auth);
  }
  return { settings };
}

/** package.json with every declaration of the dependency pinned to `version` (an `npm:` alias keeps its name). */
function pinned(manifest: Table, key: string, version: string): Table {
  const copy = structuredClone(manifest);
  for (const { key: section } of SECTIONS) {
    const table = copy[section];
    if (!isTable(table) || typeof table[key] !== 'string') continue;
    const value = table[key] as string;
    const alias = /^\s*npm:((?:@[^/@\s]+\/)?[^@\s]+)/.exec(value);
    table[key] = alias ? `npm:${alias[1]}@${version}` : version;
  }
  return copy;
}

/**
 * The root package as npm read the stand-in package.json (normalised: `bin` paths and the like as npm records them),
 * with the pinned declarations of `key` given back their values in `manifest`, the updated package.json.
 */
function unpinned(read: Table, manifest: Table, key: string): Table {
  const root = { ...read };
  for (const { key: section } of SECTIONS) {
    const declared = manifest[section];
    const table = root[section];
    if (isTable(declared) && isTable(table) && typeof declared[key] === 'string') root[section] = { ...table, [key]: declared[key] };
  }
  return root;
}

/**
 * `value` as JSON laid out like `text`: its indentation (the first indented line's) and line ending. npm writes the
 * lockfile with package.json's indentation and line ending (arborist's `Shrinkwrap.inferFormattingOptions`), so the
 * stand-in package.json keeps the real one's.
 */
function formattedLike(text: string, value: Table): string {
  const indent = /^([ \t]+)"/m.exec(text)?.[1] ?? 2;
  const newline = text.includes('\r\n') ? '\r\n' : '\n';
  return `${JSON.stringify(value, null, indent).replace(/\n/g, newline)}${newline}`;
}

/** The version a lockfile text locks for the top-level `key` (v2/v3 `packages`, else v1 `dependencies`) and its real name. */
function lockedTopLevel(lock: Table, key: string): { version: unknown; name: unknown } | undefined {
  const entry = isTable(lock.packages) ? lock.packages[`node_modules/${key}`] : undefined;
  if (isTable(entry)) return { version: entry.version, name: entry.name ?? key };
  const legacy = isTable(lock.dependencies) ? lock.dependencies[key] : undefined;
  if (!isTable(legacy) || typeof legacy.version !== 'string') return undefined;
  const alias = /^npm:((?:@[^/@]+\/)?[^@]+)@(.+)$/.exec(legacy.version);
  return alias ? { version: alias[2], name: alias[1] } : { version: legacy.version, name: key };
}

/** Maps what the resolver threw: network failures to {@link RegistryError}, resolution failures to a reason. */
function mapFailure(error: unknown, registryUrl: string): { needsResolution: string } {
  const failure = error as { code?: unknown; statusCode?: unknown; uri?: unknown; message?: unknown };
  const code = typeof failure.code === 'string' ? failure.code : undefined;
  const message = typeof failure.message === 'string' ? failure.message.split('\n')[0] : String(error);
  const url = typeof failure.uri === 'string' ? failure.uri.replace(/\/\/[^/@]*@/, '//') : registryUrl;
  const status = typeof failure.statusCode === 'number' ? failure.statusCode : undefined;
  const options = { cause: error, ...(status === undefined ? {} : { status }) };
  if (code === 'E401' || code === 'E403' || code === 'ENEEDAUTH') {
    throw new RegistryError('auth_failed', url, `npm resolver: ${message}`, options);
  }
  if (code !== undefined && (UNREACHABLE_CODES.has(code) || /^E5\d\d$/.test(code))) {
    throw new RegistryError('unreachable', url, `npm resolver: ${message}`, options);
  }
  if (code === undefined) throw error;
  return { needsResolution: `npm could not resolve the lockfile (${code}): ${message}` };
}

/**
 * Updates one npm lockfile (package-lock.json or npm-shrinkwrap.json,
 * https://docs.npmjs.com/cli/v10/configuring-npm/package-lock-json) with npm's own resolver, @npmcli/arborist, as
 * `npm install --package-lock-only --ignore-scripts` would: in a fresh temporary directory holding the current lockfile
 * and the updated package.json with the dependency pinned to the target version, arborist builds the ideal tree from
 * the lockfile, re-resolving only what the pin invalidates (the dependency, and the dependencies its new version
 * declares that nothing locked satisfies); every other locked entry keeps its version, `resolved` and `integrity`.
 * The stand-in package.json keeps the real one's indentation and line ending, which npm writes the lockfile with.
 * The root entry (`packages[""]`) is then written from the updated package.json itself, so the lockfile records the
 * manifest's range rather than the pin. Nothing is installed, no script runs, no node_modules is written; the
 * directory is removed afterwards, whatever happens.
 *
 * Lockfile versions: 2 and 3 stay as they are (arborist's `lockfileVersion` option); version 1 is converted to
 * version 3, as npm 9+ does on any install (arborist then fetches the metadata the old format lacks, every locked
 * package's manifest, from the registry). The result must lock `target.version` for the top-level dependency, else
 * `needsResolution`. A package.json with `workspaces` needs resolution: the workspaces' own package.json files are
 * not among the files read, and npm rewrites their lockfile entries from them.
 *
 * Registries: see `registrySettings` (the public one by default, the private one for the scopes it serves;
 * credentials sent only under their registry's host and path).
 * @returns `unchanged` when the lockfile already locks the target (npm then writes the same text); `needsResolution`
 *   when npm cannot resolve the pin (an unknown version: ETARGET, E404; a peer conflict: ERESOLVE) or the registries'
 *   credentials cannot be given to npm
 * @throws ManifestParseError when the lockfile or package.json does not parse
 * @throws RegistryError `unreachable` when a registry does not answer (or answers 5xx/429 after npm's retries),
 *   `auth_failed` when it refuses the credentials (401/403)
 */
export async function updatePackageLock(file: NpmLockfileName, request: LockfileRequest): Promise<PackageLockResult> {
  const lockText = request.files[file];
  const manifestText = request.updated['package.json'];
  if (lockText === undefined) return { unchanged: `no ${file}` };
  if (manifestText === undefined) return { needsResolution: 'no package.json' };
  const lock = parseJsonObject(file, lockText);
  if (lock.lockfileVersion !== undefined && typeof lock.lockfileVersion !== 'number') {
    throw new ManifestParseError(file, "'lockfileVersion' is not a number");
  }
  const manifest = parseJsonObject('package.json', manifestText);
  const entry = readPackageJson('package.json', manifestText).find((e) => e.name === request.use.name);
  if (entry === undefined) return { needsResolution: `package.json does not declare ${request.use.name}` };
  if (manifest.workspaces !== undefined) return { needsResolution: 'npm workspaces: the workspace packages are not among the files read' };
  const target = request.target.version;
  const before = lockedTopLevel(lock, entry.key);
  if (before?.version === target && before.name === entry.name) return { unchanged: `${file} already locks ${entry.name}@${target}` };

  const registries = registrySettings(request.registries, lock, entry.name, request.target.artifacts[0]?.url);
  if ('cannot' in registries) return { needsResolution: registries.cannot };
  const directory = await mkdtemp(join(tmpdir(), 'npm-lockfile-'));
  try {
    await writeFile(join(directory, 'package.json'), formattedLike(manifestText, pinned(manifest, entry.key, target)));
    await writeFile(join(directory, file), lockText);
    const arborist = new Arborist({
      path: directory,
      cache: join(directory, '.npm-cache'),
      packageLockOnly: true,
      ignoreScripts: true,
      audit: false,
      fund: false,
      save: true,
      workspacesEnabled: false,
      // v2 and v3 are written as they were, v1 (and a file without a version) as v3
      lockfileVersion: lock.lockfileVersion === 2 ? 2 : 3,
      ...FETCH_OPTIONS,
      ...registries.settings,
      ...(request.signal ? { signal: request.signal } : {}),
    });
    let text: string;
    try {
      const tree = await arborist.buildIdealTree();
      request.signal?.throwIfAborted();
      tree.package = unpinned(tree.package, manifest, entry.key);
      if (tree.meta === null) return { needsResolution: `npm did not load ${file}` };
      text = tree.meta.toString();
    } catch (error) {
      request.signal?.throwIfAborted();
      return mapFailure(error, registries.settings.registry ?? '');
    }
    const after = lockedTopLevel(parseJsonObject(file, text), entry.key);
    if (after?.version !== target || after.name !== entry.name) {
      return { needsResolution: `npm locked ${entry.name}@${String(after?.version ?? 'nothing')}, not ${target}` };
    }
    return text === lockText ? { unchanged: `${file} already locks ${entry.name}@${target}` } : { text };
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}
