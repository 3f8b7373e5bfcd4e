import {
  getConfig,
  getRun,
  listJobs,
  listRuns,
  type PullRequestJobResource,
  patientlyForNewConfig,
  readPages,
  type UpdateRunResource,
} from '../api/endpoints.ts';
import { BumpNowButton } from '../components/BumpNowButton.tsx';
import { Glossary, LoadError, Loading, Pager, PageTitle, Status } from '../components/common.tsx';
import { Table } from '../components/Table.tsx';
import { Name, Text } from '../components/text.tsx';
import { count, when } from '../format.ts';
import { useResource } from '../hooks.ts';
import { Link, navigate, useLocation } from '../router.tsx';
import { JobState, jobsHref, WAITING } from './Jobs.tsx';

/** How often a run in progress is asked again, in milliseconds. */
const POLL_MS = 1_000;
const inProgress = (run: UpdateRunResource) => run.attributes.status === 'queued' || run.attributes.status === 'running';
/** The most pages of the repo's jobs read to find a run's jobs (100 jobs a page, newest first). */
const MAX_JOB_PAGES = 5;

/** A config's update runs, newest first, 25 a page, with "bump now". */
export function Runs({ configId }: { configId: string }) {
  const { search } = useLocation();
  const page = Math.max(1, Number(search.get('page')) || 1);
  const config = useResource(() => getConfig(configId), [configId]);
  // A config created a moment ago is not known yet to the service that runs updates: its runs are asked again a moment.
  const runs = useResource(
    () => patientlyForNewConfig(() => listRuns(configId, page)),
    [configId, page],
    POLL_MS * 3,
    (data) => data.items.some(inProgress),
  );
  const repoId = config.data?.relationships.repo.data.id;
  const title = config.data
    ? `Update runs of ${config.data.attributes['package-manager']} in ${config.data.attributes.directory}`
    : 'Update runs';

  return (
    <section>
      {repoId && search.get('account') && (
        <p class="breadcrumbs">
          <Link href={`/accounts/${search.get('account')}/repos/${repoId}`}>Back to the repo</Link>
        </p>
      )}
      <PageTitle title={title}>{title}</PageTitle>
      <LoadError what="the update config" error={config.error} busy={config.loading} onRetry={config.reload} />
      <LoadError what="the update runs" error={runs.error} busy={runs.loading} onRetry={runs.reload} />
      <div class="actions">
        <BumpNowButton configId={configId} />
      </div>
      {runs.loading && !runs.data && !runs.error && <Loading what="update runs" />}
      {runs.data?.items.length === 0 && <p>No run yet.</p>}
      {runs.data && runs.data.items.length > 0 && (
        <Table
          caption={title}
          captionHidden
          columns={[
            { label: 'Started' },
            { label: 'Trigger' },
            { label: 'Status' },
            { label: 'Dependencies checked' },
            { label: 'Jobs recorded' },
          ]}
          rows={runs.data.items.map((run) => ({
            key: run.id,
            header: <Link href={`/update-runs/${run.id}`}>{when(run.attributes['started-at'] ?? run.attributes['created-at'])}</Link>,
            cells: [
              run.attributes.trigger,
              <Status value={run.attributes.status} of="run" />,
              `${run.attributes['dependencies-checked']} of ${run.attributes['dependencies-total'] ?? '?'}`,
              run.attributes['jobs-recorded'],
            ],
          }))}
        />
      )}
      {runs.data && (
        <Pager
          page={page}
          next={runs.data.next}
          label="Run pages"
          onPage={(to) => navigate(`/update-configs/${configId}/runs?page=${to}`)}
        />
      )}
    </section>
  );
}

/** The jobs a run names: those it recorded, and the earlier ones its `pr-open` dependencies wait for. */
function jobIdsOf(run: UpdateRunResource): string[] {
  const ids = new Set(run.relationships['pull-request-jobs'].data.map((ref) => ref.id));
  for (const dependency of run.attributes.dependencies) if (dependency['pull-request-job-id']) ids.add(dependency['pull-request-job-id']);
  return [...ids].sort();
}

/**
 * The jobs `ids` of the repo `repoId`, by id: the API has no `GET /pull_request_jobs/{id}`, so the repo's jobs are read,
 * newest first, until every one is found (at most {@link MAX_JOB_PAGES} pages; one not found is linked by name).
 */
