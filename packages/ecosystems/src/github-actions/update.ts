import type { DependencyUse, ManifestUpdate } from '../ecosystem.ts';
import { InvalidVersionError } from '../errors.ts';
import type { RegistryVersionDetails } from '../registry-data.ts';
import type { Span } from '../update/declarations.ts';
import { githubActionsVersions } from './versions.ts';
import type { ActionReference } from './workflow.ts';

type Files = Readonly<Record<string, string>>;

/** The ecosystem's reader: every `uses:` reference of the files map, files in the ecosystem's order, then file order. */
export type ReadReferences = (files: Files) => ActionReference[];

const COMMIT = /^[0-9a-fA-F]{40}$/;

/** One replacement in a file's text. */
interface Edit extends Span {
  text: string;
}

/**
 * The commit `target` gives for `targetVersion`: the first artifact's `attributes.commit` (the GitHub registry adapter
 * describes a tag so), or why there is none.
 */
function commitOf(targetVersion: string, target: RegistryVersionDetails | undefined): { commit: string } | { cannot: string } {
  if (target === undefined) return { cannot: `the commit of ${targetVersion} is not known (the registry did not describe the tag)` };
  if (target.version !== targetVersion) return { cannot: `the registry described ${target.version}, not ${targetVersion}` };
  const commit = target.artifacts[0]?.attributes?.commit;
  if (commit === undefined || !COMMIT.test(commit)) return { cannot: `the registry gives no commit SHA for ${targetVersion}` };
  return { commit };
}

/** The edits that move one reference to the target tag itself, or why it cannot be moved. */
function editsOf(
  reference: ActionReference,
  targetVersion: string,
  commit: () => { commit: string } | { cannot: string },
): Edit[] | { cannot: string } {
  const at = `${reference.file} (${reference.where})`;
  if (reference.refSpan === null) return { cannot: `${at}: the reference is written with escapes or as a block scalar` };
  if (reference.kind === 'tag') return [{ ...reference.refSpan, text: targetVersion }];
  const found = commit();
  if ('cannot' in found) return { cannot: `${at}: ${found.cannot}` };
  const edits: Edit[] = [{ ...reference.refSpan, text: found.commit }];
  if (reference.comment) edits.push({ ...reference.comment.span, text: targetVersion });
  return edits;
}

/**
 * Moves every `uses:` reference of `use.name` (owner/repo, any case) whose version in use equals `use.version` (in the
 * scheme's order: `v4` = `v4.0.0`) to `targetVersion`, a tag the registry lists, pinning exactly that tag so that the
 * file, its comment and the pull request's "to <target>" name the same release (https://docs.github.com/actions/writing-workflows/workflow-syntax-for-github-actions#jobsjob_idstepsuses:
 * a ref is a tag, branch or commit; Dependabot's github_actions file updater, https://github.com/dependabot/dependabot-core
 * `github_actions/lib/dependabot/github_actions/file_updater.rb`, rewrites the same spans):
 * - a tag ref becomes the target tag as the registry names it (`@v3` → `@v4.1.0`), never a shorter tag such as the moving
 *   major tag `v4`, which may name another commit than the target's;
 * - a commit pin takes the target tag's commit, `target.artifacts[0].attributes.commit` (the registry adapter's
 *   `describeVersion` of that very tag), and its version comment becomes the target tag (`# v1.2.0` → `# v2.0.0`,
 *   `# tag=v3.1.4` → `# tag=v4.5.0`).
 * Only the ref's characters (and the comment's version) change: quotes, other comments, indentation and line endings stay.
 * References at other versions, branches, and commit pins without a version comment are left as they are.
 * @returns the changed files with `requirement: null` (actions have no requirement); `unchanged` when every such
 *   reference already is the target tag (or its commit, commented with it); `cannot` when the version in use is unknown,
 *   no reference is at it, a commit pin needs a commit `target` does not give (no `target`, another version, no
 *   `commit`), or a ref is written with escapes
 * @throws InvalidVersionError when `targetVersion` is not a version tag; ManifestParseError when a file does not parse
 */
export function updateActionReferences(
  read: ReadReferences,
  files: Files,
  use: DependencyUse,
  targetVersion: string,
  target: RegistryVersionDetails | undefined,
): ManifestUpdate {
  const scheme = githubActionsVersions;
  if (!scheme.isValid(targetVersion)) throw new InvalidVersionError('GitHub Actions', targetVersion);
  const wanted = use.name.toLowerCase();
  const references = read(files).filter((reference) => reference.name.toLowerCase() === wanted);
  if (references.length === 0) return { cannot: `'${use.name}' is not used in the files read` };
  const inUse = use.version;
  if (inUse === null || !scheme.isValid(inUse)) {
    return { cannot: `the version of '${use.name}' in use is unknown (a branch, or a commit pin without a version comment)` };
  }
  const selected = references.filter((reference) => reference.version !== null && scheme.compare(reference.version, inUse) === 0);
  if (selected.length === 0) return { cannot: `no reference to '${use.name}' is at ${inUse}` };
  let described: { commit: string } | { cannot: string } | undefined;
  const commit = () => {
    described ??= commitOf(targetVersion, target);
    return described;
  };
  const byFile = new Map<string, Edit[]>();
  /** The ref each selected reference will have (its first edit is the ref's). */
  const expected = new Map<ActionReference, string>();
  for (const reference of selected) {
    const edits = editsOf(reference, targetVersion, commit);
    if (!Array.isArray(edits)) return edits;
    expected.set(reference, edits[0]?.text ?? reference.ref);
    const text = files[reference.file] ?? '';
    const changing = edits.filter((edit) => text.slice(edit.start, edit.end) !== edit.text);
    if (changing.length > 0) byFile.set(reference.file, [...(byFile.get(reference.file) ?? []), ...changing]);
  }
  if (byFile.size === 0) return { unchanged: `every reference to '${use.name}' at ${inUse} already pins ${targetVersion}` };
  const changed: Record<string, string> = {};
  for (const [file, edits] of byFile) {
    let text = files[file] ?? '';
    for (const edit of [...edits].sort((a, b) => b.start - a.start)) text = text.slice(0, edit.start) + edit.text + text.slice(edit.end);
    changed[file] = text;
  }
  let again: ActionReference[];
  try {
    again = read({ ...files, ...changed }).filter((reference) => reference.name.toLowerCase() === wanted);
  } catch (error) {
    return { cannot: `the rewritten files no longer read: ${(error as Error).message}` };
  }
  // The same references, in the same places, each with the ref it was given (or kept).
  const agrees =
    again.length === references.length &&
    references.every((before, i) => {
      const after = again[i];
      return after?.file === before.file && after.where === before.where && after.ref === (expected.get(before) ?? before.ref);
    });
  if (!agrees) return { cannot: `the rewritten references to '${use.name}' do not read back as written` };
  return { files: changed, requirement: null };
}
