import { getConfig, getRun, listRuns, type UpdateRunResource } from '../api/endpoints.ts';
import { BumpNowButton } from '../components/BumpNowButton.tsx';
import { ErrorMessage, Loading, Pager, PageTitle, Status } from '../components/common.tsx';
import { count, when } from '../format.ts';
import { useResource } from '../hooks.ts';
import { Link, navigate, useLocation } from '../router.tsx';

/** How often a run in progress is asked again, in milliseconds. */
const POLL_MS = 1_000;
const inProgress = (run: UpdateRunResource) => run.attributes.status === 'queued' || run.attributes.status === 'running';

/** A config's update runs, newest first, 25 a page, with "bump now". */
export function Runs({ configId }: { configId: string }) {
  const { search } = useLocation();
  const page = Math.max(1, Number(search.get('page')) || 1);
  const config = useResource(() => getConfig(configId), [configId]);
  const runs = useResource(
    () => listRuns(configId, page),
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
      <ErrorMessage error={config.error ?? runs.error} />
      <div class="actions">
        <BumpNowButton configId={configId} />
      </div>
      {runs.loading && !runs.data && <Loading what="update runs" />}
      {runs.data?.items.length === 0 && <p>No run yet.</p>}
      {runs.data && runs.data.items.length > 0 && (
        <table>
          <caption class="visually-hidden">{title}</caption>
          <thead>
            <tr>
              <th scope="col">Started</th>
              <th scope="col">Trigger</th>
              <th scope="col">Status</th>
              <th scope="col">Dependencies checked</th>
              <th scope="col">Jobs recorded</th>
            </tr>
          </thead>
          <tbody>
            {runs.data.items.map((run) => (
              <tr key={run.id}>
                <th scope="row">
                  <Link href={`/update-runs/${run.id}`}>{when(run.attributes['started-at'] ?? run.attributes['created-at'])}</Link>
                </th>
                <td>{run.attributes.trigger}</td>
                <td>
                  <Status value={run.attributes.status} />
                </td>
                <td>
                  {run.attributes['dependencies-checked']} of {run.attributes['dependencies-total'] ?? '?'}
                </td>
                <td>{run.attributes['jobs-recorded']}</td>
              </tr>
            ))}
          </tbody>
        </table>
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

/** One update run: live progress while it goes (asked every second), then each dependency's decision and reason. */
export function RunDetail({ runId }: { runId: string }) {
  const run = useResource(() => getRun(runId), [runId], POLL_MS, inProgress);
  const a = run.data?.attributes;
  return (
    <section>
      {run.data && (
        <p class="breadcrumbs">
          <Link href={`/update-configs/${run.data.relationships['update-config'].data.id}/runs`}>All runs of this config</Link>
        </p>
      )}
      <PageTitle title="Update run">Update run</PageTitle>
      <ErrorMessage error={run.error} />
      {run.loading && !run.data && <Loading what="the run" />}
      {a && (
        <>
          <dl class="facts">
            <dt>Status</dt>
            <dd>
              <Status value={a.status} />
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
          {a.error && <p class={a.status === 'failed' ? 'error' : 'notice'}>{a.error}</p>}
          {a.dependencies.length > 0 && (
            <table>
              <caption>Each dependency's decision</caption>
              <thead>
                <tr>
                  <th scope="col">Dependency</th>
                  <th scope="col">Type</th>
                  <th scope="col">In use</th>
                  <th scope="col">Latest</th>
                  <th scope="col">Allowed</th>
                  <th scope="col">Outcome</th>
                  <th scope="col">Reason</th>
                </tr>
              </thead>
              <tbody>
                {a.dependencies.map((dependency) => (
                  <tr key={`${dependency.name} ${dependency['dependency-type']}`}>
                    <th scope="row">{dependency.name}</th>
                    <td>{dependency['dependency-type']}</td>
                    <td>{dependency['version-in-use'] ?? dependency.requirement ?? '—'}</td>
                    <td>{dependency['latest-version'] ?? '—'}</td>
                    <td>{dependency['latest-allowed-version'] ?? '—'}</td>
                    <td>
                      <Status value={dependency.outcome} />
                    </td>
                    <td>
                      {dependency.reason}
                      {dependency['pull-request-job-id'] && (
                        <>
                          {' '}
                          <Link href={`/pull-request-jobs?dependency-name=${encodeURIComponent(dependency.name)}`}>(its job)</Link>
                        </>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
    </section>
  );
}
