import { isCodeHostError } from './errors.ts';
import type { CodeHost, FileReads, ReadFilesOptions, RepoRef } from './port.ts';

/**
 * Reads `paths` of `repo` at `ref` with one `readFile` call each, all at once, into `into` (a new {@link FileReads} when
 * not given): the text of each file that exists, and a file over the code host client's size limit (`too_large`) in
 * `tooLarge` with the limit and size the error gave (`limitBytes` when it gave none) instead of failing the others.
 * What a code host without `readFiles` does, and what the GitHub adapter does for the files it reads alone.
 * @throws CodeHostError of any kind but `too_large`
 */
export async function readEachFile(
  readFile: CodeHost['readFile'],
  token: string,
  repo: RepoRef,
  paths: readonly string[],
  { ref, limitBytes, into = { files: {}, tooLarge: {} } }: { ref?: string | undefined; limitBytes?: number; into?: FileReads } = {},
): Promise<FileReads> {
  await Promise.all(
    paths.map(async (path) => {
      try {
        const text = await readFile(token, repo, path, ref);
        if (text !== undefined) into.files[path] = text;
      } catch (error) {
        if (!isCodeHostError(error, 'too_large')) throw error;
        const limit = error.limitBytes ?? limitBytes;
        into.tooLarge[path] = {
          ...(limit === undefined ? {} : { limitBytes: limit }),
          ...(error.sizeBytes === undefined ? {} : { sizeBytes: error.sizeBytes }),
        };
      }
    }),
  );
  return into;
}

/**
 * Several files of `repo` through `host.readFiles` when the code host has it (as few requests as it allows), else one
 * `readFile` each ({@link readEachFile}); either way as a {@link FileReads} keyed by the paths as asked.
 * @throws CodeHostError of any kind but `too_large`
 */
export function readFilesOf(
  host: Pick<CodeHost, 'readFile' | 'readFiles'>,
  token: string,
  repo: RepoRef,
  paths: readonly string[],
  options: ReadFilesOptions = {},
): Promise<FileReads> {
  if (host.readFiles) return host.readFiles(token, repo, paths, options);
  return readEachFile(host.readFile.bind(host), token, repo, paths, { ref: options.ref });
}
