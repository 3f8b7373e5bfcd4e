import { useState } from 'preact/hooks';
import { refreshAccounts, useAccount } from '../accounts.ts';
import { listRepos } from '../api/endpoints.ts';
import { LoadError, Loading, Pager, PageTitle } from '../components/common.tsx';
import { Table } from '../components/Table.tsx';
import { Name } from '../components/text.tsx';
import { count } from '../format.ts';
import { useResource } from '../hooks.ts';
import { configsOf, type RepoWithConfigs, searchRepos } from '../repos.ts';
import { Link, navigate, useLocation } from '../router.tsx';

/**
 * An account's repos, active (with update configs) or inactive, paged as the API pages them (100 inactive repos a
 * page), and searchable by name (a search reads every page of the chosen state, up to 5,000 repos).
 */
export function Repos({ accountId }: { accountId: string }) {
  const { account, error: accountError, loaded } = useAccount(accountId);
  const { search } = useLocation();
  const state = search.get('state') === 'inactive' ? 'inactive' : 'active';
  const page = Math.max(1, Number(search.get('page')) || 1);
  const q = search.get('q') ?? '';
  const [typed, setTyped] = useState(q);

  const repos = useResource(async (): Promise<{ rows: RepoWithConfigs[]; next: number | null; truncated: boolean }> => {
    if (!account) return { rows: [], next: null, truncated: false };
    if (q.trim() !== '') {
      const found = await searchRepos(account, state, q);
      return { rows: found.matches, next: null, truncated: found.truncated };
    }
    const answer = await listRepos(account, state, page);
    return { rows: answer.items.map((repo) => ({ repo, configs: configsOf(repo, answer.configs) })), next: answer.next, truncated: false };
  }, [account?.id, state, page, q]);

  const go = (changes: Record<string, string | undefined>) => {
    const params = new URLSearchParams({ state, page: String(page), q });
    for (const [name, value] of Object.entries(changes)) {
      if (value === undefined || value === '') params.delete(name);
      else params.set(name, value);
    }
    if (params.get('page') === '1') params.delete('page');
    navigate(`/accounts/${accountId}/repos?${params}`);
  };

  const name = account?.attributes['github-login'] ?? accountId;
  return (
    <section>
      <PageTitle title={`Repos of ${name}`}>Repos of {name}</PageTitle>
      <LoadError what="the account" error={accountError} onRetry={refreshAccounts} />
      {loaded && !account && <p>No account {accountId} is reachable with this token.</p>}
      <nav aria-label="Installation state" class="tabs">
        <Link href={`/accounts/${accountId}/repos?state=active`} aria-current={state === 'active' ? 'page' : undefined}>
          Active
        </Link>
        <Link href={`/accounts/${accountId}/repos?state=inactive`} aria-current={state === 'inactive' ? 'page' : undefined}>
          Inactive
        </Link>
      </nav>
      <search>
        <form
          class="row"
          onSubmit={(event) => {
            event.preventDefault();
            go({ q: typed.trim(), page: '1' });
          }}
        >
          <div class="field">
            <label for="repo-search">Search {state} repos by name</label>
            <input id="repo-search" type="search" value={typed} onInput={(event) => setTyped(event.currentTarget.value)} />
          </div>
          <button type="submit">Search</button>
          {q && (
            <button
              type="button"
              class="secondary"
              onClick={() => {
                setTyped('');
                go({ q: undefined, page: '1' });
              }}
            >
              Clear search
            </button>
          )}
        </form>
      </search>
      <LoadError what={`the ${state} repos`} error={repos.error} busy={repos.loading} onRetry={repos.reload} />
      {repos.loading && !repos.data && !repos.error && <Loading what="repos" />}
      {repos.data && (
        <>
          <p role="status">
            {q ? `${count(repos.data.rows.length, 'repo')} match “${q}”` : `${count(repos.data.rows.length, 'repo')} on this page`}
            {repos.data.truncated && ' (only the first 5,000 repos were searched)'}
          </p>
          <Table
            caption={`${state} repos of ${name}`}
            captionHidden
            columns={[
              { label: 'Repo' },
              { label: 'Visibility' },
              { label: 'Language' },
              { label: 'Default branch' },
              { label: 'Update configs' },
            ]}
            rows={repos.data.rows.map(({ repo, configs }) => ({
              key: repo.id,
              header: (
                <Link href={`/accounts/${accountId}/repos/${repo.id}`}>
                  <Name value={repo.attributes.name} />
                </Link>
              ),
              cells: [
                repo.attributes.private ? 'private' : 'public',
                repo.attributes['primary-language'] ?? '—',
                <Name value={repo.attributes['default-branch']} />,
                configs.map((config) => config.attributes['package-manager']).join(', ') || '—',
              ],
            }))}
          />
          {!q && <Pager page={page} next={repos.data.next} onPage={(to) => go({ page: String(to) })} label="Repo pages" />}
        </>
      )}
    </section>
  );
}
