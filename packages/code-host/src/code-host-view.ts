import { createHash } from 'node:crypto';
import { FixedWindowLimiter, RateLimited } from '@switchyard/service-kit';
import { LRUCache } from 'lru-cache';
import { type DirectoryFiles, filesInDirectoryListing, filesInTree, treePrefix } from './directory-files.ts';
import { CodeHostError, callerFacingError, isCodeHostError } from './errors.ts';
import type {
  CodeHost,
  CodeHostAccount,
  CodeHostInstallation,
  CodeHostRepo,
  DirectoryEntry,
  RepoRef,
  RepoTree,
  TokenCapability,
} from './port.ts';

/** Who is calling, as the code host says: the token's user and the accounts (user first, then organisations) it reaches. */
export interface Caller {
  /** The token itself, kept only in memory to call the code host on the caller's behalf; never logged or stored. */
  token: string;
  /** SHA-256 of the token (hex): the cache key. */
  tokenHash: string;
  user: CodeHostAccount;
  /** The user's own account first, then every organisation they are a member of. */
  accounts: CodeHostAccount[];
  /** What the token itself may do (its OAuth scopes, or per repository). */
  capability: TokenCapability;
  /**
   * The installations of the code host's app the user reaches, asked together with the user and cached with them; absent
   * when the code host has no app installations or refused to list them to this token (GitHub lists them only to a
   * GitHub App user access token: a personal access token is answered 403).
   */
  installations?: readonly CodeHostInstallation[];
}

/** Orders repos by name as people read them (case- and accent-insensitive), then by id; one collator for every comparison. */
const byName = new Intl.Collator('en', { sensitivity: 'base' });
const repoOrder = (a: CodeHostRepo, b: CodeHostRepo) => byName.compare(a.name, b.name) || a.id - b.id;

/** A repo listing and whether it was just fetched from the code host (rather than reused from the cache). */
export interface RepoListing {
  repos: CodeHostRepo[];
  fresh: boolean;
}

/** What {@link CodeHostView.directoryFiles} shows under a directory, and whether it was just fetched from the code host. */
export interface DirectoryFilesListing {
  listed: DirectoryFiles;
  fresh: boolean;
}

/** Options of {@link CodeHostView.directoryFiles}. */
export interface DirectoryFilesOptions {
  /** List the repository's whole tree (files in subdirectories, gitlinks) rather than the directory's own entries. */
  recursive: boolean;
  /** Ask the code host again even when an answer is cached (and cache the new one). */
  refresh?: boolean;
}

/** What a listing of {@link CodeHostView.directoryFiles} is fetched with. */
interface ListingContext {
  token: string;
  tokenHash: string;
  repo: RepoRef;
  ref: string;
  path: string;
}

/**
 * The most listing entries (tree entries, directory entries) the view keeps, per kind of listing: about 200 bytes
 * each, so at most some 20 MB each. A listing larger than that alone (a tree of more entries) is not kept.
 */
const MAX_LISTED_ENTRIES = 100_000;

/** A number of units per window: `limit` units per `windowMs` milliseconds; a `limit` of 0 means no limit. */
export interface WindowLimit {
  limit: number;
  windowMs: number;
}

/** Options of {@link CodeHostView}; everything but `ttlMs` has a default ({@link CODE_HOST_VIEW_DEFAULTS}). */
export interface CodeHostViewOptions {
  /** How long an answer of the code host (a caller, a repo listing, a repo, a directory or tree listing) is reused, in milliseconds; 0 keeps it 1 ms. */
  ttlMs: number;
  /**
   * How long a token the code host rejected (401) is answered `Unauthenticated` from memory, without asking again,
   * in milliseconds; 0: never remembered. Only the token's SHA-256 is kept.
   */
  rejectedTokenTtlMs?: number;
  /**
   * The budget of code-host calls per token: at most `limit` calls of the port (a cache miss; a list counts once
   * whatever its pages) per `windowMs`. Over it, a look-up is refused with `RateLimited` without the call.
   */
  tokenBudget?: WindowLimit;
  /**
   * Failed authentications per client address that `authenticate` allows per `windowMs`; past `limit` the
   * address is answered `RateLimited` (see `authenticate` for what still passes).
   */
  failedAuthentications?: WindowLimit;
  /** The clock of the limits and the caches, in milliseconds; default `Date.now` (tests move it by hand). */
  now?: () => number;
}

