import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LockfileRegistry, LockfileRequest } from '../ecosystem.ts';
import { ManifestParseError } from '../errors.ts';
import { type RegistryCredentials, RegistryError } from '../registry-data.ts';
import { isTable, parseJsonObject, type Table } from '../shared/parse.ts';
import { type PackageJsonEntry, readPackageJson, SECTIONS } from './package-json.ts';
import { type NpmManifest, ROOT_MANIFEST, rootScope } from './workspace.ts';

/** The part of @npmcli/arborist (https://github.com/npm/cli/tree/latest/workspaces/arborist) used here. */
interface ArboristNode {
  package: Table;
  meta: { toString(): string } | null;
  /** Every node of the tree by location (`packages/a` for a workspace member's folder). */
  inventory: Map<string, ArboristNode>;
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

/**
 * package.json with every declaration of the dependency pinned to `version` (an `npm:` alias keeps its name), and, in
 * the root, an npm `overrides` entry of the dependency written as one of those declarations (npm requires an override
 * of a direct dependency to be the dependency's own spec, EOVERRIDE) pinned alike.
 */
function pinned(manifest: Table, key: string, name: string, version: string): Table {
  const copy = structuredClone(manifest);
  const declared = new Set<string>();
  for (const { key: section } of SECTIONS) {
    const table = copy[section];
    if (!isTable(table) || typeof table[key] !== 'string') continue;
    const value = table[key] as string;
    declared.add(value);
    const alias = /^\s*npm:((?:@[^/@\s]+\/)?[^@\s]+)/.exec(value);
    table[key] = alias ? `npm:${alias[1]}@${version}` : version;
  }
  const overrides = copy.overrides;
  if (isTable(overrides)) {
    for (const [entry, value] of Object.entries(overrides)) {
      if (typeof value === 'string' && (entry === name || entry.startsWith(`${name}@`)) && declared.has(value)) overrides[entry] = version;
    }
  }
  return copy;
}

/**
 * A package as npm read its stand-in package.json (normalised: `bin` paths and the like as npm records them), with the
 * pinned declarations of `key` given back their values in `manifest`, the updated package.json (and its `overrides`).
 */
function unpinned(read: Table, manifest: Table, key: string): Table {
  const root = { ...read };
  for (const { key: section } of SECTIONS) {
    const declared = manifest[section];
    const table = root[section];
    if (isTable(declared) && isTable(table) && typeof declared[key] === 'string') root[section] = { ...table, [key]: declared[key] };
  }
  if (manifest.overrides !== undefined) root.overrides = manifest.overrides;
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

/**
 * The version a lockfile text locks for `key` as the manifest of `directory` (`` for the root) declares it, and its real
 * name: v2/v3 `packages["<directory>/node_modules/<key>"]` for a workspace member, else the hoisted
 * `packages["node_modules/<key>"]`, else v1 `dependencies`.
 */
function lockedFor(lock: Table, key: string, directory: string): { version: unknown; name: unknown } | undefined {
  const packages = isTable(lock.packages) ? lock.packages : undefined;
  const entry = (directory === '' ? undefined : packages?.[`${directory}/node_modules/${key}`]) ?? packages?.[`node_modules/${key}`];
  if (isTable(entry)) return { version: entry.version, name: entry.name ?? key };
  const legacy = isTable(lock.dependencies) ? lock.dependencies[key] : undefined;
  if (!isTable(legacy) || typeof legacy.version !== 'string') return undefined;
  const alias = /^npm:((?:@[^/@]+\/)?[^@]+)@(.+)$/.exec(legacy.version);
  return alias ? { version: alias[2], name: alias[1] } : { version: legacy.version, name: key };
}

/** The folders a v2/v3 lockfile holds packages of outside node_modules (workspace members, `file:` folders), sorted. */
function lockedFolders(lock: Table): string[] {
  if (!isTable(lock.packages)) return [];
  return Object.keys(lock.packages)
    .filter((location) => location !== '' && !location.startsWith('node_modules/') && !location.includes('/node_modules/'))
    .sort();
}

/** A manifest of the lockfile's scope that declares the dependency: where, its text, and its entry. */
interface Declaring {
  manifest: NpmManifest;
  entry: PackageJsonEntry;
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
 * package's manifest, from the registry). The result must lock `target.version` for every declaration, else
 * `needsResolution`.
 *
 * Workspaces (https://docs.npmjs.com/cli/v10/using-npm/workspaces): the lockfile locks the root and the members that do
 * not hold their own lockfile ({@link rootScope}). Each member's updated package.json is written in its folder, its
 * declarations pinned like the root's, and arborist runs with workspaces enabled; each member's entry
 * (`packages["packages/a"]`) is then written from its updated package.json, and the target must be locked where npm
 * resolves each declaration (`packages/a/node_modules/<name>`, else hoisted). A lockfile holding a workspace folder
 * whose package.json is not among the files (a member deeper than `files.related` reads) needs resolution rather than
 * losing it, and so does a result whose set of folders differs. npm `overrides` are applied by arborist itself; one of
 * the dependency written as its spec is pinned along with it (npm requires the same spec).
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
  const manifestText = request.updated[ROOT_MANIFEST];
  if (lockText === undefined) return { unchanged: `no ${file}` };
  if (manifestText === undefined) return { needsResolution: 'no package.json' };
  const lock = parseJsonObject(file, lockText);
  if (lock.lockfileVersion !== undefined && typeof lock.lockfileVersion !== 'number') {
    throw new ManifestParseError(file, "'lockfileVersion' is not a number");
  }
  const manifest = parseJsonObject(ROOT_MANIFEST, manifestText);
  const scope = rootScope(request.updated);
  const declaring: Declaring[] = scope.flatMap((m) => {
    const entry = readPackageJson(m.path, m.text).find((e) => e.name === request.use.name);
    return entry ? [{ manifest: m, entry }] : [];
  });
  const first = declaring[0];
  if (first === undefined) return { needsResolution: `package.json does not declare ${request.use.name}` };
  const workspaces = manifest.workspaces !== undefined;
  const members = scope.filter((m) => m.directory !== '');
  if (workspaces) {
    const known = new Set(members.map((m) => m.directory));
    const missing = lockedFolders(lock).filter((folder) => !known.has(folder) && !folder.startsWith('../'));
    if (missing.length > 0) {
      return { needsResolution: `npm workspaces: ${missing.map((f) => `${f}/package.json`).join(', ')} not among the files read` };
    }
  }
  const target = request.target.version;
  const locksTarget = (text: Table) =>
    declaring.every(({ manifest: m, entry }) => {
      const locked = lockedFor(text, entry.key, m.directory);
      return locked?.version === target && locked.name === entry.name;
    });
  if (locksTarget(lock)) return { unchanged: `${file} already locks ${first.entry.name}@${target}` };

  const registries = registrySettings(request.registries, lock, first.entry.name, request.target.artifacts[0]?.url);
  if ('cannot' in registries) return { needsResolution: registries.cannot };
  const directory = await mkdtemp(join(tmpdir(), 'npm-lockfile-'));
  try {
    const stand = (m: NpmManifest) => {
      const parsed = parseJsonObject(m.path, m.text);
      const key = declaring.find((d) => d.manifest === m)?.entry.key;
      return { parsed, key, text: key === undefined ? m.text : formattedLike(m.text, pinned(parsed, key, first.entry.name, target)) };
    };
    const written = new Map(scope.map((m) => [m, stand(m)] as const));
    for (const [m, { text }] of written) {
      if (m.directory !== '') await mkdir(join(directory, m.directory), { recursive: true });
      await writeFile(join(directory, m.path), text);
    }
    await writeFile(join(directory, file), lockText);
    const arborist = new Arborist({
      path: directory,
      cache: join(directory, '.npm-cache'),
      packageLockOnly: true,
      ignoreScripts: true,
      audit: false,
      fund: false,
      save: true,
      workspacesEnabled: workspaces,
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
      for (const [m, { parsed, key }] of written) {
        if (key === undefined) continue;
        const node = m.directory === '' ? tree : tree.inventory.get(m.directory);
        if (node === undefined) return { needsResolution: `npm did not load the workspace ${m.directory}` };
        node.package = unpinned(node.package, parsed, key);
      }
      if (tree.meta === null) return { needsResolution: `npm did not load ${file}` };
      text = tree.meta.toString();
    } catch (error) {
      request.signal?.throwIfAborted();
      return mapFailure(error, registries.settings.registry ?? '');
    }
    const after = parseJsonObject(file, text);
    if (!locksTarget(after)) {
      const locked = declaring.map(({ manifest: m, entry }) => String(lockedFor(after, entry.key, m.directory)?.version ?? 'nothing'));
      return { needsResolution: `npm locked ${first.entry.name}@${[...new Set(locked)].join(', ')}, not ${target}` };
    }
    if (workspaces && lockedFolders(after).join('\n') !== lockedFolders(lock).join('\n')) {
      return { needsResolution: `npm changed the workspace folders the lockfile holds (${lockedFolders(after).join(', ')})` };
    }
    return text === lockText ? { unchanged: `${file} already locks ${first.entry.name}@${target}` } : { text };
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}
