import type { Caller, CodeHostView } from '@switchyard/code-host';

/**
 * The ids of every repo the caller's token can see on the code host now, in every account it reaches (the union of
 * `CodeHostView.listRepos` over `caller.accounts`: `GET /user/repos?affiliation=owner` for the user,
 * `GET /orgs/{org}/repos` for each organisation, listed in parallel). "Now" is as fresh as the view's cache
 * (`CODE_HOST_CACHE_TTL_MS`): a repo the caller lost access to stays visible to them at most that long.
 * Whatever release-svc shows a caller about repos (jobs, a notification's outcomes and counts) is bounded by this set,
 * so a member of an organisation never learns of its repos they cannot see.
 * @returns repo ids, unordered, without duplicates
 * @throws RateLimited when the token's budget of code-host calls is spent, or another caller-facing code-host error
 */
export async function visibleRepoIds(view: CodeHostView, caller: Caller): Promise<number[]> {
  const listings = await Promise.all(caller.accounts.map((account) => view.listRepos(caller, account)));
  return [...new Set(listings.flatMap((listing) => listing.repos.map((repo) => repo.id)))];
}
