import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { callerFacingError } from './errors.ts';
import type { CodeHost, CodeHostAccount, CodeHostRepo } from './port.ts';

/** Who is calling, as the code host says: the token's user and the accounts (user first, then organisations) it reaches. */
export interface Caller {
  /** The token itself, kept only in memory to call the code host on the caller's behalf; never logged or stored. */
  token: string;
  /** SHA-256 of the token (hex): the cache key. */
  tokenHash: string;
  user: CodeHostAccount;
  accounts: CodeHostAccount[];
}

/** Orders repos by name as people read them (case- and accent-insensitive), then by id; one collator for every comparison. */
const byName = new Intl.Collator('en', { sensitivity: 'base' });
const repoOrder = (a: CodeHostRepo, b: CodeHostRepo) => byName.compare(a.name, b.name) || a.id - b.id;

/** A repo listing and whether it was just fetched from the code host (rather than reused from the cache). */
export interface RepoListing {
  repos: CodeHostRepo[];
  fresh: boolean;
}

/**
 * The code host as a service sees it on a caller's behalf: every answer is cached per token hash for `ttlMs`, concurrent
 * identical look-ups share one request, and tokens are never used as keys. Failures are not cached, and reach the
 * caller as domain errors whose messages are written for that caller ({@link callerFacingError}).
 */
export class CodeHostView {
  private readonly callers: LRUCache<string, Omit<Caller, 'token'>, string>;
  private readonly listings: LRUCache<string, CodeHostRepo[], { token: string; account: CodeHostAccount }>;
  private readonly repos: LRUCache<string, CodeHostRepo | false, { token: string; repoId: number }>;

  constructor(host: CodeHost, ttlMs: number) {
    const ttl = Math.max(ttlMs, 1);
    this.callers = new LRUCache({
      max: 10_000,
      ttl,
      fetchMethod: async (tokenHash, _stale, { context: token }) => {
        const [user, accounts] = await Promise.all([host.currentUser(token), host.accounts(token)]);
        return { tokenHash, user, accounts };
      },
    });
    this.listings = new LRUCache({
      max: 500,
      ttl,
      fetchMethod: async (_key, _stale, { context }) => (await host.listRepos(context.token, context.account)).sort(repoOrder),
    });
    this.repos = new LRUCache({
      max: 50_000,
      ttl,
      fetchMethod: async (_key, _stale, { context }) => (await host.getRepo(context.token, context.repoId)) ?? false,
    });
  }

  /** The caller behind `token`. @throws Unauthenticated when the code host rejects the token, or another {@link callerFacingError} */
  async caller(token: string): Promise<Caller> {
    const tokenHash = createHash('sha256').update(token).digest('hex');
    const known = await this.callers.fetch(tokenHash, { context: token }).catch(rethrowForCaller);
    if (!known) throw new Error('code host returned no user');
    return { ...known, token };
  }

  /** Every repo of `account` the caller can see, sorted by name once when fetched. @throws a {@link callerFacingError} */
  async listRepos(caller: Caller, account: CodeHostAccount): Promise<RepoListing> {
    const key = `${caller.tokenHash}:${account.id}`;
    const cached = this.listings.get(key);
    if (cached) return { repos: cached, fresh: false };
    const repos = (await this.listings.fetch(key, { context: { token: caller.token, account } }).catch(rethrowForCaller)) ?? [];
    return { repos, fresh: true };
  }

  /** One repo as the caller sees it (with the caller's permission), or undefined. @throws a {@link callerFacingError} */
  async repo(caller: Caller, repoId: number): Promise<CodeHostRepo | undefined> {
    const found = await this.repos
      .fetch(`${caller.tokenHash}:${repoId}`, { context: { token: caller.token, repoId } })
      .catch(rethrowForCaller);
    return found || undefined;
  }
}

function rethrowForCaller(error: unknown): never {
  throw callerFacingError(error);
}
