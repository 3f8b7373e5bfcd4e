import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PackageManager } from '@switchyard/contracts';
import { type Ecosystem, matchesFilePattern, SUPPORTED_PACKAGE_MANAGERS, unmetRequirement } from '../src/index.ts';
import { readDirectory } from './directory-read.ts';

/**
 * Real-world manifests and lockfiles kept outside the repository (`ecosystems/<package manager>/<file>`, listed
 * in `ecosystems/SOURCES.tsv` with their repository, path and commit): `CORPUS_DIR`, else `../shared/corpus` beside the
 * repository, as CI lays it out. They are read from there when present, never copied into the project.
 */
const CORPUS = join(process.env.CORPUS_DIR ?? fileURLToPath(new URL('../../../../shared/corpus', import.meta.url)), 'ecosystems');

/** Is the corpus there? */
export const CORPUS_PRESENT = existsSync(join(CORPUS, 'SOURCES.tsv'));

/** The package managers the corpus holds files of (`SOURCES.tsv`'s first column), in the API's order: all but elm and dep. */
export const CORPUS_PACKAGE_MANAGERS: readonly PackageManager[] = CORPUS_PRESENT
  ? (() => {
      const listed = new Set(
        readFileSync(join(CORPUS, 'SOURCES.tsv'), 'utf8')
          .split('\n')
          .slice(1)
          .map((line) => line.split('\t')[0]),
      );
      return SUPPORTED_PACKAGE_MANAGERS.filter((pm) => listed.has(pm));
    })()
  : [];

/** One directory of one repository: the files an ecosystem reads there, by file name. */
export interface CorpusDirectory {
  label: string;
  files: Record<string, string>;
}

/** The folder (`.` for the root) in which `path` is the file entry `entry` names (`.github/workflows/*.yml`), if it is one. */
function folderOf(entry: string, path: string): string[] {
  const depth = entry.split('/').length;
  const parts = path.split('/');
  if (parts.length < depth || !matchesFilePattern(entry, parts.slice(-depth).join('/'))) return [];
  return [parts.length === depth ? '.' : parts.slice(0, -depth).join('/')];
}

/**
 * The corpus directories holding an ecosystem's required files, from SOURCES.tsv (`package_manager repo path commit
 * file`): per directory of a repository, the files its entries name (as given or by a `*` pattern, one path segment),
 * then the files its `files.related` points at that the corpus holds for that repository (a parent directory's
 * `../Directory.Packages.props`, workspace members `crates/grep/Cargo.toml`), keyed as the worker keys them.
 */
export function corpusDirectories(ecosystem: Ecosystem): CorpusDirectory[] {
  if (!CORPUS_PRESENT) return [];
  const entries = [...ecosystem.files.required.flat(), ...ecosystem.files.optional];
  const repositories = new Map<string, Map<string, string>>();
  for (const line of readFileSync(join(CORPUS, 'SOURCES.tsv'), 'utf8').split('\n').slice(1)) {
    const [manager, repo, path, , file] = line.split('\t');
    if (manager !== ecosystem.packageManager || !repo || !path || !file) continue;
    const files = repositories.get(repo) ?? new Map<string, string>();
    files.set(path, file);
    repositories.set(repo, files);
  }
  const directories: CorpusDirectory[] = [];
  for (const [repo, repoFiles] of repositories) {
    const tree = Object.fromEntries([...repoFiles].map(([path, file]) => [path, readFileSync(join(CORPUS, file), 'utf8')]));
    const folders = new Set([...repoFiles.keys()].flatMap((path) => entries.flatMap((entry) => folderOf(entry, path))));
    for (const folder of folders) {
      const files = readDirectory(ecosystem, tree, folder === '.' ? '/' : `/${folder}`);
      if (unmetRequirement(ecosystem.files.required, Object.keys(files))) continue;
      directories.push({ label: `${repo}/${folder}`, files });
    }
  }
  return directories;
}
