import type { PullRequestJobStatus } from '@switchyard/contracts';
import { PULL_REQUEST_JOB_STATUSES } from '@switchyard/contracts/vocabulary';
import { useState } from 'preact/hooks';
import { type JobFilters, listJobs, type PullRequestJobResource } from '../api/endpoints.ts';
import { ErrorMessage, Loading, Pager, PageTitle, Status } from '../components/common.tsx';
import { count, when } from '../format.ts';
import { useResource } from '../hooks.ts';
import { useRepoNames } from '../repo-names.ts';
import { navigate, useLocation } from '../router.tsx';

const WAITING = new Set(['pending', 'running', 'queued-limit']);

/** A job's pull request: a link to it on the code host once opened, else why there is none yet. */
export function PullRequestLink({
  job,
}: {
  job: PullRequestJobResource['attributes'] | { 'pull-request-url': string | null; 'pull-request-number': number | null };
}) {
  const url = job['pull-request-url'];
  if (!url) return <span class="muted">not opened</span>;
  return (
    <a href={url} rel="noreferrer">
      #{job['pull-request-number']}
    </a>
  );
}

/** Pull-request jobs on repos the token reaches, newest first, filterable by status and dependency (100 a page). */
export function Jobs() {
  const { search } = useLocation();
  const status = (PULL_REQUEST_JOB_STATUSES as readonly string[]).includes(search.get('status') ?? '')
    ? (search.get('status') as PullRequestJobStatus)
    : undefined;
  const dependency = search.get('dependency-name') ?? '';
  const repo = search.get('repo-id') ?? '';
  const page = Math.max(1, Number(search.get('page')) || 1);
  const [typed, setTyped] = useState(dependency);
  const names = useRepoNames();
  const filters: JobFilters = { status, 'dependency-name': dependency || undefined, 'repo-id': repo || undefined };
  const jobs = useResource(
    () => listJobs(filters, page),
    [status, dependency, repo, page],
    3_000,
    (data) => data.items.some((job) => WAITING.has(job.attributes.status)),
  );

  const go = (changes: Record<string, string | undefined>) => {
    const params = new URLSearchParams();
    const next = { status, 'dependency-name': dependency, 'repo-id': repo, page: String(page), ...changes };
    for (const [name, value] of Object.entries(next)) if (value && !(name === 'page' && value === '1')) params.set(name, value);
    const text = params.toString();
    navigate(`/pull-request-jobs${text ? `?${text}` : ''}`);
  };

  return (
    <section>
      <PageTitle title="Pull-request jobs">Pull-request jobs</PageTitle>
      <form
        class="row"
        aria-label="Filter the jobs"
        onSubmit={(event) => {
          event.preventDefault();
          go({ 'dependency-name': typed.trim() || undefined, page: '1' });
        }}
      >
        <div class="field">
          <label for="job-status">Status</label>
          <select
            id="job-status"
            value={status ?? ''}
            onChange={(event) => go({ status: event.currentTarget.value || undefined, page: '1' })}
          >
            <option value="">any</option>
            {PULL_REQUEST_JOB_STATUSES.map((each) => (
              <option key={each} value={each}>
                {each}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="job-dependency">Dependency name</label>
          <input id="job-dependency" type="search" value={typed} onInput={(event) => setTyped(event.currentTarget.value)} />
        </div>
        <button type="submit">Filter</button>
      </form>
      <ErrorMessage error={jobs.error} />
      {jobs.loading && !jobs.data && <Loading what="jobs" />}
      {jobs.data && (
        <>
          <p role="status">{count(jobs.data.items.length, 'job')} on this page</p>
          <table>
            <caption class="visually-hidden">Pull-request jobs</caption>
            <thead>
              <tr>
                <th scope="col">Dependency</th>
                <th scope="col">Update</th>
                <th scope="col">Repo</th>
                <th scope="col">Status</th>
                <th scope="col">Pull request</th>
                <th scope="col">Recorded</th>
              </tr>
            </thead>
            <tbody>
              {jobs.data.items.map((job) => {
                const a = job.attributes;
                return (
                  <tr key={job.id}>
                    <th scope="row">{a['dependency-name']}</th>
                    <td>
                      {a['version-in-use']} → {a['target-version']} ({a['update-kind']}
                      {a['security-fix'] ? ', security' : ''})
                    </td>
                    <td>
                      {names.get(job.relationships.repo.data.id) ?? `repo ${job.relationships.repo.data.id}`}{' '}
                      <span class="muted">{a.directory}</span>
                    </td>
                    <td>
                      <Status value={a.status} />
                      {a['status-reason'] && <span class="muted"> {a['status-reason']}</span>}
                    </td>
                    <td>
                      <PullRequestLink job={a} />
                    </td>
                    <td>{when(a['created-at'])}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          <Pager page={page} next={jobs.data.next} label="Job pages" onPage={(to) => go({ page: String(to) })} />
        </>
      )}
    </section>
  );
}
