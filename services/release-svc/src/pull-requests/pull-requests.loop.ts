import { type Logger, type Loop, startLoop } from '@switchyard/service-kit';
import { type JobExecutorDeps, releaseQueuedJobs, resumeStalledJobs } from '../pipeline/deliver/pull-request.service.ts';
import { handleDueCommands } from './pull-request-command.service.ts';
import { lookAtEveryOpenPullRequest, maintainDuePullRequests } from './pull-request-maintenance.service.ts';

/**
 * The three loops of pull requests, each at once and then every `intervalMs` (`SCHEDULER_INTERVAL_MS`): jobs over the
 * open pull-request limit go once one of their config's pull requests is merged or closed, and jobs whose message was
 * lost are taken up after a while, or at once when they were left from before the worker started (`releaseQueuedJobs`,
 * `resumeStalledJobs`); open pull requests are rebased when
 * their target branch moves, merged when automerge allows and checks pass, and reconciled with the code host when a
 * webhook was missed (`maintainDuePullRequests`), every open one at the first round (`lookAtEveryOpenPullRequest`); the
 * `@dependabot` commands of comments are carried out and answered (`handleDueCommands`).
 * @returns the loops, to stop on shutdown
 */
export function startPullRequestLoops(deps: JobExecutorDeps, intervalMs: number, logger: Logger): Loop[] {
  let started = false;
  const startedAt = new Date();
  return [
    startLoop({
      name: 'queued pull-request jobs',
      intervalMs,
      logger,
      round: async () => (await releaseQueuedJobs(deps)) + (await resumeStalledJobs(deps, startedAt)),
    }),
    startLoop({
      name: 'open pull requests',
      intervalMs,
      logger,
      round: async () => {
        // A worker starting reconciles every open pull request first: the code host may have moved on meanwhile.
        if (!started) {
          await lookAtEveryOpenPullRequest(deps.db);
          started = true;
        }
        return maintainDuePullRequests(deps);
      },
    }),
    startLoop({ name: 'pull-request commands', intervalMs, logger, round: () => handleDueCommands(deps) }),
  ];
}
