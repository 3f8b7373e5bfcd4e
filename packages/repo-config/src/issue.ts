/**
 * The issue Dependabot Preview opened in a repository whose config file was invalid: its title
 * (https://github.com/aws/aws-cdk/issues/4726),
 * the intro line, the validator's messages in a code block, and the footer pointing to the file's specification.
 */
import type { ParsedConfigFile } from './model.ts';

/** The most problems an issue lists; the rest are counted. Matches `parseConfigFile`'s own cap. */
export const MAX_ISSUE_PROBLEMS = 100;

/** Options of {@link configFileIssue}. */
export interface ConfigFileIssueOptions {
  /** Where this service documents the config files (its README's "Config files" section); omitted, the footer names it without a link. */
  docsUrl?: string;
}

/** An issue's title and Markdown body. */
export interface ConfigFileIssue {
  title: string;
  body: string;
}

/**
 * The issue for an invalid file, or null when `parsed` is valid. Title: `Your .dependabot/config.yml contained invalid
 * details` (the file's path substituted). Body: "Dependabot encountered the following error when parsing your
 * `<path>`:", the problems' messages one per line in a fenced code block (the fence longer than any run of backticks
 * in them), then the footer. Preview's footer linked dependabot.com's docs and online validator; this one points to the
 * config-file section of this service's README (`docsUrl`, when given).
 */
export function configFileIssue(parsed: ParsedConfigFile, options: ConfigFileIssueOptions = {}): ConfigFileIssue | null {
  if (parsed.valid) return null;
  const lines = parsed.problems.slice(0, MAX_ISSUE_PROBLEMS).map((problem) => problem.message.replaceAll(/\r?\n/g, ' '));
  const more = parsed.problems.length - lines.length;
  if (more > 0) lines.push(`… and ${more} more`);
  const text = lines.join('\n');
  let longestRun = 0;
  for (const run of text.match(/`+/g) ?? []) longestRun = Math.max(longestRun, run.length);
  const fence = '`'.repeat(Math.max(3, longestRun + 1));
  const reference = options.docsUrl
    ? `the [config file reference](${options.docsUrl}) of this service`
    : `the "Config files" section of this service's README`;
  const body = [
    `Dependabot encountered the following error when parsing your \`${parsed.path}\`:`,
    '',
    fence,
    text,
    fence,
    '',
    `Please update the config file to conform with Dependabot's specification, as described in ${reference}.`,
  ].join('\n');
  return { title: `Your ${parsed.path} contained invalid details`, body };
}
