import type { PullRequestJobRow } from '../../jobs/job.table.ts';

/**
 * The names and words of a job's pull request, as Dependabot wrote them (dependabot-core's `BranchNamer` and
 * `PullRequestCreator::MessageBuilder`), pure: the branch, the title and the body.
 */

/** What the text of a job's pull request is made from. */
export type PullRequestSubject = Pick<
  PullRequestJobRow,
  | 'package_manager'
  | 'directory'
  | 'dependency_name'
  | 'version_in_use'
  | 'target_version'
  | 'update_kind'
  | 'security_fix'
  | 'automerge'
  | 'dependency_type'
  | 'unverified'
>;

/** Links the registry gives for the dependency (its source repository and changelog), each null when unknown. */
export interface DependencyLinks {
  sourceUrl: string | null;
  changelogUrl: string | null;
}

/** A git ref component made safe (git-check-ref-format): no `..`, no control or `~^:?*[\` characters, spaces, `@{`, or a leading `.`/trailing `.lock`. */
function refSafe(part: string): string {
  const printable = [...part].map((c) => (c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f ? '-' : c)).join('');
  return printable
    .replace(/[\s~^:?*[\\]+/g, '-')
    .replace(/@\{/g, '-')
    .replace(/\.{2,}/g, '.')
    .replace(/\/{2,}/g, '/')
    .replace(/(^|\/)\.+/g, '$1')
    .replace(/\.lock(\/|$)/g, '-lock$1')
    .replace(/[/.]+$/, '');
}

/**
 * The job's branch: `dependabot/<package manager>/<directory>/<target branch>/<dependency>-<version>`, the directory left
 * out at the root and the target branch when it is the repository's default branch (`defaultBranch`), `@` dropped from
 * scoped names and `:` (Maven's `groupId:artifactId`) made `-`, as Dependabot named them (dependabot-core's
 * `BranchNamer`: `dependabot/npm_and_yarn/lodash-4.17.21`, `dependabot/npm_and_yarn/web/types/node-20.1.0`,
 * `dependabot/maven/org.apache.commons-commons-lang3-3.14.0`, `dependabot/bundler/develop/rails-6.1.7`). Deterministic:
 * a redelivered job finds its branch; the same update against two target branches gets two branches, so a config moved
 * to another target branch never meets the branch of its pull request against the old one.
 */
export function branchName(
  job: Pick<PullRequestSubject, 'package_manager' | 'directory' | 'dependency_name' | 'target_version'> & { target_branch?: string },
  defaultBranch?: string,
): string {
  const directory = job.directory.replace(/^\/+|\/+$/g, '');
  const name = job.dependency_name.replace(/@/g, '').replace(/:/g, '-');
  const target = job.target_branch !== undefined && job.target_branch !== defaultBranch ? [job.target_branch] : [];
  return refSafe(
    ['dependabot', job.package_manager, ...(directory ? [directory] : []), ...target, `${name}-${job.target_version}`].join('/'),
  );
}

/**
 * The title, also the commit message: `Bump <dependency> from <in use> to <target>`, with ` in <directory>` outside the
 * root, and Dependabot's `[Security] ` prefix for a security fix. With the config's commit-message `prefix`
 * (`commitPrefix`: `chore(deps): `), the prefix comes first and the verb is lower-cased, as Dependabot wrote it
 * (`chore(deps): bump lodash from 4.17.15 to 4.17.21`).
 */
export function pullRequestTitle(job: PullRequestSubject, prefix = ''): string {
  const where = job.directory === '/' ? '' : ` in ${job.directory}`;
  const verb = prefix === '' ? 'Bump' : 'bump';
  return `${prefix}${job.security_fix ? '[Security] ' : ''}${verb} ${job.dependency_name} from ${job.version_in_use} to ${job.target_version}${where}`;
}

/** `https://github.com/o/r` of a source URL on GitHub (`.git`, trailing slashes and deeper paths dropped), or null. */
export function githubRepo(url: string | null): string | null {
  const match = url === null ? null : /^https:\/\/github\.com\/([^/]+)\/([^/#?]+)/.exec(url);
  return match ? `https://github.com/${match[1]}/${(match[2] as string).replace(/\.git$/, '')}` : null;
}

/**
 * The body: what is bumped and where from (the source repository linked when the registry names one), links to the
 * release notes, changelog and commits between the two versions where the registry metadata gives them (commits and
 * releases for sources on GitHub), a note when the target version is `unverified` or fixes an advisory, and the
 * automerge promise when the config's rule allows it, then the commands a comment may give ({@link commandsSection};
 * `options.rebases` false when rebases are turned off).
 */
export function pullRequestBody(job: PullRequestSubject, links: DependencyLinks, options: { rebases?: boolean } = {}): string {
  const named = links.sourceUrl ? `[${job.dependency_name}](${links.sourceUrl})` : job.dependency_name;
  const lines = [`Bumps ${named} from ${job.version_in_use} to ${job.target_version}.`, ''];
  const repo = githubRepo(links.sourceUrl);
  const more = [
    ...(repo ? [`- [Release notes](${repo}/releases)`] : []),
    ...(links.changelogUrl ? [`- [Changelog](${links.changelogUrl})`] : []),
    ...(repo ? [`- [Commits](${repo}/compare/v${job.version_in_use}...v${job.target_version})`] : []),
  ];
  if (more.length > 0) lines.push(...more, '');
  if (job.security_fix)
    lines.push(`This update fixes a known security advisory affecting ${job.dependency_name} ${job.version_in_use}.`, '');
  if (job.unverified) {
    lines.push(
      `${job.target_version} was announced by a release notification and was not listed by the registry yet when this was opened.`,
      '',
    );
  }
  if (job.automerge) {
    lines.push(
      `This pull request will be merged automatically once its checks pass (the config's automerge rule allows a ${job.update_kind} update of a ${job.dependency_type} dependency).`,
      '',
    );
  }
  lines.push(...commandsSection(options.rebases ?? true));
  return `${lines.join('\n').trimEnd()}\n`;
}

/**
 * The commands a pull request's body lists, as Dependabot Preview's did ("Dependabot commands and options", its
 * 2020–21 list without the ones this service does not take, `use these labels` and the like): what each `@dependabot`
 * comment does, after the sentence on rebases (which says rebases are automatic unless the config or the account turned
 * them off); a group's pull request (`options.group`) lists no `ignore this …` command.
 */
export function commandsSection(rebases: boolean, options: { group?: boolean } = {}): string[] {
  // A group's pull request takes no `ignore this …` command: which of its dependencies would it be?
  const commands = options.group ? PULL_REQUEST_COMMANDS.filter(([command]) => !command.startsWith('ignore this')) : PULL_REQUEST_COMMANDS;
  return [
    rebases
      ? "Dependabot will resolve any conflicts with this PR as long as you don't alter it yourself. You can also trigger a rebase manually by commenting `@dependabot rebase`."
      : 'You can trigger a rebase of this PR by commenting `@dependabot rebase`.',
    '',
    '---',
    '',
    '<details>',
    '<summary>Dependabot commands and options</summary>',
    '<br />',
    '',
    'You can trigger Dependabot actions by commenting on this PR:',
    ...commands.map(([command, what]) => `- \`@dependabot ${command}\` ${what}`),
    '',
    '</details>',
  ];
}

/** Each command a pull request's body lists, with what it does (Dependabot Preview's words). */
export const PULL_REQUEST_COMMANDS: ReadonlyArray<readonly [string, string]> = [
  ['rebase', 'will rebase this PR'],
  ['recreate', 'will recreate this PR, overwriting any edits that have been made to it'],
  ['merge', 'will merge this PR after your CI passes on it'],
  ['squash and merge', 'will squash and merge this PR after your CI passes on it'],
  ['cancel merge', 'will cancel a previously requested merge and block automerging'],
  ['reopen', 'will reopen this PR if it is closed'],
  ['close', 'will close this PR and stop Dependabot recreating it. You can achieve the same result by closing it manually'],
  [
    'ignore this major version',
    'will close this PR and stop Dependabot creating any more for this major version (unless you reopen the PR or upgrade to it yourself)',
  ],
  [
    'ignore this minor version',
    'will close this PR and stop Dependabot creating any more for this minor version (unless you reopen the PR or upgrade to it yourself)',
  ],
  [
    'ignore this patch version',
    'will close this PR and stop Dependabot creating any more for this patch version (unless you reopen the PR or upgrade to it yourself)',
  ],
  [
    'ignore this dependency',
    'will close this PR and stop Dependabot creating any more for this dependency (unless you reopen the PR or upgrade to it yourself)',
  ],
];
