import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PackageManager } from '@switchyard/contracts';
import type { Ecosystem } from '../src/index.ts';

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

/** The corpus directories holding an ecosystem's required files, from SOURCES.tsv (`package_manager repo path commit file`). */
export function corpusDirectories(ecosystem: Ecosystem): CorpusDirectory[] {
  if (!CORPUS_PRESENT) return [];
  const read = new Set([...ecosystem.files.required.flat(), ...ecosystem.files.optional]);
  const directories = new Map<string, CorpusDirectory>();
  for (const line of readFileSync(join(CORPUS, 'SOURCES.tsv'), 'utf8').split('\n').slice(1)) {
    const [manager, repo, path, , file] = line.split('\t');
    if (manager !== ecosystem.packageManager || !repo || !path || !file || !read.has(basename(path))) continue;
    const label = `${repo}/${dirname(path)}`;
    const directory = directories.get(label) ?? { label, files: {} };
    directory.files[basename(path)] = readFileSync(join(CORPUS, file), 'utf8');
    directories.set(label, directory);
  }
  return [...directories.values()].filter((d) => ecosystem.files.required.every((any) => any.some((name) => name in d.files)));
}
