import { isAlias, isMap, isScalar, isSeq, type Node, parseDocument, type Scalar } from 'yaml';
import { ManifestParseError } from '../errors.ts';
import type { Span } from '../update/declarations.ts';
import { parseActionVersion } from './versions.ts';

/**
 * Reading the `uses:` references of GitHub Actions workflow files and action metadata files
 * (https://docs.github.com/en/actions/writing-workflows/workflow-syntax-for-github-actions#jobsjob_idstepsuses,
 * https://docs.github.com/en/actions/sharing-automations/creating-actions/metadata-syntax-for-github-actions#runsstepsuses),
 * as Dependabot's github_actions file parser reads them
 * (https://github.com/dependabot/dependabot-core, `github_actions/lib/dependabot/github_actions/file_parser.rb`).
 */

/** How a reference names the action's revision: a version tag, a full commit SHA, or anything else (a branch, a short SHA). */
export type ReferenceKind = 'tag' | 'commit' | 'other';

/** A version written in the comment that follows a commit pin (`@<sha> # v4.1.0`): the version and where it is. */
export interface VersionComment {
  version: string;
  /** The version's characters in the file's text. */
  span: Span;
}

/** One `uses: owner/repo[/path]@ref` of a file. */
export interface ActionReference {
  /** The file's path in the files map, e.g. `.github/workflows/ci.yml`. */
  file: string;
  /** Where in the file, e.g. `jobs.build.steps[1]`, `jobs.call.uses`, `runs.steps[0]`. */
  where: string;
  /** `owner/repo` as written (the repository the registry lists the tags of). */
  name: string;
  /** The subdirectory or reusable workflow inside the repository (`/.github/workflows/ci.yml`, `/init`), or null. */
  path: string | null;
  /** The ref after `@` as written: `v4`, `v4.1.0`, a 40-hex SHA, `main`. */
  ref: string;
  kind: ReferenceKind;
  /** The version in use: the tag itself, a commit pin's {@link VersionComment} version, else null. */
  version: string | null;
  /** The ref's characters in the file's text; null when the scalar's source is not its value (escapes, block scalars). */
  refSpan: Span | null;
  /** A commit pin's version comment, or null. */
  comment: VersionComment | null;
}

/** A `uses:` value that names a repository: `owner/repo@ref` or `owner/repo/path@ref` (Dependabot's `GITHUB_REPO_REFERENCE`). */
const REPOSITORY_REFERENCE = /^([\w.-]+)\/([\w.-]+)(\/[^@]+)?@(.+)$/;
const COMMIT = /^[0-9a-fA-F]{40}$/;
/**
 * A commit pin's trailing comment naming its version, as pinning tools write it: `# v4.1.0`, `# v4`, `# 4.1.0`,
 * `# tag=v4.1.0`, `# pin @v4.1.0`, `# @v4.1.0`, `# ratchet:actions/checkout@v4.1.0`, optionally followed by more
 * words (`# v4.1.0 (latest)`). A bare number (`# 2`) is not taken as a version; dotted numbers or a `v` are needed.
 */