/**
 * The defaults of {@link CodeHostViewOptions}: a rejected token is remembered for 60 s; 20 failed authentications a
 * minute per client address; 5,000 code-host calls an hour per token, which is what GitHub grants a personal access
 * token (https://docs.github.com/en/rest/using-the-rest-api/rate-limits-for-the-rest-api) and leaves room for a client
 * that bulk-imports a thousand repos at once (each new repo is two calls: the repo, and the listing of the config's
 * directory that config-svc checks; one after a listing of the account's repos).
 */
export const CODE_HOST_VIEW_DEFAULTS = Object.freeze({
  rejectedTokenTtlMs: 60_000,
  tokenBudget: Object.freeze({ limit: 5_000, windowMs: 3_600_000 }),
  failedAuthentications: Object.freeze({ limit: 20, windowMs: 60_000 }),
});

/** The most tokens remembered as rejected; past that the least recently presented is forgotten (and asked about again). */
const MAX_REJECTED_TOKENS = 50_000;

/**
 * The code host as a service sees it on a caller's behalf: every answer is cached per token hash for `ttlMs`, concurrent
 * identical look-ups share one request, and tokens are never used as keys. Failures are not cached, and reach the
 * caller as domain errors whose messages are written for that caller ({@link callerFacingError}), with one exception: a
 * token the code host rejected is answered `Unauthenticated` from memory for `rejectedTokenTtlMs`, so presenting it
 * again costs the code host nothing. Each token has a budget of code-host calls (`tokenBudget`); over it a look-up is
 * refused with `RateLimited` (429 with `Retry-After`) without the call. The view also keeps the count of failed
 * authentications per client address that `authenticate` consults. All of it is in memory, per process, bounded.
 */
export class CodeHostView {
  /** The failed-authentication limit per client address that `authenticate` applies; undefined when off. */
  readonly failedAuthentications: FixedWindowLimiter | undefined;
  private readonly callers: LRUCache<string, Omit<Caller, 'token'>, string>;
  private readonly listings: LRUCache<string, CodeHostRepo[], { token: string; tokenHash: string; account: CodeHostAccount }>;
  private readonly repos: LRUCache<string, CodeHostRepo | false, { token: string; tokenHash: string; repoId: number }>;
  /** Trees (`false`: no such ref) by token hash, repo id and ref. */
  private readonly trees: LRUCache<string, RepoTree | false, ListingContext>;
  /** Directory listings (`false`: no such directory or ref) by token hash, repo id, ref and path. */
  private readonly directories: LRUCache<string, DirectoryEntry[] | false, ListingContext>;
  /** Rejected token hashes, with when (on `now`) they may be asked about again. */
  private readonly rejected: LRUCache<string, number> | undefined;
  private readonly rejectedTtlMs: number;
  private readonly budget: FixedWindowLimiter | undefined;
  private readonly now: () => number;
  private readonly host: CodeHost;

  /** @throws RangeError when a limit or window is negative or not an integer */
  constructor(host: CodeHost, options: CodeHostViewOptions) {
    this.host = host;
    const ttl = Math.max(options.ttlMs, 1);
    this.now = options.now ?? Date.now;
    // A clock given by a test drives the caches' TTLs too, read afresh every time (`ttlResolution: 0`).
    const clock = options.now ? { perf: { now: options.now }, ttlResolution: 0 } : {};
    this.rejectedTtlMs = options.rejectedTokenTtlMs ?? CODE_HOST_VIEW_DEFAULTS.rejectedTokenTtlMs;
    this.rejected = this.rejectedTtlMs > 0 ? new LRUCache({ max: MAX_REJECTED_TOKENS }) : undefined;
    this.budget = limiter(options.tokenBudget ?? CODE_HOST_VIEW_DEFAULTS.tokenBudget, this.now);
    this.failedAuthentications = limiter(options.failedAuthentications ?? CODE_HOST_VIEW_DEFAULTS.failedAuthentications, this.now);
    this.callers = new LRUCache({
      max: 10_000,
      ttl,
      ...clock,
      fetchMethod: async (tokenHash, _stale, { context: token }) => {
        this.spend(tokenHash, host.listInstallations ? 3 : 2);
        const [owner, organisations, installations] = await Promise.all([
          host.currentUser(token),
          host.organisations(token),
          installationsOf(host, token),
        ]);
        return {
          tokenHash,
          user: owner.account,
          accounts: [owner.account, ...organisations],
          capability: owner.capability,
          ...(installations === undefined ? {} : { installations }),
        };
      },
    });
    this.listings = new LRUCache({
      max: 500,
      ttl,
      ...clock,
      fetchMethod: async (_key, _stale, { context }) => {
        this.spend(context.tokenHash, 1);
        const listed = (await host.listRepos(context.token, context.account)).sort(repoOrder);
        // Each listed repo is, with its permission, what `GET /repositories/{id}` would say now: `repo()` needs no call.
        for (const repo of listed) this.repos.set(`${context.tokenHash}:${repo.id}`, repo);
        return listed;
      },
    });
    this.repos = new LRUCache({
      max: 50_000,
      ttl,
      ...clock,
      fetchMethod: async (_key, _stale, { context }) => {
        this.spend(context.tokenHash, 1);
        return (await host.getRepo(context.token, context.repoId)) ?? false;
      },
    });
    this.trees = new LRUCache({
      max: 1_000,
      maxSize: MAX_LISTED_ENTRIES,
      sizeCalculation: (tree) => (tree ? tree.entries.length : 0) + 1,
      ttl,
      ...clock,
      fetchMethod: async (_key, _stale, { context }) => {
        this.spend(context.tokenHash, 1);
        const tree = host.listTree ? await host.listTree(context.token, context.repo, context.ref) : undefined;
        return tree ?? false;
      },
    });
    this.directories = new LRUCache({
      max: 5_000,
      maxSize: MAX_LISTED_ENTRIES,
      sizeCalculation: (entries) => (entries ? entries.length : 0) + 1,
      ttl,
      ...clock,
      fetchMethod: async (_key, _stale, { context }) => {
        this.spend(context.tokenHash, 1);
        const entries = host.listDirectory ? await host.listDirectory(context.token, context.repo, context.path, context.ref) : undefined;
        return entries ?? false;
      },
    });
  }

