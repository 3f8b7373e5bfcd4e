import type { CodeHost, CodeHostTokens } from '@switchyard/code-host';
import { type RepoConfigFileRead, RepoConfigFileReadEvent } from '@switchyard/contracts';
import { configFileIssue } from '@switchyard/repo-config';
import type { Logger } from '@switchyard/service-kit';
import type { Kysely } from 'kysely';
import { releaseOutbox } from '../db/outbox.ts';
import type { ReleaseDatabase } from '../db/schema.ts';
import { findKnownRepo } from '../read-model/read-model.repository.ts';
import {
  type ConfigFileCheck,
  claimConfigFileChecks,
  finishConfigFileCheck,
  recordConfigFileRead,
  retryConfigFileCheck,
} from './config-file.repository.ts';
import { reconcileConfigFileIssue } from './config-file-issue.service.ts';
import { readRepoConfigFiles } from './config-file-read.service.ts';

/** What reading repositories' config files needs. */
export interface ConfigFileCheckDeps {
  db: Kysely<ReleaseDatabase>;
  codeHost: CodeHost;
  /** The tokens the worker reads and writes repositories with (per account in App mode). */
  tokens: CodeHostTokens;
  logger: Logger;
}

/** Requests taken a round; the reads run one after another (each is one or two code-host requests). */
const BATCH = 20;
/** How long a claimed request stays with the worker that claimed it before another may take it, ms. */
const LEASE_MS = 120_000;
/** Attempts of a read before its request is dropped (the next push asks again). */
const MAX_ATTEMPTS = 8;

/**
 * Handles one request: the repository as the code host describes it (a request a run made carries none: the worker
 * asks, and drops the request for a repository it cannot see), then reads the repository's config files ({@link readRepoConfigFiles}), hands the result to
 * config-svc (`repo_config_file.read` through the outbox, in the transaction that removes the request), then keeps the
 * issue about an invalid file in step ({@link reconcileConfigFileIssue}; a failure there is logged and does not undo
 * the read: the next read tries again).
 * @throws CodeHostError when the files cannot be read (the caller retries later)
 */
export async function checkConfigFiles(deps: ConfigFileCheckDeps, check: ConfigFileCheck): Promise<void> {
  const repository = check.repository ?? (await describeRepo(deps, check.repo_id));
  if (!repository) {
    // Gone, or no longer readable with the worker's token: nothing to read.
    await deps.db.transaction().execute((trx) => finishConfigFileCheck(trx, check));
    return;
  }
  const { read, parsed } = await readRepoConfigFiles(deps.codeHost, await deps.tokens.forOwner(repository.owner.login), repository);
  await deps.db.transaction().execute(async (trx) => {
    await releaseOutbox.append(trx, [releaseOutbox.event(RepoConfigFileReadEvent, read)]);
    await finishConfigFileCheck(trx, check);
    await recordConfigFileRead(trx, check.repo_id);
  });
  const problems = read.file && !read.file.valid ? read.file : null;
  const text = parsed && problems ? configFileIssue(parsed) : problems ? fallbackIssue(problems.path, problems.problems) : null;
  try {
    await reconcileConfigFileIssue(deps, read, text);
  } catch (error) {
    deps.logger.warn({ err: error, repo: read.repo.fullName }, 'the issue about the config file could not be kept in step');
  }
  deps.logger.info(
    { repo: read.repo.fullName, file: read.file?.path ?? null, valid: read.file?.valid ?? null, configs: read.configs.length },
    'config files read',
  );
}

/** Repo `repoId` as the code host describes it to the worker (a request a run made carries none), or undefined. */
async function describeRepo(deps: ConfigFileCheckDeps, repoId: number): Promise<RepoConfigFileRead['repo'] | undefined> {
  const known = await findKnownRepo(deps.db, repoId);
  if (!known) return undefined;
  const repo = await deps.codeHost.getRepo(await deps.tokens.forOwner(known.full_name.split('/')[0] ?? ''), repoId);
  if (!repo) return undefined;
  const { permission: _permission, ...described } = repo;
  return described;
}

/** The issue of a file that could not be parsed at all (too large to read). */
function fallbackIssue(path: string, problems: ReadonlyArray<{ message: string }>) {
  return {
    title: `Your ${path} contained invalid details`,
    body: `Dependabot encountered the following error when parsing your \`${path}\`:\n\n\`\`\`\n${problems.map((p) => p.message).join('\n')}\n\`\`\``,
  };
}

/**
 * One round: claims the due requests (up to 20, leased for 2 minutes) and handles each ({@link checkConfigFiles}); a
 * read that fails is retried later with a growing delay, and dropped after 8 attempts.
 * @returns how many requests were handled
 */
export async function checkDueConfigFiles(deps: ConfigFileCheckDeps): Promise<number> {
  const due = await claimConfigFileChecks(deps.db, BATCH, LEASE_MS);
  let handled = 0;
  for (const check of due) {
    try {
      await checkConfigFiles(deps, check);
      handled += 1;
    } catch (error) {
      const kept = await retryConfigFileCheck(deps.db, check, error instanceof Error ? error.message : String(error), MAX_ATTEMPTS);
      deps.logger.warn(
        { err: error, repo: check.repository?.fullName ?? check.repo_id, retried: kept },
        'the config files could not be read',
      );
    }
  }
  return handled;
}
