import type { CodeHostTokens, GitHubApp } from '@switchyard/code-host';
import type { Kysely } from 'kysely';
import type { ReleaseDatabase } from '../db/schema.ts';
import { findLiveInstallationIdOf } from './app-installation.repository.ts';

/** How often the App's list of installations may be read again for one account's recorded installation that it lacks. */
const REREAD_EVERY_MS = 10_000;

/**
 * App mode's tokens kept in step with the installations this service has recorded (`release.app_installation`, from
 * the `installation` webhooks and the reconciliation): before a token of account `owner` is handed out, when the
 * installation recorded for it is not the one the App's list of installations names (that list is read at most every
 * 5 minutes), the list is read again first (at most every 10 s for one account's recorded installation: a webhook's record ahead of
 * the list costs one read, not one each token). An App uninstalled and installed again
 * thus gets its new installation's token at once, not the deleted installation's, which GitHub refuses with 401.
 * Everything else is `tokens`'.
 */
export function recordedInstallationTokens(db: Kysely<ReleaseDatabase>, app: GitHubApp, tokens: CodeHostTokens): CodeHostTokens {
  const rereadAt = new Map<string, number>();
  const inStep = async (owner: string) => {
    const recorded = await findLiveInstallationIdOf(db, owner);
    if (recorded === undefined || (await app.installationOf(owner))?.id === recorded) return;
    const key = `${owner.toLowerCase()} ${recorded}`;
    if (Date.now() - (rereadAt.get(key) ?? 0) < REREAD_EVERY_MS) return;
    rereadAt.set(key, Date.now());
    app.forget();
  };
  return {
    mode: tokens.mode,
    async forOwner(owner) {
      await inStep(owner);
      return tokens.forOwner(owner);
    },
    anyToken: () => tokens.anyToken(),
    async limitKey(owner) {
      await inStep(owner);
      return tokens.limitKey(owner);
    },
    limitKeyOfToken: (token) => tokens.limitKeyOfToken(token),
  };
}
