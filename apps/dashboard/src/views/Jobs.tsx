import type { PullRequestJobStatus } from '@switchyard/contracts';
import { PULL_REQUEST_JOB_STATUSES } from '@switchyard/contracts/vocabulary';
import { useState } from 'preact/hooks';
import { query } from '../api/client.ts';
import { type JobFilters, listJobs, type PullRequestJobResource } from '../api/endpoints.ts';
import { Glossary, LoadError, Loading, Pager, PageTitle, Status } from '../components/common.tsx';
import { Table } from '../components/Table.tsx';
import { Name, Text } from '../components/text.tsx';
import { count, when } from '../format.ts';
import { useResource } from '../hooks.ts';
import { useRepoNames } from '../repo-names.ts';
import { Link, navigate, useLocation } from '../router.tsx';

/** Statuses of a job still on its way to a pull request: the list is asked again while one is there. */
export const WAITING = new Set(['pending', 'running', 'queued-limit']);

/** What {@link PullRequestLink} needs of a job (a job resource's attributes, or a notification's pull request). */
type PullRequestOf = Pick<PullRequestJobResource['attributes'], 'pull-request-url' | 'pull-request-number' | 'status'>;

/**
 * A job's pull request: a link to it on the code host once opened (`#12`), its number alone when it is gone from there
 * (`vanished`: the link would lead to nothing, or to another pull request), else why there is none yet.
 */
export function PullRequestLink({ job }: { job: PullRequestOf }) {
  const url = job['pull-request-url'];
  const number = job['pull-request-number'];
  if (job.status === 'vanished') {
    return number === null ? <span class="muted">gone</span> : <span class="muted">#{number} (gone from the code host)</span>;
  }
  if (!url) return <span class="muted">{WAITING.has(job.status) ? 'not opened yet' : 'none'}</span>;
  return (
    <a href={url} rel="noreferrer">
      #{number}
    </a>
  );
}

/**
 * A job's pull request as it stands, in one cell: its number and link, the job's status and why (`status-reason`:
 * a failure, a person's close, what superseded it), and a link to the job in the jobs list.
 */
export function JobState({ job }: { job: PullRequestJobResource }) {
  const a = job.attributes;
  return (
    <>
      <Status value={a.status} of="job" /> <PullRequestLink job={a} />
      {a['status-reason'] && (
        <span class="muted">
          {' '}
          <Text value={a['status-reason']} />
        </span>
      )}{' '}
      <Link class="nowrap" href={jobsHref(a['dependency-name'], job.relationships.repo.data.id)}>
        (job {job.id})
      </Link>
    </>
  );
}

/** The jobs list's address showing the jobs of one dependency in one repo. */
export function jobsHref(dependencyName: string, repoId?: string): string {
  return `/pull-request-jobs${query({ 'dependency-name': dependencyName, 'repo-id': repoId })}`;
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
      {repo && (
        <p>
          Only the jobs of <Name value={names.get(repo) ?? `repo ${repo}`} />.{' '}
          <button type="button" class="link" onClick={() => go({ 'repo-id': undefined, page: '1' })}>
            Show every repo's jobs
          </button>
        </p>
      )}
      <LoadError what="the pull-request jobs" error={jobs.error} busy={jobs.loading} onRetry={jobs.reload} />
      {jobs.loading && !jobs.data && !jobs.error && <Loading what="jobs" />}
      {jobs.data && (
        <>
          <p role="status">{count(jobs.data.items.length, 'job')} on this page</p>
          <Table
            caption="Pull-request jobs"
            captionHidden
            columns={[
              { label: 'Dependency' },
              { label: 'Update' },
              { label: 'Repo' },
              { label: 'Status' },
              { label: 'Pull request' },
              { label: 'Recorded' },
            ]}
            rows={jobs.data.items.map((job) => {
              const a = job.attributes;
              const repoId = job.relationships.repo.data.id;
              return {
                key: job.id,
                header: a.group ? (
                  <>
                    <Name value={a.group.name} /> <span class="muted">group</span>
                  </>
                ) : (
                  <Name value={a['dependency-name']} />
                ),
                cells: [
                  a.group ? (
                    // A group's job: each of its updates, its versions the updates' own.
                    <ul class="group-updates">
                      {a.group.updates.map((u) => (
                        <li key={u['dependency-name']}>
                          <Name value={u['dependency-name']} /> <Text value={u['version-in-use']} /> → <Text value={u['target-version']} />{' '}
                          ({u['update-kind']})
                        </li>
                      ))}
                    </ul>
                  ) : (
                    <>
                      <Text value={a['version-in-use']} /> → <Text value={a['target-version']} /> ({a['update-kind']}
                      {a['security-fix'] ? ', security' : ''})
                    </>
                  ),
                  <>
                    <Name value={names.get(repoId) ?? `repo ${repoId}`} /> <span class="muted">{a.directory}</span>
                  </>,
                  <>
                    <Status value={a.status} of="job" />
                    {a['status-reason'] && (
                      <span class="muted">
                        {' '}
                        <Text value={a['status-reason']} />
                      </span>
                    )}
                  </>,
                  <PullRequestLink job={a} />,
                  when(a['created-at']),
                ],
              };
            })}
          />
          <Pager page={page} next={jobs.data.next} label="Job pages" onPage={(to) => go({ page: String(to) })} />
          <Glossary summary="What each status means" of="job" />
        </>
      )}
    </section>
  );
}
