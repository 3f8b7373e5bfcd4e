import { type CodeHost, type CodeHostTokens, isCodeHostError } from '@switchyard/code-host';
import type { RepoConfigFileRead } from '@switchyard/contracts';
import type { Logger } from '@switchyard/service-kit';
import type { Kysely } from 'kysely';
import type { ReleaseDatabase } from '../db/schema.ts';
import { findConfigFileIssue, saveConfigFileIssue } from './config-file.repository.ts';

/** What the issue about an invalid config file says: Dependabot Preview's title, and a body listing the problems. */
export interface ConfigFileIssueText {
  title: string;
  body: string;
}

/** The comment left on the issue when the file is valid again (or gone), before it is closed. */
export function resolvedComment(path: string, file: RepoConfigFileRead['file']): string {
  return file === null
    ? `${path} is no longer on the default branch, so there is nothing left to fix. Closing this issue.`
    : `${path} is valid now: its update configs are in use. Closing this issue.`;
}

/**
 * Keeps the issue about repository `read.repo`'s config file in step with the file, as Dependabot Preview did
 * ("Your .dependabot/config.yml contained invalid details", closed once the file is fixed): an invalid file opens the
 * issue (`text`), or updates its body when the problems changed or a person closed it meanwhile (reopening it), or opens
 * another when it is gone from the code host (what this service recorded is checked against the host first); a valid
 * file, or none, closes an issue still open with a comment saying why (one gone from the host is just forgotten). A repository with issues turned off (the code
 * host answers 410) gets none: the repo resource and the dashboard show the problems all the same.
 * @throws CodeHostError when the code host fails otherwise (the caller retries the whole read later)
 */
export async function reconcileConfigFileIssue(
  deps: { db: Kysely<ReleaseDatabase>; codeHost: CodeHost; tokens: CodeHostTokens; logger: Logger },
  read: RepoConfigFileRead,
  text: ConfigFileIssueText | null,
): Promise<void> {
  const { db, codeHost: host } = deps;
  const repo = { owner: read.repo.owner.login, name: read.repo.name };
  const token = await deps.tokens.forOwner(repo.owner);
  const recorded = await findConfigFileIssue(db, read.repo.id);
  if (read.file && !read.file.valid && text) {
    if (recorded?.open) {
      // The code host says what became of it: still open, closed by a person, or gone.
      const current = host.getIssue ? await host.getIssue(token, repo, recorded.issue_number) : undefined;
      if (current?.state === 'open' && recorded.body === text.body) return;
      if (current && host.updateIssue) {
        await host.updateIssue(token, repo, recorded.issue_number, { title: text.title, body: text.body, state: 'open' });
        await saveConfigFileIssue(db, { ...recorded, path: read.file.path, body: text.body, open: true });
        return;
      }
    }
    if (!host.openIssue) return;
    try {
      const issue = await host.openIssue(token, repo, text);
      await saveConfigFileIssue(db, {
        repo_id: read.repo.id,
        path: read.file.path,
        issue_number: issue.number,
        body: text.body,
        open: true,
      });
    } catch (error) {
      if (isCodeHostError(error, 'not_found') && error.status === 410) {
        deps.logger.info(
          { repo: read.repo.fullName },
          'issues are turned off: the invalid config file is reported on the repo resource only',
        );
        return;
      }
      throw error;
    }
    return;
  }
  if (!recorded?.open) return;
  try {
    await host.comment?.(token, repo, recorded.issue_number, resolvedComment(recorded.path, read.file));
    await host.updateIssue?.(token, repo, recorded.issue_number, { state: 'closed', stateReason: 'completed' });
  } catch (error) {
    // An issue gone from the code host has nothing left to close.
    if (!isCodeHostError(error, 'not_found')) throw error;
  }
  await saveConfigFileIssue(db, { ...recorded, open: false });
}
