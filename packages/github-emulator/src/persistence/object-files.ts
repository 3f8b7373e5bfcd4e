import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { deflate, inflate } from 'node:zlib';
import { fileBytes } from '../files.ts';
import type { GitCommit, GitObject, TreeEntry } from '../git/objects.ts';
import type { GitRepository } from '../git/repository-store.ts';
import { writeFileAtomically } from './atomic-file.ts';
import { SavedStateError } from './saved-state-error.ts';

/**
 * The git objects a world made through the API, one file each under the data folder's `objects/`, named as git names
 * loose objects (`objects/ab/cdef…`: the first two hex digits of the id, then the other 38,
 * https://git-scm.com/book/en/v2/Git-Internals-Git-Objects) and zlib-deflated as git's are. Inside: a blob's bytes, a
 * tree's entries or a commit's fields (its signature too, when signed) as JSON (not git's own encoding, so nothing has
 * to be parsed back). Objects are content-addressed and never change, so each is written once and never rewritten; the
 * seed's objects are not written at all (they are made again from the saved seed). Reading one checks that its content
 * has the id it is filed under.
 */

/** The folder of object files, under the data folder. */
export const OBJECTS_DIR = 'objects';

const deflated = promisify(deflate);
const inflated = promisify(inflate);

/** The path of object `sha`'s file. */
export const objectPath = (dataDir: string, sha: string) => join(dataDir, OBJECTS_DIR, sha.slice(0, 2), sha.slice(2));

/** What an object's file holds, before deflating. */
function bodyOf(object: GitObject): Buffer {
  if (object.type === 'blob') return fileBytes(object.content);
  if (object.type === 'tree') return Buffer.from(JSON.stringify(object.entries));
  const { tree, parents, author, committer, message, gpgsig } = object;
  return Buffer.from(JSON.stringify({ tree, parents, author, committer, message, ...(gpgsig === undefined ? {} : { gpgsig }) }));
}

/** Writes `object`'s file (atomically, see `atomic-file.ts`). @throws the file system's errors */
export async function writeObject(dataDir: string, object: GitObject): Promise<void> {
  await writeFileAtomically(dataDir, objectPath(dataDir, object.sha), await deflated(bodyOf(object)));
}

/**
 * Reads object `sha` of `type` from its file and stores it in `git`.
 * @throws SavedStateError when the file is missing, not deflated JSON of the type's shape, or its content's id is not `sha`
 */
export async function readObject(dataDir: string, git: GitRepository, type: GitObject['type'], sha: string): Promise<void> {
  let body: Buffer;
  try {
    body = await inflated(await readFile(objectPath(dataDir, sha)));
  } catch (error) {
    throw new SavedStateError(`${type} ${sha}: ${(error as Error).message}`);
  }
  let made: GitObject;
  try {
    if (type === 'blob') made = git.putBlob(body);
    else if (type === 'tree') made = git.putTree(JSON.parse(body.toString('utf8')) as TreeEntry[]);
    else made = git.putCommit(JSON.parse(body.toString('utf8')) as Omit<GitCommit, 'type' | 'sha'>);
  } catch (error) {
    throw new SavedStateError(`${type} ${sha}: ${(error as Error).message}`);
  }
  if (made.sha !== sha) throw new SavedStateError(`${type} ${sha}: its content has the id ${made.sha}`);
}
