import type { PullRequestJobRow } from '../../jobs/job.table.ts';
import type { PullRequestJobUpdateRow } from '../../jobs/job-update.table.ts';
import { commandsSection, type DependencyLinks, githubRepo, pullRequestTitle } from './pull-request-text.policy.ts';

/**
 * The words of a group's pull request (one pull request for every update of a dependabot.yml group), as Dependabot
 * writes them (dependabot-core's `MessageComponents::GroupUpdateTitle` and `MessageBuilder`): pure.
 */

/** What a group's pull request's text is made from: its job and its updates (`pull_request_job_update`, in order). */
export type GroupSubject = Pick<PullRequestJobRow, 'package_manager' | 'directory' | 'group_name' | 'security_fix' | 'automerge'>;

/** One update of a group as its text needs it. */
export type GroupUpdate = Pick<
  PullRequestJobUpdateRow,
  'dependency_name' | 'version_in_use' | 'target_version' | 'dependency_type' | 'update_kind'
>;

/**
 * The title, also the commit message: `Bump the <group> group with <n> updates` (` in <directory>` before `with` outside
 * the root), or for one update its own title followed by ` in the <group> group`; with the config's commit-message
 * prefix first and the verb lower-cased, as for one dependency.
 */
export function groupTitle(job: GroupSubject, updates: readonly GroupUpdate[], prefix = ''): string {
  const group = job.group_name ?? '';
  const [only] = updates;
  if (updates.length === 1 && only) {
    const single = pullRequestTitle({ ...job, ...only, security_fix: false, unverified: false, automerge: job.automerge }, prefix);
    return `${single} in the ${group} group`;
  }
  const where = job.directory === '/' ? '' : ` in ${job.directory}`;
  const count = new Set(updates.map((update) => update.dependency_name)).size;
  return `${prefix}${prefix === '' ? 'Bump' : 'bump'} the ${group} group${where} with ${count} update${count === 1 ? '' : 's'}`;
}

/**
 * The body: `Bumps the <group> group with <n> updates: a, b and c.` (each linked to its source repository when the
 * registry names one), then per update `Updates \`<name>\` from <in use> to <target>` with its release notes, changelog
 * and commits links, the updates left out with why (`left`: a requirement that cannot be rewritten, a lockfile that
 * cannot agree), the automerge promise, and the commands a group's pull request takes.
 */
export function groupBody(
  job: GroupSubject,
  updates: readonly (GroupUpdate & { links: DependencyLinks })[],
  options: { rebases?: boolean; left?: readonly { name: string; why: string }[] } = {},
): string {
  const where = job.directory === '/' ? '' : ` in ${job.directory}`;
  const named = updates.map((update) =>
    update.links.sourceUrl ? `[${update.dependency_name}](${update.links.sourceUrl})` : update.dependency_name,
  );
  const list = named.length <= 1 ? (named[0] ?? '') : `${named.slice(0, -1).join(', ')} and ${named[named.length - 1]}`;
  const lines = [`Bumps the ${job.group_name} group${where} with ${updates.length} update${updates.length === 1 ? '' : 's'}: ${list}.`, ''];
  for (const update of updates) {
    lines.push(`Updates \`${update.dependency_name}\` from ${update.version_in_use} to ${update.target_version}`);
    const repo = githubRepo(update.links.sourceUrl);
    if (repo) lines.push(`- [Release notes](${repo}/releases)`);
    if (update.links.changelogUrl) lines.push(`- [Changelog](${update.links.changelogUrl})`);
    if (repo) lines.push(`- [Commits](${repo}/compare/v${update.version_in_use}...v${update.target_version})`);
    lines.push('');
  }
  const left = options.left ?? [];
  if (left.length > 0) {
    lines.push('Left out of this pull request:');
    for (const { name, why } of left) lines.push(`- ${name}: ${why}`);
    lines.push('');
  }
  if (job.automerge) {
    lines.push(
      "This pull request will be merged automatically once its checks pass (the config's automerge rules allow every update of the group).",
      '',
    );
  }
  lines.push(...commandsSection(options.rebases ?? true, { group: true }));
  return `${lines.join('\n').trimEnd()}\n`;
}
