import {
  type AccountResource,
  listRepos,
  type RepoResource,
  type ReposPage,
  readPages,
  type UpdateConfigResource,
} from './api/endpoints.ts';

/** The most pages of inactive repos read to find one repo or to search (100 repos a page). */
export const MAX_PAGES = 50;

/** A repo and its update configs. */
export interface RepoWithConfigs {
  repo: RepoResource;
  configs: UpdateConfigResource[];
}

/** The configs of `repo` among a page's `included` ones. */
export function configsOf(repo: RepoResource, included: UpdateConfigResource[]): UpdateConfigResource[] {
  const ids = new Set(repo.relationships['update-configs'].data.map((ref) => ref.id));
  return included.filter((config) => ids.has(config.id));
}

/**
 * Every repo of the account in one installation state whose name contains `search` (case-insensitive): page 1 of
 * active repos holds them all; inactive ones are read page by page, at most {@link MAX_PAGES}.
 * @returns the matches, and whether the pages ran out before the end of the list
 */
export async function searchRepos(
  account: AccountResource,
  state: 'active' | 'inactive',
  search: string,
): Promise<{ matches: RepoWithConfigs[]; truncated: boolean }> {
  const needle = search.trim().toLowerCase();
  const matches: RepoWithConfigs[] = [];
  let last: ReposPage | undefined;
  for await (const page of readPages((number) => listRepos(account, state, number), MAX_PAGES)) {
    last = page;
    for (const repo of page.items) {
      if (repo.attributes.name.toLowerCase().includes(needle)) matches.push({ repo, configs: configsOf(repo, page.configs) });
    }
  }
  return { matches, truncated: (last?.next ?? null) !== null };
}

/**
 * One repo of the account with its configs, looked up in the API's listings (there is no `GET /repos/{id}`): the active
 * repos first, then inactive pages (at most {@link MAX_PAGES}).
 * @returns undefined when the account has no such repo within those pages
 */
export async function findRepo(account: AccountResource, repoId: string): Promise<RepoWithConfigs | undefined> {
  for (const state of ['active', 'inactive'] as const) {
    for await (const page of readPages((number) => listRepos(account, state, number), MAX_PAGES)) {
      const repo = page.items.find((each) => each.id === repoId);
      if (repo) return { repo, configs: configsOf(repo, page.configs) };
    }
  }
  return undefined;
}
