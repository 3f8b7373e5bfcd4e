import { randomUUID } from 'node:crypto';
import { type Caller, type CodeHostView, requireRepoPermission } from '@switchyard/code-host';
import { NotFound } from '@switchyard/service-kit';
import type { Kysely } from 'kysely';
import type { ReleaseDatabase } from '../db/schema.ts';
import { findJobIdsOfRuns } from '../jobs/job.repository.ts';
import { findScanTargets } from '../read-model/read-model.repository.ts';
import { requestRun } from '../runs/run-request.service.ts';
import { deleteRunsBefore, findRun, findRunDependencies, listRuns } from '../runs/update-run.repository.ts';
import type { UpdateRunDependencyRow, UpdateRunRow } from '../runs/update-run.table.ts';

type Db = Kysely<ReleaseDatabase>;

/** Runs a page of `GET /update_runs` holds. */
export const UPDATE_RUNS_PAGE_SIZE = 25;

/** A run as the API shows it: the row, its dependencies so far and the ids of the jobs it recorded. */
export interface UpdateRunView {
  run: UpdateRunRow;
  dependencies: UpdateRunDependencyRow[];
  jobIds: number[];
}

/**
 * "Bump now": `POST /update_configs/{id}/trigger_update_job`, the original's undocumented endpoint
 * (https://github.com/dependabot/dependabot-core/issues/3080). The caller needs write permission on the config's repo,
 * as for changing the config. A new run is recorded every time (`manual:<run id>`), and any worker takes it at once.
 * @returns the queued run
 * @throws NotFound when the config is not known (or deleted), or its repo is not visible to the caller
 * @throws Forbidden without write permission on its repo
 */
export async function triggerUpdateRun(db: Db, view: CodeHostView, caller: Caller, configId: number): Promise<UpdateRunView> {
  const target = (await findScanTargets(db, [configId])).get(configId);
  const notFound = new NotFound(`No update config ${configId}`);
  if (!target || target.config.deleted || !caller.accounts.some((a) => a.id === target.config.accountId)) throw notFound;
  const repo = await view.repo(caller, target.config.repoId);
  if (!repo) throw notFound;
  requireRepoPermission(caller, repo, 'write', `Running updates of ${repo.fullName}`);
  const id = randomUUID();
  const run = await db.transaction().execute((trx) =>
    requestRun(trx, {
      updateConfigId: configId,
      repoId: target.config.repoId,
      accountId: target.config.accountId,
      trigger: 'manual',
      triggerKey: `manual:${id}`,
      requestedBy: caller.user.id,
    }),
  );
  if (!run) throw new Error(`update run manual:${id} of config ${configId} already existed`);
  return { run, dependencies: [], jobIds: [] };
}

/** Whether the caller can see `repoId` (read permission through their token); the run is reported missing otherwise. */
async function canSee(view: CodeHostView, caller: Caller, accountId: number, repoId: number): Promise<boolean> {
  if (!caller.accounts.some((a) => a.id === accountId)) return false;
  return (await view.repo(caller, repoId)) !== undefined;
}

/**
 * `GET /update_runs/{id}`: a run with its dependencies (decided so far: the progress of a running run) and its jobs.
 * @throws NotFound when there is no such run or the caller cannot see its repo
 */
export async function viewUpdateRun(db: Db, view: CodeHostView, caller: Caller, id: string): Promise<UpdateRunView> {
  const run = await findRun(db, id);
  if (!run || !(await canSee(view, caller, run.account_id, run.repo_id))) throw new NotFound(`No update run ${id}`);
  const [dependencies, jobs] = await Promise.all([findRunDependencies(db, [run.id]), findJobIdsOfRuns(db, [run.id])]);
  return { run, dependencies, jobIds: jobs.get(run.id) ?? [] };
}

/**
 * `GET /update_runs?update-config-id=`: a page of the config's runs, newest first.
 * @returns the runs and the next page's number, or null on the last page
 * @throws NotFound when the config is not known or the caller cannot see its repo
 */
export async function listUpdateRuns(
  db: Db,
  view: CodeHostView,
  caller: Caller,
  configId: number,
  page: number,
): Promise<{ runs: UpdateRunView[]; next: number | null }> {
  const target = (await findScanTargets(db, [configId])).get(configId);
  if (!target || !(await canSee(view, caller, target.config.accountId, target.config.repoId))) {
    throw new NotFound(`No update config ${configId}`);
  }
  const { rows, more } = await listRuns(db, configId, page, UPDATE_RUNS_PAGE_SIZE);
  const ids = rows.map((row) => row.id);
  const [dependencies, jobs] = await Promise.all([findRunDependencies(db, ids), findJobIdsOfRuns(db, ids)]);
  return {
    runs: rows.map((run) => ({
      run,
      dependencies: dependencies.filter((d) => d.run_id === run.id),
      jobIds: jobs.get(run.id) ?? [],
    })),
    next: more ? page + 1 : null,
  };
}

/** Days an update run is kept (with its dependencies); the jobs it recorded stay. */
export const UPDATE_RUN_RETENTION_DAYS = 90;

/**
 * Deletes the runs created more than `retentionDays` days before `now`.
 * @returns how many were deleted
 */
export function deleteExpiredRuns(db: Db, now: Date, retentionDays = UPDATE_RUN_RETENTION_DAYS): Promise<number> {
  return deleteRunsBefore(db, new Date(now.getTime() - retentionDays * 86_400_000));
}
