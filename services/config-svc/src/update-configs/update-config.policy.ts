import { type Caller, type CodeHostRepo, requireRepoPermission } from '@switchyard/code-host';
import { liveScheduleProblem, type PackageManager, type UpdateSchedule } from '@switchyard/contracts';
import { InvalidInput } from '@switchyard/service-kit';

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
