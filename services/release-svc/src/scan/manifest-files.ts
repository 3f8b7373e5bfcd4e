import type { CodeHost } from '@switchyard/code-host';
import type { Ecosystem } from '@switchyard/ecosystems';

/** The files of an ecosystem found in a config's directory, or which required ones are missing. */
export type ManifestFiles = { files: Record<string, string> } | { missing: string };

/**
 * Reads the ecosystem's manifest and lockfiles in `directory` of `repoFullName` at `branch` through the
 * code host, all at once. Optional files that do not exist are left out.
 * @throws CodeHostError when the code host fails (a `not_found` for a single file is not a failure)
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
  const contents = await Promise.all(names.map((file) => host.readFile(token, { owner, name }, `${base}${file}`, branch)));
  const files: Record<string, string> = {};
  names.forEach((file, i) => {
    const text = contents[i];
    if (text !== undefined) files[file] = text;
  });
  const unmet = ecosystem.files.required.find((alternatives) => !alternatives.some((file) => file in files));
  if (unmet) return { missing: `no ${unmet.join(' or ')} in ${directory} on branch ${branch}` };
  return { files };
}
