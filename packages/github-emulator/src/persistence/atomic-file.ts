import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/**
 * Writing a file so that a crash never leaves it half written (https://man7.org/linux/man-pages/man2/rename.2.html):
 * the bytes go to a new file in the data folder's `tmp/`, which is flushed to disk and then renamed over the target,
 * so a reader sees the old file or the new one whole. `tmp/` is emptied when the folder is opened.
 */

/** The folder of files being written, under the data folder. */
export const TMP_DIR = 'tmp';

/**
 * Writes `bytes` to `path` (under `dataDir`, its folder made when missing) through a temporary file of `dataDir/tmp/`
 * that is fsynced and renamed over it.
 * @throws the file system's errors (the temporary file is removed first)
 */
export async function writeFileAtomically(dataDir: string, path: string, bytes: Buffer | string): Promise<void> {
  const tmp = join(dataDir, TMP_DIR, `${randomBytes(8).toString('hex')}.tmp`);
  await mkdir(dirname(tmp), { recursive: true });
  await mkdir(dirname(path), { recursive: true });
  const handle = await open(tmp, 'w', 0o600);
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(tmp, path);
  } catch (error) {
    await rm(tmp, { force: true });
    throw error;
  }
}

/** Flushes a folder's entries (a rename into it) to disk; a platform that cannot is left alone. */
export async function syncFolder(path: string): Promise<void> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(path, 'r');
    await handle.sync();
  } catch {
    // Some platforms and file systems refuse to open or fsync a folder; the rename itself is still atomic there.
  } finally {
    await handle?.close();
  }
}

/** Removes what a crash may have left in `dataDir/tmp/`. */
export async function clearTmp(dataDir: string): Promise<void> {
  await rm(join(dataDir, TMP_DIR), { recursive: true, force: true });
}
