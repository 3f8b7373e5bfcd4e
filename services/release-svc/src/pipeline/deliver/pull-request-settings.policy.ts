import type { LabelInput } from '@switchyard/code-host';
import { OPEN_PULL_REQUEST_LIMIT, type UpdateConfigSettings } from '@switchyard/contracts';
import type { PullRequestSubject } from './pull-request-text.policy.ts';

/**
 * What a config's settings (`UpdateConfigSettings`: from its repository's config file, or the defaults) make of its
 * pull requests, pure: the open pull-request limit, the labels and the commit message's prefix, as Dependabot applied
 * them (https://docs.github.com/code-security/dependabot/working-with-dependabot/dependabot-options-reference).
 */

/** Open pull requests of security updates a config may have when its own limit is lower (GitHub: a separate limit of 10). */
export const SECURITY_PULL_REQUEST_LIMIT = 10;

/** The `dependencies` label Dependabot put on every pull request, with GitHub's colour and description for it. */
export const DEPENDENCIES_LABEL = { name: 'dependencies', color: '0366d6', description: 'Pull requests that update a dependency file' };

/**
 * The most open pull requests the config may have for this job, or null for no limit: the config's
 * `open-pull-requests-limit` when it sets one (a security fix may go up to {@link SECURITY_PULL_REQUEST_LIMIT}), else
 * {@link OPEN_PULL_REQUEST_LIMIT} when the account limits open pull requests (`limit-open-pull-requests`), else none.
 */
export function openPullRequestLimit(
  settings: Pick<UpdateConfigSettings, 'openPullRequestsLimit'> | undefined,
  accountLimits: boolean,
  securityFix: boolean,
): number | null {
  const own = settings?.openPullRequestsLimit ?? null;
  if (own !== null) return securityFix ? Math.max(own, SECURITY_PULL_REQUEST_LIMIT) : own;
  return accountLimits ? OPEN_PULL_REQUEST_LIMIT : null;
}

/**
 * The labels of the config's pull requests: its own `labels` when it sets them (`[]`: none), else `dependencies` and
 * the config's language (`javascript`, `ruby` …), made when the repository lacks them, as Dependabot did.
 */
export function pullRequestLabels(settings: Pick<UpdateConfigSettings, 'labels'> | undefined, language: string | null): LabelInput[] {
  const own = settings?.labels ?? null;
  if (own !== null) return [...own];
  return [DEPENDENCIES_LABEL, ...(language ? [language] : [])];
}

/**
 * The commit message's prefix for the job, or '' without one: `prefix-development` for a development dependency when
 * set, else `prefix`; with `include: scope`, `(deps)` or `(deps-dev)` after it; then `: ` when the prefix ends in a
 * letter, digit, `)` or `]` (Dependabot's rule, so `chore` gives `chore: ` and `[deps] ` stays as written).
 */
export function commitPrefix(
  settings: Pick<UpdateConfigSettings, 'commitMessage'> | undefined,
  job: Pick<PullRequestSubject, 'dependency_type'>,
): string {
  const message = settings?.commitMessage ?? null;
  if (message === null) return '';
  const base = (job.dependency_type === 'development' ? (message.prefixDevelopment ?? message.prefix) : message.prefix) ?? '';
  const scoped = message.includeScope ? `${base}${job.dependency_type === 'development' ? '(deps-dev)' : '(deps)'}` : base;
  if (scoped === '') return '';
  return /[\p{L}\p{N})\]]$/u.test(scoped) ? `${scoped}: ` : scoped;
}
