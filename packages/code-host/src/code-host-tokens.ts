import { createHash } from 'node:crypto';
import { CodeHostError } from './errors.ts';
import { type GitHubApp, notInstalled } from './github/app.ts';

/**
 * Where a service's own code-host token comes from: one fixed token (`personal-token` mode: a bot account's token, for
 * self-hosting), or a GitHub App's installation on the account whose repositories are read and written (`app` mode:
 * https://docs.github.com/apps/creating-github-apps/authenticating-with-a-github-app/authenticating-as-a-github-app-installation).
 * Ask for a token just before the requests it is for: an installation's token expires within the hour.
 */
export interface CodeHostTokens {
  readonly mode: 'personal-token' | 'app';
  /**
   * The token for the repositories of account `owner` (a login).
   * @throws CodeHostError `not_found` when the App is not installed on `owner`, `forbidden` when its installation is
   * suspended; the code host's errors when a token cannot be made
   */
  forOwner(owner: string): Promise<string>;
  /**
   * A token for calls about no one account's repositories (the advisory database): in `app` mode, the first installation
   * that is not suspended.
   * @throws CodeHostError `not_found` when the App has no usable installation
   */
  anyToken(): Promise<string>;
  /**
   * What the code host's limits of `owner`'s repositories are counted by: `installation:<id>` (an installation's tokens
   * share its limits), or `token` for the one personal token.
   * @throws as {@link forOwner}
   */
  limitKey(owner: string): Promise<string>;
  /**
   * {@link limitKey} of the repositories a token handed out by {@link forOwner} or {@link anyToken} acts on:
   * `installation:<id>`, or `token` for the one personal token; a token of no known installation is its own key
   * (`token:<first 16 hex of its SHA-256>`, never the token itself).
   */
  limitKeyOfToken(token: string): string;
}

/** The limit key of a token of no known installation: a hash of it, never the token. */
const ownKey = (token: string) => `token:${createHash('sha256').update(token).digest('hex').slice(0, 16)}`;

/** `personal-token` mode: `token` for everything. */
export function personalToken(token: string): CodeHostTokens {
  const resolved = Promise.resolve(token);
  return {
    mode: 'personal-token',
    forOwner: () => resolved,
    anyToken: () => resolved,
    limitKey: () => Promise.resolve('token'),
    limitKeyOfToken: (given) => (given === token ? 'token' : ownKey(given)),
  };
}

/** `app` mode: the installation token of the account's installation of `app` (see {@link GitHubApp.installationToken}). */
export function appInstallationTokens(app: GitHubApp): CodeHostTokens {
  // The installation anyToken last used: its token is asked for again (cached) instead of listing installations each time.
  let lastAny: number | undefined;
  const installationFor = async (owner: string) => {
    const installation = await app.installationOf(owner);
    if (!installation) throw notInstalled(owner);
    return installation;
  };
  return {
    mode: 'app',
    async forOwner(owner) {
      const installation = await installationFor(owner);
      if (installation.suspended) {
        throw new CodeHostError('forbidden', `GitHub App: its installation on ${owner} is suspended`, { status: 403 });
      }
      return (await app.installationToken(installation.id)).token;
    },
    async limitKey(owner) {
      return `installation:${(await installationFor(owner)).id}`;
    },
    limitKeyOfToken(token) {
      const id = app.installationOfToken(token);
      return id === undefined ? ownKey(token) : `installation:${id}`;
    },
    async anyToken() {
      if (lastAny !== undefined) {
        try {
          return (await app.installationToken(lastAny)).token;
        } catch {
          lastAny = undefined;
        }
      }
      const usable = (await app.installations()).find((installation) => !installation.suspended);
      if (!usable) throw notInstalled('any account');
      lastAny = usable.id;
      return (await app.installationToken(usable.id)).token;
    },
  };
}
