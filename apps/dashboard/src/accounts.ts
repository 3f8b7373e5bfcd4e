import { useEffect, useState } from 'preact/hooks';
import { type AccountResource, listAccounts } from './api/endpoints.ts';

/** The token's accounts, loaded once per login and shared by every view (`GET /accounts`). */
let cached: Promise<AccountResource[]> | undefined;
const listeners = new Set<() => void>();

/** Forgets the loaded accounts (log out, or an account's settings changed). */
export function refreshAccounts(): void {
  cached = undefined;
  for (const listener of listeners) listener();
}

/** Replaces one account in the shared list with its changed version (after `PATCH /accounts/{id}`). */
export function updateCachedAccount(account: AccountResource): void {
  cached = (cached ?? Promise.resolve([])).then((accounts) => accounts.map((each) => (each.id === account.id ? account : each)));
  for (const listener of listeners) listener();
}

/** The token's accounts, the error of loading them, or neither while they load. */
export function useAccounts(): { accounts: AccountResource[] | undefined; error: unknown } {
  const [state, setState] = useState<{ accounts: AccountResource[] | undefined; error: unknown }>({
    accounts: undefined,
    error: undefined,
  });
  const [version, setVersion] = useState(0);
  useEffect(() => {
    const listener = () => setVersion((n) => n + 1);
    listeners.add(listener);
    return () => listeners.delete(listener);
  }, []);
  // `version` tells that the shared list changed.
  useEffect(() => {
    let live = true;
    cached ??= listAccounts();
    const mine = cached;
    mine.then(
      (accounts) => live && setState({ accounts, error: undefined }),
      (error: unknown) => {
        if (cached === mine) cached = undefined;
        if (live) setState({ accounts: undefined, error });
      },
    );
    return () => {
      live = false;
    };
  }, [version]);
  return state;
}

/** One of the token's accounts by id, once loaded. */
export function useAccount(id: string): { account: AccountResource | undefined; error: unknown; loaded: boolean } {
  const { accounts, error } = useAccounts();
  return { account: accounts?.find((each) => each.id === id), error, loaded: accounts !== undefined };
}
