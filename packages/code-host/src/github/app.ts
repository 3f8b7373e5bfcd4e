import { createAppAuth } from '@octokit/auth-app';
import { LRUCache } from 'lru-cache';
import { CodeHostError, isCodeHostError } from '../errors.ts';
import { clientSettings, type GitHubCodeHostOptions } from '../github-adapter.ts';
import type { CodeHostInstallation } from '../port.ts';
import { createOctokit, GitHubOctokit, octokitOptions } from './client.ts';
import { toCodeHostError } from './errors.ts';
import { toInstallation, unexpected } from './mapping.ts';

/** Configuration of {@link createGitHubApp}: the adapter's options, and the App's identity. */
export interface GitHubAppOptions extends GitHubCodeHostOptions {
  /** The App's id (`4242`) or client id (`Iv23…`, GitHub's recommendation): the JWT's `iss`. */
  appId: string;
  /** The App's private key, PEM (PKCS#1 `RSA PRIVATE KEY` as GitHub hands it out, or PKCS#8). */
  privateKey: string;
  /**
   * How long the list of the App's installations is used to find an account's installation before it is read again, in
   * ms; default 300 000. An account not on the list has it read again at once (at most every 10 s).
   */
  installationsMaxAgeMs?: number;
  /** The clock, epoch milliseconds (tests). */
  now?: () => number;
}

/** One installation of the App, as `GET /app/installations` lists it. */
export interface AppInstallation extends CodeHostInstallation {
  accountType: 'user' | 'org';
  /** Suspended by the account or GitHub: no token can be made for it, and GitHub sends no webhooks of it. */
  suspended: boolean;
}

/** An installation access token (`ghs_…`) and when it expires (epoch ms). */
export interface InstallationToken {
  token: string;
  installationId: number;
  expiresAt: number;
}

/**
 * The worker's side of a GitHub App (https://docs.github.com/apps/creating-github-apps/authenticating-with-a-github-app):
 * the App's JWT for app-level calls and installation access tokens for repositories, through `@octokit/auth-app`.
 */
export interface GitHubApp {
  /** The App's id or client id, as configured. */
  readonly appId: string;
  /**
   * Every installation of the App (`GET /app/installations`, all pages, with the App's JWT); the answer also replaces
   * the list {@link installationOf} looks in.
   * @throws CodeHostError (`unauthorized` for a key or id GitHub does not accept)
   */
  installations(): Promise<AppInstallation[]>;
  /**
   * The installation on account `owner` (a login, any case), from the list of installations (read again when older than
   * `installationsMaxAgeMs`, or when `owner` is not on it and it was read more than 10 s ago); undefined when the App is
   * not installed there.
   * @throws CodeHostError as {@link installations}
   */
  installationOf(owner: string): Promise<AppInstallation | undefined>;
  /**
   * A token of installation `installationId` (`POST /app/installations/{id}/access_tokens`). One is reused until only a
   * quarter of its life (at most 5 minutes) is left, then a new one is made before it is handed out, so no request is
   * sent with a token about to expire; concurrent callers share one request.
   * @throws CodeHostError (`not_found` for an installation that is gone, `forbidden` for a suspended one)
   */
  installationToken(installationId: number): Promise<InstallationToken>;
  /**
   * The installation a token this App made belongs to (the 10,000 tokens made last are remembered, so one handed out
   * before a newer one was made is still known); undefined for any other token.
   */
  installationOfToken(token: string): number | undefined;
  /**
   * The token to send in place of `token`, a token this App made and handed out earlier: while it is fresh, itself; once
   * its installation's token is renewed ({@link installationToken}: within a quarter of its life of expiring), the
   * installation's current one. With `rejected` (the code host answered 401 to `token`), a new one is made when `token`
   * is still the installation's current token. Any other token comes back as it is. So a caller that holds a token for
   * a long piece of work (a pull request's reads, registry lookups and writes) never sends it after it expired.
   * @throws CodeHostError as {@link installationToken} when a new token cannot be made
   */
  currentToken(token: string, rejected?: boolean): Promise<string>;
  /**
   * The ids of the repositories installation `installationId` reaches (`GET /installation/repositories`, all pages,
   * with its token): for a `selected` installation, its selection.
   * @throws CodeHostError as {@link installationToken}, and the code host's errors
   */
  installationRepositoryIds(installationId: number): Promise<number[]>;
  /** Forgets the list of installations, and the token of `installationId` when given: the code host said they changed. */
  forget(installationId?: number): void;
  /**
   * The login of the App's bot user, `<slug>[bot]` (`GET /app`'s `slug`, with the App's JWT): the `sender` of every
   * webhook about what the App's installation tokens did
   * (https://docs.github.com/apps/creating-github-apps/about-creating-github-apps/about-creating-github-apps#about-github-app-bot-users).
   * Read once, then kept.
   * @throws CodeHostError as {@link installations}
   */
  botLogin(): Promise<string>;
}

/** The longest a token is kept before its expiry: 5 minutes (GitHub's tokens live an hour). */
const MAX_REFRESH_MARGIN_MS = 5 * 60_000;
/** How often an account missing from the list of installations may have the list read again. */
const MISS_REREAD_MS = 10_000;

/**
 * A {@link GitHubApp} on GitHub's REST API (api.github.com, GitHub Enterprise Server, or the emulator): app-level calls
 * carry a fresh JWT (`@octokit/auth-app` signs it RS256, `iat` 30 s back, `exp` 10 minutes on, and corrects for the
 * server's clock when GitHub says `exp`/`iat` are off); retries and rate-limit handling as the adapter's clients.
 * @throws RangeError as `createGitHubCodeHost` does for bad options; Error when `appId` or `privateKey` is empty
 */