  /**
   * The caller behind `token`: its user, accounts, capability and, when the code host lists them to this token, the
   * app installations it reaches (three code-host calls on a miss, two when the code host has no `listInstallations`).
   * @throws Unauthenticated when the code host rejects the token (or rejected it within `rejectedTokenTtlMs`: then
   *   without asking it again); RateLimited when the token's budget of code-host calls is spent; or another
   *   {@link callerFacingError}
   */
  async caller(token: string): Promise<Caller> {
    const tokenHash = hashOf(token);
    if (this.rejected) {
      const until = this.rejected.get(tokenHash);
      if (until !== undefined && until > this.now()) {
        throw callerFacingError(new CodeHostError('unauthorized', 'the code host rejected this token a moment ago', { status: 401 }));
      }
    }
    const known = await this.callers.fetch(tokenHash, { context: token }).catch((error: unknown) => {
      if (this.rejected && isCodeHostError(error, 'unauthorized')) this.rejected.set(tokenHash, this.now() + this.rejectedTtlMs);
      return rethrowForCaller(error);
    });
    if (!known) throw new Error('code host returned no user');
    return { ...known, token };
  }

  /**
   * The caller behind `token` when the code host vouched for it within `ttlMs` and the answer is still cached;
   * `undefined` otherwise. Never calls the code host.
   */
  cachedCaller(token: string): Caller | undefined {
    const known = this.callers.peek(hashOf(token));
    return known ? { ...known, token } : undefined;
  }

  /**
   * Every repo of `account` the caller can see, sorted by name once when fetched.
   * @throws RateLimited when the token's budget of code-host calls is spent, or a {@link callerFacingError}
   */
  async listRepos(caller: Caller, account: CodeHostAccount): Promise<RepoListing> {
    const key = `${caller.tokenHash}:${account.id}`;
    const cached = this.listings.get(key);
    if (cached) return { repos: cached, fresh: false };
    const context = { token: caller.token, tokenHash: caller.tokenHash, account };
    const repos = (await this.listings.fetch(key, { context }).catch(rethrowForCaller)) ?? [];
    return { repos, fresh: true };
  }

  /**
   * One repo as the caller sees it (with the caller's permission), or undefined: from a listing of this token that
   * showed it within `ttlMs` (see {@link listRepos}) without a call, else asked for (and cached for `ttlMs`).
   * @throws RateLimited when the token's budget of code-host calls is spent, or a {@link callerFacingError}
   */
  async repo(caller: Caller, repoId: number): Promise<CodeHostRepo | undefined> {
    const found = await this.repos
      .fetch(`${caller.tokenHash}:${repoId}`, { context: { token: caller.token, tokenHash: caller.tokenHash, repoId } })
      .catch(rethrowForCaller);
    return found || undefined;
  }

