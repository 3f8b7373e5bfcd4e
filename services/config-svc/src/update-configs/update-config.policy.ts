import { type Caller, type CodeHostRepo, requireRepoPermission } from '@switchyard/code-host';
import { liveScheduleProblem, type PackageManager, type UpdateSchedule } from '@switchyard/contracts';
import { Conflict, InvalidInput } from '@switchyard/service-kit';

/**
 * Refuses `live` for a package manager whose versions cannot be watched (`liveScheduleProblem` of the contracts).
 * @throws InvalidInput naming `/update-schedule`
 */
export function refuseLive(schedule: UpdateSchedule, packageManager: PackageManager): void {
  const problem = schedule === 'live' ? liveScheduleProblem(packageManager) : undefined;
  if (problem) throw new InvalidInput(`update-schedule ${problem}`, { errors: [{ pointer: '#/update-schedule', detail: problem }] });
}

/**
 * Checks the caller's permission on `repo` for reading (`read`) or changing (`write`) its update configs, by the rules
 * of `requireRepoPermission` (`@switchyard/code-host`).
 * @throws Forbidden naming the repo and what is missing
 */
export function requireConfigPermission(caller: Caller, repo: CodeHostRepo, needed: 'read' | 'write'): void {
  requireRepoPermission(caller, repo, needed, `${needed === 'read' ? 'Reading' : 'Changing'} update configs of ${repo.fullName}`);
}

/**
 * Refuses a change through the API to what a repository's config file governs: a config that came from the file
 * (`source`, its path), or a new config of a repo that has a config file (`configFile`, its path). The file is read
 * again at every push to the default branch, so a change made here would be lost; the answer names the file.
 * @throws Conflict (409) naming the file
 */
export function refuseFileOwned(what: { source?: string; configFile?: string | null; repo: string }): void {
  const path = what.source !== undefined && what.source !== 'api' ? what.source : (what.configFile ?? undefined);
  if (path === undefined) return;
  throw new Conflict(
    `The update configs of ${what.repo} come from its ${path}: change that file on the default branch instead (a change made through the API would be lost at the file's next read)`,
    { errors: [{ pointer: '#/', detail: `governed by ${path} in ${what.repo}` }] },
  );
}
