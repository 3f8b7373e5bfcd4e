import { createHash } from 'node:crypto';
import { type FileContent, fileSha } from '../files.ts';

/**
 * Git's object model as the emulator keeps it in memory: blobs, trees and commits, each named by the id git itself
 * would give it (sha1 of `<type> <length>\0<body>`, https://git-scm.com/book/en/v2/Git-Internals-Git-Objects), so the
 * same content always gets the same id, across starts and as in a real clone.
 */

/** A tree entry's file mode as GitHub's API writes it: file, executable, directory, submodule, symlink. */
export type TreeMode = '100644' | '100755' | '040000' | '160000' | '120000';
/** Every {@link TreeMode}. */
export const TREE_MODES: readonly TreeMode[] = ['100644', '100755', '040000', '160000', '120000'];

/** What a tree entry points at: a blob (file or symlink), a tree (directory) or a commit (submodule). */
export type TreeEntryType = 'blob' | 'tree' | 'commit';

/** The type of entry a mode stands for. */
export function entryTypeOf(mode: TreeMode): TreeEntryType {
  return mode === '040000' ? 'tree' : mode === '160000' ? 'commit' : 'blob';
}

/** A file's bytes under its git blob id. `content` is seed text, a generated file or bytes written through the API. */
export interface GitBlob {
  type: 'blob';
  sha: string;
  content: FileContent;
}

/** One entry of a tree: a name (no slash), its mode, type and the id of the object it points at. */
export interface TreeEntry {
  name: string;
  mode: TreeMode;
  type: TreeEntryType;
  sha: string;
}

/** A directory: entries in git's order (see {@link sortTreeEntries}). */
export interface GitTree {
  type: 'tree';
  sha: string;
  entries: readonly TreeEntry[];
}

/** A commit's author or committer: name, email and an ISO 8601 date (whole seconds, UTC). */
export interface GitSignature {
  name: string;
  email: string;
  date: string;
}

/** A commit: its tree, parents (first parent first), author, committer, message, and signature when signed. */
export interface GitCommit {
  type: 'commit';
  sha: string;
  tree: string;
  parents: readonly string[];
  author: GitSignature;
  committer: GitSignature;
  message: string;
  /**
   * The ASCII-armoured signature of a signed commit (git's `gpgsig` header, https://git-scm.com/docs/signature-format),
   * made over {@link commitPayload}; absent on an unsigned commit.
   */
  gpgsig?: string;
}

/** Any object of the store. */
export type GitObject = GitBlob | GitTree | GitCommit;

/** Git's id of an object: sha1 of `<type> <byte length>\0` followed by its body, as 40 lowercase hex digits. */
export function objectId(type: 'blob' | 'tree' | 'commit', body: Buffer): string {
  return createHash('sha1').update(`${type} ${body.length}\0`).update(body).digest('hex');
}

/** A blob of `content` with its git id (a generated file is hashed chunk by chunk, never held whole). */
export function makeBlob(content: FileContent): GitBlob {
  return { type: 'blob', sha: fileSha(content), content };
}

/**
 * Sorts entries as git does: by name bytes, a tree's name compared as if it ended with `/`
 * (so `a.txt` comes before the directory `a` whose key is `a/`, and after a file `a`).
 */
export function sortTreeEntries(entries: readonly TreeEntry[]): TreeEntry[] {
  const key = (entry: TreeEntry) => Buffer.from(entry.type === 'tree' ? `${entry.name}/` : entry.name, 'utf8');
  return [...entries].sort((a, b) => Buffer.compare(key(a), key(b)));
}

/**
 * A tree of `entries` (sorted here) with its git id. Git writes a directory's mode as `40000` inside the object
 * (GitHub's API shows `040000`): each entry is `<mode> <name>\0` followed by the 20 raw bytes of its id.
 */
export function makeTree(entries: readonly TreeEntry[]): GitTree {
  const sorted = sortTreeEntries(entries);
  const body = Buffer.concat(
    sorted.flatMap((entry) => [
      Buffer.from(`${entry.mode === '040000' ? '40000' : entry.mode} ${entry.name}\0`, 'utf8'),
      Buffer.from(entry.sha, 'hex'),
    ]),
  );
  return { type: 'tree', sha: objectId('tree', body), entries: sorted };
}

/** `Name <email> <epoch seconds> +0000`, git's signature line for an ISO date. */
function signatureLine(signature: GitSignature): string {
  return `${signature.name} <${signature.email}> ${Math.floor(Date.parse(signature.date) / 1000)} +0000`;
}

/** An ISO 8601 date in whole seconds, UTC (`2024-01-02T03:04:05Z`), as GitHub writes commit dates. */
export function gitDate(epochMs: number): string {
  return new Date(Math.floor(epochMs / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** The header lines of a commit object: `tree`, `parent` lines, `author`, `committer`. */
function commitHeaders(fields: Omit<GitCommit, 'type' | 'sha' | 'gpgsig'>): string[] {
  return [
    `tree ${fields.tree}`,
    ...fields.parents.map((parent) => `parent ${parent}`),
    `author ${signatureLine(fields.author)}`,
    `committer ${signatureLine(fields.committer)}`,
  ];
}

/**
 * What a commit's signature signs: the commit object's text without its `gpgsig` header (headers, a blank line, the
 * message), as git hands it to gpg (https://git-scm.com/docs/signature-format#_commit_signatures).
 */
export function commitPayload(fields: Omit<GitCommit, 'type' | 'sha' | 'gpgsig'>): string {
  return [...commitHeaders(fields), '', fields.message].join('\n');
}

/**
 * A commit with its git id: `tree`, `parent` lines, `author`, `committer`, the `gpgsig` header of a signed commit (its
 * lines after the first indented by one space), a blank line and the message.
 */
export function makeCommit(fields: Omit<GitCommit, 'type' | 'sha'>): GitCommit {
  const signature = fields.gpgsig === undefined ? [] : [`gpgsig ${fields.gpgsig.split('\n').join('\n ')}`];
  const lines = [...commitHeaders(fields), ...signature, '', fields.message];
  return { type: 'commit', sha: objectId('commit', Buffer.from(lines.join('\n'), 'utf8')), ...fields };
}
