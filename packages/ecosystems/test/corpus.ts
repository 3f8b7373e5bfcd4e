import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PackageManager } from '@switchyard/contracts';
import { type Ecosystem, isFilePattern, matchesFilePattern, relatedFiles, repositoryPath, unmetRequirement } from '../src/index.ts';

/**
 * Real-world manifests and lockfiles kept outside the repository (`ecosystems/<package manager>/<file>`, listed
 * in `ecosystems/SOURCES.tsv` with their repository, path and commit): `CORPUS_DIR`, else `../shared/corpus` beside the
 * repository, as CI lays it out. They are read from there when present, never copied into the project.
 */
const CORPUS = join(process.env.CORPUS_DIR ?? fileURLToPath(new URL('../../../../shared/corpus', import.meta.url)), 'ecosystems');

/** The package managers the corpus holds files of (`SOURCES.tsv`'s first column): the first six the service supported. */
export const CORPUS_PACKAGE_MANAGERS: readonly PackageManager[] = ['bundler', 'composer', 'maven', 'npm_and_yarn', 'cargo', 'pip'];

/** Is the corpus there? */
export const CORPUS_PRESENT = existsSync(join(CORPUS, 'SOURCES.tsv'));

/** One directory of one repository: the files an ecosystem reads there, by file name. */
export interface CorpusDirectory {
  label: string;
  files: Record<string, string>;
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
    const folders = new Set(
      [...repoFiles.keys()].filter((path) => entries.some((entry) => matchesFilePattern(entry, basename(path)))).map(dirname),
    );
    for (const folder of folders) {
      const directory = folder === '.' ? '/' : `/${folder}`;
      const files: Record<string, string> = {};
      const relative = (path: string) =>
        folder === '.' ? path : path.startsWith(`${folder}/`) ? path.slice(folder.length + 1) : undefined;
      for (const [path, file] of repoFiles) {
        const name = relative(path);
        if (name !== undefined && !name.includes('/') && entries.some((entry) => matchesFilePattern(entry, name))) {
          files[name] = readFileSync(join(CORPUS, file), 'utf8');
        }
      }
      if (unmetRequirement(ecosystem.files.required, Object.keys(files))) continue;
      const related = relatedFiles(ecosystem.files, files, directory);
      for (const [path, file] of repoFiles) {
        const name = relative(path);
        const wanted = related.find((entry) =>
          isFilePattern(entry) ? name !== undefined && matchesFilePattern(entry, name) : repositoryPath(directory, entry) === path,
        );
        if (wanted === undefined) continue;
        files[isFilePattern(wanted) ? (name as string) : wanted] = readFileSync(join(CORPUS, file), 'utf8');
      }
      directories.push({ label: `${repo}/${folder}`, files });
    }
  }
  return directories;
}
