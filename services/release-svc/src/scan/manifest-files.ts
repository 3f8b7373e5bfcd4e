import { type CodeHost, type CodeHostError, formatBytes, isCodeHostError } from '@switchyard/code-host';
import type { Ecosystem } from '@switchyard/ecosystems';

/**
 * The files of an ecosystem found in a config's directory; or which required ones are missing; or which are bigger
 * than the code host client accepts (`tooLarge`, e.g. `package-lock.json in /web is 150.0 MiB, over the 5.0 MiB limit`).
 */
export type ManifestFiles = { files: Record<string, string> } | { missing: string } | { tooLarge: string };

/**
 * Why `file` in `directory` cannot be read, from the code host's `too_large`: its size (when the code host said it)
 * and the limit, e.g. `package-lock.json in /web is 150.0 MiB, over the 5.0 MiB limit`.
 */
export function tooLargeReason(file: string, directory: string, error: CodeHostError): string {
  const size = error.sizeBytes === undefined ? 'over' : `${formatBytes(error.sizeBytes)}, over`;
  const limit = error.limitBytes === undefined ? 'size limit' : `${formatBytes(error.limitBytes)} limit`;
  return `${file} in ${directory} is ${size} the ${limit}`;
}

/**
 * Reads the ecosystem's manifest and lockfiles in `directory` of `repoFullName` at `branch` through the
 * code host, all at once. Optional files that do not exist are left out. A file over the code host client's size
 * limit (`too_large`: never read past the limit) makes the result `tooLarge`, naming every such file.
 * @throws CodeHostError when the code host fails otherwise (a `not_found` for a single file is not a failure)
 */
export async function readManifestFiles(
  host: CodeHost,
  token: string,
  repoFullName: string,
  directory: string,
  branch: string,
  ecosystem: Ecosystem,
): Promise<ManifestFiles> {
  const [owner = '', name = ''] = repoFullName.split('/');
  const names = [...new Set([...ecosystem.files.required.flat(), ...ecosystem.files.optional])];
  const base = directory === '/' ? '' : `${directory.replace(/^\/+|\/+$/g, '')}/`;
  const tooLarge: string[] = [];
  const contents = await Promise.all(
    names.map(async (file) => {
      try {
        return await host.readFile(token, { owner, name }, `${base}${file}`, branch);
      } catch (error) {
        if (!isCodeHostError(error, 'too_large')) throw error;
        tooLarge.push(tooLargeReason(file, directory, error));
        return undefined;
      }
    }),
  );
  if (tooLarge.length > 0) return { tooLarge: tooLarge.sort().join('; ') };
  const files: Record<string, string> = {};
  names.forEach((file, i) => {
    const text = contents[i];
    if (text !== undefined) files[file] = text;
  });
  const unmet = ecosystem.files.required.find((alternatives) => !alternatives.some((file) => file in files));
  if (unmet) return { missing: `no ${unmet.join(' or ')} in ${directory} on branch ${branch}` };
  return { files };
}