async function loadJobs(repoId: string, ids: string[]): Promise<Map<string, PullRequestJobResource>> {
  const found = new Map<string, PullRequestJobResource>();
  if (ids.length === 0) return found;
  const wanted = new Set(ids);
  for await (const page of readPages((number) => listJobs({ 'repo-id': repoId }, number), MAX_JOB_PAGES)) {
    for (const job of page.items) if (wanted.has(job.id)) found.set(job.id, job);
    if (found.size === wanted.size) break;
  }
  return found;
}

/**
 * One update run: live progress while it goes (asked every second), then each dependency's decision and reason, and
 * the pull request of each job it names as it stands (asked again while one is still being opened).
 */
export function RunDetail({ runId }: { runId: string }) {
  const run = useResource(() => getRun(runId), [runId], POLL_MS, inProgress);
  const a = run.data?.attributes;
  const repoId = run.data?.relationships.repo.data.id ?? '';
  const ids = run.data ? jobIdsOf(run.data) : [];
  const jobs = useResource(
    () => loadJobs(repoId, ids),
    [repoId, ids.join(',')],
    POLL_MS * 3,
    (data) => [...data.values()].some((job) => WAITING.has(job.attributes.status)),
  );
  return (
    <section>
      {run.data && (
        <p class="breadcrumbs">
          <Link href={`/update-configs/${run.data.relationships['update-config'].data.id}/runs`}>All runs of this config</Link>
        </p>
      )}
      <PageTitle title="Update run">Update run</PageTitle>
      <LoadError what="the update run" error={run.error} busy={run.loading} onRetry={run.reload} />
      {run.loading && !run.data && !run.error && <Loading what="the run" />}
      {a && (
        <>
          <dl class="facts">
            <dt>Status</dt>
            <dd>
              <Status value={a.status} of="run" />
            </dd>
            <dt>Trigger</dt>
            <dd>{a.trigger}</dd>
            <dt>Created</dt>
            <dd>{when(a['created-at'])}</dd>
            <dt>Finished</dt>
            <dd>{when(a['finished-at'])}</dd>
            <dt>Jobs recorded</dt>
            <dd>
              {a['jobs-recorded']}
              {a['job-limit'] !== null && ` (at most ${a['job-limit']} on a first run)`}
            </dd>
          </dl>
          <div class="progress">
            <label for="run-progress">Dependencies checked</label>
            <progress
              id="run-progress"
              max={a['dependencies-total'] ?? 1}
              value={a['dependencies-total'] === null ? undefined : a['dependencies-checked']}
            />
            <p role="status" aria-live="polite" class="progress-text">
              {a['dependencies-total'] === null
                ? a.status === 'queued'
                  ? 'Waiting for a worker…'
                  : 'Reading the manifests…'
                : `${a['dependencies-checked']} of ${count(a['dependencies-total'], 'dependency', 'dependencies')} checked${inProgress(run.data as UpdateRunResource) ? '…' : '.'}`}
            </p>
          </div>
          {a.error && (
            <p class={a.status === 'failed' ? 'error' : 'notice'}>
              <Text value={a.error} />
            </p>
          )}
          <LoadError what="the run's pull requests" error={jobs.error} busy={jobs.loading} onRetry={jobs.reload} />
          {a.dependencies.length > 0 && (
            <>
              <Table
                caption="Each dependency's decision"
                columns={[
                  { label: 'Dependency' },
                  { label: 'In use' },
                  { label: 'Latest' },
                  { label: 'Allowed' },
                  { label: 'Outcome' },
                  { label: 'Reason' },
                  { label: 'Pull request' },
                ]}
                rows={a.dependencies.map((dependency) => {
                  const jobId = dependency['pull-request-job-id'];
                  const job = jobId ? jobs.data?.get(jobId) : undefined;
                  return {
                    key: `${dependency.name} ${dependency['dependency-type']}`,
                    header: (
                      <>
                        <Name value={dependency.name} /> <span class="muted type">{dependency['dependency-type']}</span>
                      </>
                    ),
                    cells: [
                      <Text value={dependency['version-in-use'] ?? dependency.requirement} />,
                      <Text value={dependency['latest-version']} />,
                      <Text value={dependency['latest-allowed-version']} />,
                      <Status value={dependency.outcome} of="outcome" />,
                      <Text value={dependency.reason} />,
                      jobId === null ? (
                        <span class="muted">—</span>
                      ) : job ? (
                        <JobState job={job} />
                      ) : (
                        <Link href={jobsHref(dependency.name, repoId)}>{jobs.loading ? `job ${jobId} (loading…)` : `job ${jobId}`}</Link>
                      ),
                    ],
                  };
                })}
              />
              <Glossary summary="What each outcome means" of="outcome" />
            </>
          )}
        </>
      )}
    </section>
  );
}
