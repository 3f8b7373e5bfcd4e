import { type CodeHost, CodeHostError, type RepoRef } from '@switchyard/code-host';
import type { UpdateConfigSettings } from '@switchyard/contracts';
import type { Logger } from '@switchyard/service-kit';

/**
 * Puts the config's people and milestone on a pull request it just opened: its `reviewers` asked for a review, its
 * `assignees` assigned, its `milestone` set, each with one request when set (none otherwise). Each is what the config
 * asks for rather than what the pull request is: one the code host refuses (a reviewer who is not a collaborator, a
 * milestone that does not exist) is logged and does not undo the pull request; a failure of the code host itself
 * (unreachable, rate-limited) is thrown for the job to try again.
 * @throws CodeHostError of kind `unavailable` or `rate_limited`
 */
export async function applyPullRequestPeople(
  deps: { codeHost: CodeHost; token: string; logger: Logger },
  repo: RepoRef,
  number: number,
  settings: Pick<UpdateConfigSettings, 'reviewers' | 'assignees' | 'milestone'> | undefined,
): Promise<void> {
  if (!settings) return;
  const { codeHost: host, token } = deps;
  const steps: Array<[string, (() => Promise<unknown> | undefined) | undefined]> = [
    [
      'reviewers',
      settings.reviewers.length > 0 && host.requestReviewers
        ? () => host.requestReviewers?.(token, repo, number, settings.reviewers)
        : undefined,
    ],
    [
      'assignees',
      settings.assignees.length > 0 && host.addAssignees ? () => host.addAssignees?.(token, repo, number, settings.assignees) : undefined,
    ],
    [
      'milestone',
      settings.milestone !== null && host.updateIssue
        ? () => host.updateIssue?.(token, repo, number, { milestone: settings.milestone })
        : undefined,
    ],
  ];
  for (const [what, step] of steps) {
    if (!step) continue;
    try {
      await step();
    } catch (error) {
      if (!(error instanceof CodeHostError) || error.kind === 'unavailable' || error.kind === 'rate_limited') throw error;
      deps.logger.warn({ err: error, pullRequest: number }, `the config's ${what} could not be put on the pull request`);
    }
  }
}