export function createGitHubApp(options: GitHubAppOptions): GitHubApp {
  const { appId, privateKey } = options;
  if (!appId || !privateKey) throw new Error('a GitHub App needs its id and its private key');
  const settings = clientSettings(options);
  const now = options.now ?? Date.now;
  const maxAgeMs = options.installationsMaxAgeMs ?? 300_000;
  const octokit = new GitHubOctokit({
    ...octokitOptions(settings, `app:${appId}`),
    authStrategy: createAppAuth,
    auth: { appId, privateKey },
  });
  const tokens = new Map<number, InstallationToken & { issuedAt: number }>();
  const minting = new Map<number, Promise<InstallationToken>>();
  let listed: { at: number; byLogin: Map<string, AppInstallation> } | undefined;
  let listing: Promise<AppInstallation[]> | undefined;
  let bot: Promise<string> | undefined;
  const installationOf = new LRUCache<string, number>({ max: 10_000 });

  async function readBotLogin(): Promise<string> {
    const what = 'GET /app';
    try {
      const slug = (await octokit.request('GET /app')).data?.slug;
      if (typeof slug !== 'string' || slug === '') throw unexpected(what);
      return `${slug}[bot]`;
    } catch (error) {
      throw toCodeHostError(error, what);
    }
  }

  async function readInstallations(): Promise<AppInstallation[]> {
    const what = 'GET /app/installations';
    try {
      const answer = await octokit.paginate('GET /app/installations', { per_page: 100 });
      const installations = answer.map((json) => toAppInstallation(json, what));
      listed = { at: now(), byLogin: new Map(installations.map((i) => [i.accountLogin.toLowerCase(), i])) };
      return installations;
    } catch (error) {
      throw toCodeHostError(error, what);
    }
  }

  function installations(): Promise<AppInstallation[]> {
    listing ??= readInstallations().finally(() => {
      listing = undefined;
    });
    return listing;
  }

  async function mint(installationId: number): Promise<InstallationToken> {
    const what = `POST /app/installations/${installationId}/access_tokens`;
    try {
      const issuedAt = now();
      const made = (await octokit.auth({ type: 'installation', installationId, refresh: true })) as { token: string; expiresAt: string };
      const token = { token: made.token, installationId, expiresAt: Date.parse(made.expiresAt), issuedAt };
      tokens.set(installationId, token);
      installationOf.set(made.token, installationId);
      return token;
    } catch (error) {
      const mapped = isCodeHostError(error) ? error : toCodeHostError(error, what);
      if (isCodeHostError(mapped, 'not_found')) listed = undefined;
      throw mapped;
    }
  }

  function installationToken(installationId: number): Promise<InstallationToken> {
    const held = tokens.get(installationId);
    if (held) {
      const margin = Math.min(MAX_REFRESH_MARGIN_MS, (held.expiresAt - held.issuedAt) / 4);
      if (held.expiresAt - now() > margin) return Promise.resolve(held);
    }
    let pending = minting.get(installationId);
    if (!pending) {
      pending = mint(installationId).finally(() => minting.delete(installationId));
      minting.set(installationId, pending);
    }
    return pending;
  }

  return {
    appId,
    installations,
    async installationOf(owner) {
      const key = owner.toLowerCase();
      const age = listed ? now() - listed.at : Number.POSITIVE_INFINITY;
      if (age > maxAgeMs) await installations();
      const found = listed?.byLogin.get(key);
      if (found || age <= MISS_REREAD_MS) return found;
      await installations();
      return listed?.byLogin.get(key);
    },
    installationToken,
    installationOfToken: (token) => installationOf.get(token),
    async currentToken(token, rejected = false) {
      const installationId = installationOf.get(token);
      if (installationId === undefined) return token;
      if (rejected && tokens.get(installationId)?.token === token) tokens.delete(installationId);
      return (await installationToken(installationId)).token;
    },
    async installationRepositoryIds(installationId) {
      const { token } = await installationToken(installationId);
      const what = 'GET /installation/repositories';
      try {
        // The App's client authenticates /app routes only: an installation's call goes through a client of its token.
        const repos = await createOctokit(token, settings).paginate('GET /installation/repositories', { per_page: 100 });
        return repos.map((repo) => repo.id);
      } catch (error) {
        throw toCodeHostError(error, what);
      }
    },
    forget(installationId) {
      listed = undefined;
      if (installationId !== undefined) tokens.delete(installationId);
    },
    botLogin() {
      bot ??= readBotLogin().catch((error: unknown) => {
        bot = undefined;
        throw error;
      });
      return bot;
    },
  };
}

/** An installation from `GET /app/installations`, with the account's type and whether it is suspended. */
function toAppInstallation(json: unknown, what: string): AppInstallation {
  const base = toInstallation(json, what);
  const raw = json as { account?: { type?: unknown }; suspended_at?: unknown };
  return { ...base, accountType: raw.account?.type === 'Organization' ? 'org' : 'user', suspended: typeof raw.suspended_at === 'string' };
}

/** The error of an account the App is not installed on: `not_found`, as a repository the token cannot see. */
export function notInstalled(owner: string): CodeHostError {
  return new CodeHostError('not_found', `GitHub App: not installed on ${owner}`, { status: 404 });
}