const COMMENT_VERSION =
  /^(\s*(?:tag\s*[=:]\s*|pin\s*@?\s*|@|ratchet:[\w.-]+\/[\w./-]+@)?)((?:v\d+(?:\.\d+)*|\d+(?:\.\d+)+)(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?)(?=\s|$)/i;

/** The comment after `end` on the same line (` # text`), as the span of its text after `#`; undefined when none. */
function trailingComment(text: string, end: number): Span | undefined {
  const newline = text.indexOf('\n', end);
  const lineEnd = newline === -1 ? text.length : text[newline - 1] === '\r' ? newline - 1 : newline;
  const match = /^[ \t]+#/.exec(text.slice(end, lineEnd));
  return match ? { start: end + match[0].length, end: lineEnd } : undefined;
}

/** The characters of a scalar's value in the source: its range for a plain scalar, inside the quotes for a quoted one. */
function valueSpan(text: string, node: Scalar): Span | null {
  const [start, end] = node.range ?? [];
  if (start === undefined || end === undefined || typeof node.value !== 'string') return null;
  const span =
    node.type === 'PLAIN'
      ? { start, end }
      : node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE'
        ? { start: start + 1, end: end - 1 }
        : null;
  return span && text.slice(span.start, span.end) === node.value ? span : null;
}

/** A reference read from one `uses:` scalar, or undefined for local actions, `docker://` images and expressions. */
function referenceOf(file: string, text: string, where: string, node: Scalar): ActionReference | undefined {
  const value = node.value as string;
  const match = REPOSITORY_REFERENCE.exec(value);
  if (!match) return undefined;
  const [, owner = '', repo = '', path, ref = ''] = match;
  const span = valueSpan(text, node);
  const refSpan = span ? { start: span.start + value.indexOf('@') + 1, end: span.end } : null;
  const kind: ReferenceKind = COMMIT.test(ref) ? 'commit' : parseActionVersion(ref) !== null ? 'tag' : 'other';
  let comment: VersionComment | null = null;
  if (kind === 'commit' && node.range) {
    const after = trailingComment(text, node.range[1]);
    const found = after ? COMMENT_VERSION.exec(text.slice(after.start, after.end)) : null;
    if (after && found?.[2] && parseActionVersion(found[2]) !== null) {
      const start = after.start + (found[1] ?? '').length;
      comment = { version: found[2], span: { start, end: start + found[2].length } };
    }
  }
  return {
    file,
    where,
    name: `${owner}/${repo}`,
    path: path ?? null,
    ref,
    kind,
    version: kind === 'tag' ? ref : (comment?.version ?? null),
    refSpan,
    comment,
  };
}

/**
 * The `uses:` references of one workflow file or action metadata file, in file order: a workflow's
 * `jobs.<id>.steps[*].uses` and `jobs.<id>.uses` (reusable workflows), else an action's `runs.steps[*].uses` (composite
 * actions), as Dependabot reads `jobs`, else `runs`. Aliases (`steps: *common`) are followed, and a node reached twice is
 * read once. Local actions (`./path`), `docker://` images and expressions (`${{ matrix.action }}`) are left out: they
 * name no repository.
 * @throws ManifestParseError naming `file` when the YAML does not parse (with the parser's message and line), or when
 *   `jobs`, a job, `runs`, `steps`, a step or a `uses` value is not of the kind the workflow syntax requires
 */
export function readActionReferences(file: string, text: string): ActionReference[] {
  const doc = parseDocument(text);
  const error = doc.errors[0];
  if (error) throw new ManifestParseError(file, `invalid YAML: ${error.message.split('\n')[0]}`);
  const resolve = (node: unknown): unknown => (isAlias(node) ? node.resolve(doc) : node);
  const root = resolve(doc.contents);
  if (root === null || root === undefined || (isScalar(root) && root.value === null)) return [];
  if (!isMap(root)) throw new ManifestParseError(file, 'the top level is not a mapping');
  const seen = new Set<Node>();
  const out: ActionReference[] = [];
  const read = (where: string, value: unknown) => {
    const node = resolve(value);
    if (!isScalar(node) || typeof node.value !== 'string') throw new ManifestParseError(file, `${where} is not a string`);
    if (seen.has(node)) return;
    seen.add(node);
    const reference = referenceOf(file, text, where, node);
    if (reference) out.push(reference);
  };
  const readSteps = (where: string, value: unknown) => {
    const steps = resolve(value);
    if (steps === undefined || steps === null) return;
    if (!isSeq(steps)) throw new ManifestParseError(file, `${where} is not a sequence`);
    for (const [index, item] of steps.items.entries()) {
      const step = resolve(item);
      if (!isMap(step)) throw new ManifestParseError(file, `${where}[${index}] is not a mapping`);
      if (step.has('uses')) read(`${where}[${index}]`, step.get('uses', true));
    }
  };
  const jobs = resolve(root.get('jobs', true));
  if (jobs !== undefined) {
    if (!isMap(jobs)) throw new ManifestParseError(file, "'jobs' is not a mapping");
    for (const pair of jobs.items) {
      const key = resolve(pair.key);
      const id = isScalar(key) ? String(key.value) : '?';
      const job = resolve(pair.value);
      if (!isMap(job)) throw new ManifestParseError(file, `jobs.${id} is not a mapping`);
      if (job.has('uses')) read(`jobs.${id}.uses`, job.get('uses', true));
      readSteps(`jobs.${id}.steps`, job.get('steps', true));
    }
    return out;
  }
  const runs = resolve(root.get('runs', true));
  if (runs === undefined) return out;
  if (!isMap(runs)) throw new ManifestParseError(file, "'runs' is not a mapping");
  readSteps('runs.steps', runs.get('steps', true));
  return out;
}
