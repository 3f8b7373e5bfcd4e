import { useEffect, useState } from 'preact/hooks';
import { useAccounts } from './accounts.ts';
import { listRepos } from './api/endpoints.ts';

/**
 * `owner/name` of the active repos of every account the token reaches (jobs, runs and notifications name repos by id;
 * only active repos have them), read once per login: page 1 of each account's active repos holds them all.
 */
let cached: Promise<Map<string, string>> | undefined;
let cachedFor: string | undefined;

/** Repo names by id, filled once the listings arrive (an empty map until then). */
export function useRepoNames(): Map<string, string> {
  const { accounts } = useAccounts();
  const [names, setNames] = useState<Map<string, string>>(() => new Map());
  useEffect(() => {
    if (!accounts) return;
    const key = accounts.map((account) => account.id).join(',');
    if (!cached || cachedFor !== key) {
      cachedFor = key;
      cached = Promise.all(accounts.map((account) => listRepos(account, 'active', 1).catch(() => undefined))).then((pages) => {
        const map = new Map<string, string>();
        pages.forEach((page, index) => {
          const login = accounts[index]?.attributes['github-login'];
          for (const repo of page?.items ?? []) map.set(repo.id, `${login}/${repo.attributes.name}`);
        });
        return map;
      });
    }
    let live = true;
    cached.then((map) => live && setNames(map));
    return () => {
      live = false;
    };
  }, [accounts]);
  return names;
}

/** Forgets the names (a config was created: its repo became active). */
export function refreshRepoNames(): void {
  cached = undefined;
}
