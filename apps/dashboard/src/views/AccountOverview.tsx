import { OPEN_PULL_REQUEST_LIMIT } from '@switchyard/contracts/vocabulary';
import { refreshAccounts, useAccount } from '../accounts.ts';
import { BarChart } from '../charts/BarChart.tsx';
import { RunTimeline } from '../charts/RunTimeline.tsx';
import { LoadError, Loading, PageTitle } from '../components/common.tsx';
import { count } from '../format.ts';
import { useResource } from '../hooks.ts';
import { loadOverview } from '../overview.ts';
import { Link } from '../router.tsx';

/** An account at a glance: its runs over 30 days, open update pull requests per repo, the dependencies most often behind. */
export function AccountOverview({ accountId }: { accountId: string }) {
  const { account, error: accountError, loaded } = useAccount(accountId);
  const overview = useResource(async () => (account ? loadOverview(account) : undefined), [account?.id]);
  const name = account?.attributes['github-login'] ?? accountId;
  const o = overview.data;
  return (
    <section>
      <PageTitle title={name}>{name}</PageTitle>
      <LoadError what="the account" error={accountError} onRetry={refreshAccounts} />
      <LoadError
        what="the overview (the account's repos, update runs and pull-request jobs)"
        error={overview.error}
        busy={overview.loading}
        onRetry={overview.reload}
      />
      {loaded && !account && <p>No account {accountId} is reachable with this token.</p>}
      <p class="links">
        <Link href={`/accounts/${accountId}/repos`}>Repos</Link>
        <Link href={`/accounts/${accountId}/repos?state=inactive`}>Inactive repos</Link>
        <Link href="/pull-request-jobs">Pull-request jobs</Link>
        <Link href={`/accounts/${accountId}/credentials`}>Registry credentials</Link>
        <Link href="/release-notifications">Send a release notification</Link>
      </p>
      {overview.loading && !o && !overview.error && <Loading what="the overview" />}
      {o && (
        <>
          <p>
            {count(o.activeRepos, 'active repo')}, {count(o.configs, 'update config')}.
            {o.partial && ' The pictures cover the first 40 configs and 500 jobs.'}
          </p>
          <div class="charts">
            <RunTimeline id="timeline" days={o.timeline} />
            <BarChart
              id="open-pulls"
              title={`Open update pull requests per repo${account?.attributes['limit-open-pull-requests'] ? `, against the limit (${OPEN_PULL_REQUEST_LIMIT} per config)` : ' (no limit set)'}`}
              unit="Repo"
              bars={o.openPullRequests}
              series={[{ name: 'open pull requests', className: 'series-open' }]}
            />
            <BarChart
              id="behind"
              title="Dependencies most often behind (repos with an update not merged yet)"
              unit="Dependency"
              bars={o.behind}
              series={[{ name: 'repos behind', className: 'series-behind' }]}
            />
          </div>
        </>
      )}
    </section>
  );
}
