import type { CodeHost, CodeHostTokens, RepositoryFiles, RepositoryRead } from '@switchyard/code-host';
import { type Ecosystem, isFilePattern, repositoryPath } from '@switchyard/ecosystems';
import type { Logger } from '@switchyard/service-kit';
import type { ReadableTarget } from './target.policy.ts';

/**
 * What a read of many repositories at once ({@link readTargetsTogether}) found for one config: the commit its branch's
 * head was at, and its ecosystem's files in its directory at that commit by path relative to the directory (`files`,
 * `tooLarge`: each asked file that exists is in one of them). The rest of a read (related files, a too-large file's
 * reason) goes on from here as a read of that config alone would.
 */
export interface FoundTogether {
  commit: string;
  files: Record<string, string>;
  tooLarge: Record<string, { limitBytes?: number; sizeBytes?: number }>;
}

/**
 * Whether an ecosystem's first read can be asked by path, without listing the directory: every file entry is a plain
 * name in the directory itself (no `*` pattern, no subdirectory) and it reads no gitlinks (those need a listing).
 */
export function readableByPath(ecosystem: Ecosystem): boolean {
  if (ecosystem.files.gitlinks === true) return false;
  const entries = [...ecosystem.files.required.flat(), ...ecosystem.files.optional];
  return entries.every((entry) => !isFilePattern(entry) && !entry.includes('/'));
}

/** The plain entries of `ecosystem` (required and optional), each once. */
function entriesOf(ecosystem: Ecosystem): string[] {
  return [...new Set([...ecosystem.files.required.flat(), ...ecosystem.files.optional])];
}

/**
 * Reads the first files of many configs at once, through the code host's multi-repository read
 * (`CodeHost.readRepositories`; GitHub: two GraphQL queries per 50 repositories, where reading each alone costs a
 * listing and a query): per config whose ecosystem is {@link readableByPath}, its ecosystem's entries in its
 * directory on its branch, grouped by the token of the repository's owner. A config left out of the answer (its
 * ecosystem needs a listing, its repository could not be read that way, the code host has no such read, or the read
 * failed: logged) is read alone by the caller, which meets any error itself.
 * @returns by config id, what was found
 */
export async function readTargetsTogether(
  host: CodeHost,
  tokens: CodeHostTokens,
  targets: ReadonlyMap<number, ReadableTarget>,
  logger: Logger,
): Promise<Map<number, FoundTogether>> {
  const found = new Map<number, FoundTogether>();
  const readRepositories = host.readRepositories?.bind(host);
  if (!readRepositories) return found;
  const byOwner = new Map<string, { configId: number; target: ReadableTarget; paths: Map<string, string> }[]>();
  for (const [configId, target] of targets) {
    if (!readableByPath(target.ecosystem)) continue;
    const paths = new Map<string, string>();
    for (const entry of entriesOf(target.ecosystem)) {
      const path = repositoryPath(target.config.directory, entry);
      if (path !== undefined) paths.set(path, entry);
    }
    const owner = target.repo.fullName.split('/')[0] ?? '';
    const list = byOwner.get(owner) ?? [];
    byOwner.set(owner, list);
    list.push({ configId, target, paths });
  }
  await Promise.all(
    [...byOwner].map(async ([owner, list]) => {
      let answers: Array<RepositoryFiles | undefined>;
      try {
        const token = await tokens.forOwner(owner);
        const reads: RepositoryRead[] = list.map(({ target, paths }) => {
          const [repoOwner = '', name = ''] = target.repo.fullName.split('/');
          return { repo: { owner: repoOwner, name }, branch: target.branch, paths: [...paths.keys()] };
        });
        answers = await readRepositories(token, reads);
      } catch (error) {
        logger.warn({ err: error, owner, configs: list.length }, 'the configs are read one by one: their read together failed');
        return;
      }
      list.forEach(({ configId, paths }, i) => {
        const answer = answers[i];
        if (!answer) return;
        const mine: FoundTogether = { commit: answer.commit, files: {}, tooLarge: {} };
        for (const [path, entry] of paths) {
          const text = answer.files[path];
          const over = answer.tooLarge[path];
          if (text !== undefined) mine.files[entry] = text;
          else if (over) mine.tooLarge[entry] = over;
        }
        found.set(configId, mine);
      });
    }),
  );
  return found;
}
