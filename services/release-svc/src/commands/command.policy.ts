/**
 * The `@dependabot` commands people give in comments on the bot's pull requests, as Dependabot Preview took them
 * (its pull requests' "Dependabot commands and options"), and the words of its answers (observed replies; see the
 * README's "Commands in pull-request comments").
 */

/** Every command this service carries out. */
export const PULL_REQUEST_COMMAND_NAMES = [
  'rebase',
  'recreate',
  'merge',
  'squash and merge',
  'cancel merge',
  'close',
  'reopen',
  'ignore this dependency',
  'ignore this major version',
  'ignore this minor version',
  'ignore this patch version',
] as const;
export type PullRequestCommandName = (typeof PULL_REQUEST_COMMAND_NAMES)[number];

/** The longest command text kept (what follows the mention on its line). */
const MAX_COMMAND_LENGTH = 200;

/**
 * The command a comment gives: what follows `@dependabot` on the first line that starts with it (leading spaces and a
 * `>` quote not counted: a quoted command is not one), lower-cased, runs of spaces made one, a trailing `.` or `!`
 * dropped; at most 200 characters. Undefined when no line starts with the mention. Only the first command of a comment
 * is taken, as Dependabot answered only the first.
 */
export function commandOf(body: string): string | undefined {
  for (const line of body.split(/\r?\n/, 200)) {
    const match = /^[ \t]*@dependabot(?:[ \t]+(.*))?$/i.exec(line);
    if (!match) continue;
    const text = (match[1] ?? '')
      .trim()
      .replace(/\s+/g, ' ')
      .toLowerCase()
      .replace(/[.!]+$/, '');
    return text.slice(0, MAX_COMMAND_LENGTH);
  }
  return undefined;
}

/** Whether `text` (as {@link commandOf} gives it) is one of the commands this service carries out. */
export function isCommandName(text: string): text is PullRequestCommandName {
  return (PULL_REQUEST_COMMAND_NAMES as readonly string[]).includes(text);
}

/** The answer to a command from someone without push access (Dependabot's words). */
export const NO_PUSH_ACCESS = 'Sorry, only users with push access can use that command.';

/** The answer to a command from an app or a bot account. */
export const NO_APPS = 'Sorry, commands from apps and bots are not accepted: a person with push access must give it.';

/** The answer to a comment whose command this service does not know. */
export function unknownCommand(text: string): string {
  const known = PULL_REQUEST_COMMAND_NAMES.map((name) => `\`@dependabot ${name}\``).join(', ');
  return `Sorry, I don't know how to \`${text.replace(/`/g, "'") || '(nothing)'}\`. The commands I understand are ${known}; the pull request's description says what each does.`;
}

/** The answer once an ignore command closed the pull request: `OK, I won't notify you about version 7.x.x again, …` (Dependabot's words). */
export function ignoredAnswer(what: string): string {
  return `OK, I won't notify you about ${what} again, unless you re-open this PR.`;
}

/**
 * The answer to `ignore this …` on a group's pull request, which updates several dependencies: which one would it be?
 * (Dependabot takes `@dependabot ignore <dependency name>` there instead; this service leaves that to the config's
 * `ignore` rules.)
 */
export function groupIgnoreAnswer(asked: string, group: string): string {
  return `\`@dependabot ${asked}\` applies to a pull request of one dependency, and this one updates the ${group} group. Close it with \`@dependabot close\` (these updates are then not proposed again), or add an \`ignore\` rule for the dependency to the configuration.`;
}

/** The answer to `rebase` on a pull request whose branch is up to date with its target (Dependabot's words). */
export function upToDateAnswer(branch: string): string {
  return `Looks like this PR is already up-to-date with ${branch}! If you'd still like to recreate it from scratch, overwriting any edits, you can request \`@dependabot recreate\`.`;
}

/** The answer to `rebase` on a pull request someone else pushed to (Dependabot's words). */
export const EDITED_ANSWER =
  "Looks like this PR has been edited by someone other than Dependabot. That means Dependabot can't rebase it - sorry! If you're happy for Dependabot to recreate it from scratch, overwriting any edits, you can request `@dependabot recreate`.";