  /**
   * What the caller sees under `directory` of `repo` at `ref` (see {@link DirectoryFiles}): with `recursive`, the
   * repository's tree at `ref` cut to the directory (one `listTree` call per token, repo and ref, shared by every
   * directory), else the directory's own files (one `listDirectory` call per token, repo, ref and directory, or none
   * when the tree of the repo at `ref` is cached and whole). Cached for `ttlMs` like the rest; `refresh` asks again.
   * @returns undefined when the code host has no listing of that kind
   * @throws RateLimited when the token's budget of code-host calls is spent, or a {@link callerFacingError}
   */
  async directoryFiles(
    caller: Caller,
    repo: Pick<CodeHostRepo, 'id' | 'fullName'>,
    directory: string,
    ref: string,
    { recursive, refresh = false }: DirectoryFilesOptions,
  ): Promise<DirectoryFilesListing | undefined> {
    if (recursive ? !this.host.listTree : !this.host.listDirectory) return undefined;
    const [owner = '', name = ''] = repo.fullName.split('/');
    const path = treePrefix(directory).replace(/\/$/, '');
    const context: ListingContext = { token: caller.token, tokenHash: caller.tokenHash, repo: { owner, name }, ref, path };
    const treeKey = `${caller.tokenHash}\0${repo.id}\0${ref}`;
    if (recursive) {
      const fresh = refresh || !this.trees.has(treeKey);
      const tree = await this.trees.fetch(treeKey, { context, forceRefresh: refresh }).catch(rethrowForCaller);
      return { listed: filesInTree(tree || undefined, directory), fresh };
    }
    const cachedTree = refresh ? undefined : this.trees.get(treeKey);
    if (cachedTree && !cachedTree.truncated) return { listed: ownFiles(filesInTree(cachedTree, directory)), fresh: false };
    const key = `${treeKey}\0${path}`;
    const fresh = refresh || !this.directories.has(key);
    const entries = await this.directories.fetch(key, { context, forceRefresh: refresh }).catch(rethrowForCaller);
    return { listed: filesInDirectoryListing(entries || undefined), fresh };
  }

  /**
   * The caller's role in the organisation `org` (`admin`, `member`, or undefined when not an active member), asked
   * afresh every time (a role decides who may change an account's settings: a revoked admin must not keep it for a TTL).
   * @throws RateLimited when the token's budget of code-host calls is spent, or a {@link callerFacingError}
   */
  async organisationRole(caller: Caller, org: CodeHostAccount): Promise<'admin' | 'member' | undefined> {
    this.spend(caller.tokenHash, 1);
    return this.host.organisationRole(caller.token, org).catch(rethrowForCaller);
  }

  /** Spends `calls` of the budget of the token whose hash is `tokenHash`. @throws RateLimited when they do not fit */
  private spend(tokenHash: string, calls: number): void {
    const retryAfterSeconds = this.budget?.take(tokenHash, calls);
    if (retryAfterSeconds === undefined) return;
    throw new RateLimited('This access token has used its share of calls to the code host for now; retry later', { retryAfterSeconds });
  }
}

/**
 * The app installations `token` reaches, or undefined when `host` has none to list or refuses to list them to this token
 * (`forbidden`, `not_found`); any other failure rejects.
 */
async function installationsOf(host: CodeHost, token: string): Promise<CodeHostInstallation[] | undefined> {
  if (!host.listInstallations) return undefined;
  try {
    return await host.listInstallations(token);
  } catch (error) {
    if (isCodeHostError(error, 'forbidden') || isCodeHostError(error, 'not_found')) return undefined;
    throw error;
  }
}

/** `listed` cut to the directory's own files, as a listing of the directory alone shows them. */
function ownFiles(listed: DirectoryFiles): DirectoryFiles {
  const own: DirectoryFiles = { files: [], sizes: {}, gitlinks: new Map(), truncated: false };
  for (const path of listed.files) {
    if (path.includes('/')) continue;
    own.files.push(path);
    const size = listed.sizes[path];
    if (size !== undefined) own.sizes[path] = size;
  }
  return own;
}

function rethrowForCaller(error: unknown): never {
  throw callerFacingError(error);
}

/** SHA-256 of `token`, hex: the only form in which a token is ever a key. */
function hashOf(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A limiter for `limit`, or undefined when its `limit` is 0 (no limit). @throws RangeError on a negative or fractional value */
function limiter({ limit, windowMs }: WindowLimit, now: () => number): FixedWindowLimiter | undefined {
  if (limit === 0) return undefined;
  return new FixedWindowLimiter({ limit, windowMs, now });
}
