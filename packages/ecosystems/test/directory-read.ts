import { type Ecosystem, isFilePattern, matchesFilePattern, RELATED_ROUNDS, relatedFiles, repositoryPath } from '../src/index.ts';

/**
 * The files map the worker gives `ecosystem` for `directory` (`/`, `/src/App`) of a repository `tree` (path from the
 * root → text), read as release-svc's `readManifestFiles` reads them: the files its entries name below the directory
 * (as given, or by a `*` pattern of one segment), then up to {@link RELATED_ROUNDS} rounds of what `files.related`
 * names that the tree holds (plain paths, `../` included, under the key `related` gave; patterns matched below the
 * directory, under their path there).
 */
export function readDirectory(ecosystem: Ecosystem, tree: Readonly<Record<string, string>>, directory: string): Record<string, string> {
  const prefix = directory === '/' ? '' : `${directory.replace(/^\/+|\/+$/g, '')}/`;
  const below = (path: string) => (path.startsWith(prefix) ? path.slice(prefix.length) : undefined);
  const entries = [...ecosystem.files.required.flat(), ...ecosystem.files.optional];
  const files: Record<string, string> = {};
  for (const [path, text] of Object.entries(tree)) {
    const name = below(path);
    if (name !== undefined && entries.some((entry) => matchesFilePattern(entry, name))) files[name] = text;
  }
  for (let round = 0; round < RELATED_ROUNDS; round++) {
    let added = 0;
    for (const wanted of relatedFiles(ecosystem.files, files, directory)) {
      const found: Array<[string, string]> = isFilePattern(wanted)
        ? Object.entries(tree).flatMap(([path, text]): Array<[string, string]> => {
            const name = below(path);
            return name !== undefined && matchesFilePattern(wanted, name) ? [[name, text]] : [];
          })
        : (() => {
            const at = repositoryPath(directory, wanted);
            const text = at === undefined ? undefined : tree[at];
            return text === undefined ? [] : [[wanted, text]];
          })();
      for (const [key, text] of found) {
        if (key in files) continue;
        files[key] = text;
        added++;
      }
    }
    if (added === 0) break;
  }
  return files;
}
