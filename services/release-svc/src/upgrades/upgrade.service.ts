import {
  type Caller,
  type CodeHost,
  type CodeHostTokens,
  type CodeHostView,
  isCodeHostError,
  type RepoRef,
  requireRepoPermission,
  transientCodeHostError,
} from '@switchyard/code-host';
import { writeDependabotYml } from '@switchyard/repo-config';
import type { Logger } from '@switchyard/service-kit';
import { NotFound } from '@switchyard/service-kit';
import type { Kysely } from 'kysely';
import type { ReleaseDatabase } from '../db/schema.ts';
import { listConfigIgnores } from '../read-model/config-ignore.repository.ts';
import { findAccountSchedule, findKnownRepo, findScanTargets, listRepoConfigIds } from '../read-model/read-model.repository.ts';
import { labelPullRequest } from '../repo-labels/repo-label.service.ts';
import { claimUpgrades, findUpgrade, finishUpgrade, requestUpgrade, retryUpgradeLater } from './upgrade.repository.ts';
import type { RepoUpgradeRow } from './upgrade.table.ts';
import { UPGRADE_BRANCH, UPGRADE_TITLE, upgradeBody, V1_PATH, V2_PATH, writableConfig } from './upgrade-file.policy.ts';

type Db = Kysely<ReleaseDatabase>;

/**
 * `POST /repos/{id}/upgrade` (this service's extension): asks for the "Upgrade to GitHub-native Dependabot" pull
 * request of a repo the caller can write to and this service keeps up to date (a worker opens it: {@link openUpgrade}).
 * Asking again asks anew (a merged or closed one is opened again).
 * @returns the upgrade as it stands (`pending`)
 * @throws NotFound when the repo is not one the caller reaches or has no update config
 * @throws Forbidden without write permission on the repo
 */
export async function askForUpgrade(db: Db, view: CodeHostView, caller: Caller, repoId: number): Promise<RepoUpgradeRow> {
  const known = await findKnownRepo(db, repoId);
  const notFound = new NotFound(`No repo ${repoId} with update configs is visible with this access token`);
  if (!known || !caller.accounts.some((a) => a.id === known.account_id)) throw notFound;
  const repo = await view.repo(caller, repoId);
  if (!repo || (await listRepoConfigIds(db, repoId)).length === 0) throw notFound;
  requireRepoPermission(caller, repo, 'write', `Upgrading the config file of ${repo.fullName}`);
  return requestUpgrade(db, { repoId, accountId: known.account_id, requestedBy: caller.user.id });
}

/**
 * `GET /repos/{id}/upgrade`: the upgrade asked for the repo, for a caller who can see it.
 * @throws NotFound when none was asked, or the caller cannot see the repo
 */
export async function viewUpgrade(db: Db, view: CodeHostView, caller: Caller, repoId: number): Promise<RepoUpgradeRow> {
  const upgrade = await findUpgrade(db, repoId);
  const notFound = new NotFound(`No upgrade was asked for repo ${repoId}`);
  if (!upgrade || !caller.accounts.some((a) => a.id === upgrade.account_id) || !(await view.repo(caller, repoId))) throw notFound;
  return upgrade;
}

/** What opening an upgrade needs: the database, the code host and the worker's token, a logger. */
export interface UpgradeDeps {
  db: Db;
  codeHost: CodeHost;
  tokens: CodeHostTokens;
  logger: Logger;
}

/**
 * Opens the upgrade pull request of one repo, as Dependabot Preview did in 2021: one commit on
 * `dependabot/add-v2-config-file` (from the default branch's head) that adds `.github/dependabot.yml`, written from the
 * repo's update configs as they are (from the API or a v1 file: schedule, time, day and time zone from the account,
 * its ignores with those people made by closing pull requests and by commands, its limits, labels, reviewers …;
 * `writeDependabotYml` of `@switchyard/repo-config`), and deletes `.dependabot/config.yml` when there is one; the pull
 * request "Upgrade to GitHub-native Dependabot" into the default branch, labelled `dependencies`, its body saying what
 * could not be carried over. An open pull request of that branch already is taken as it is.
 * @returns the pull request's number and address
 * @throws CodeHostError when the code host fails (the caller retries a transient failure)
 */
export async function openUpgrade(deps: UpgradeDeps, upgrade: RepoUpgradeRow): Promise<{ number: number; url: string }> {
  const { db, codeHost: host } = deps;
  const repoRow = await findKnownRepo(db, upgrade.repo_id);
  if (!repoRow) throw new Error(`repo ${upgrade.repo_id} is not known`);
  if (!host.getBranchCommit || !host.commitFiles || !host.openPullRequest || !host.findPullRequest) {
    throw new Error('the code host cannot make branches and pull requests');
  }
  const [owner = '', name = ''] = repoRow.full_name.split('/');
  const token = await deps.tokens.forOwner(owner);
  const repo: RepoRef = { owner, name };
  const existing = await host.findPullRequest(token, repo, { head: UPGRADE_BRANCH, state: 'open' });
  if (existing) return { number: existing.number, url: existing.htmlUrl };

  const ids = await listRepoConfigIds(db, upgrade.repo_id);
  const targets = await findScanTargets(db, ids);
  const held = await listConfigIgnores(db, ids);
  const configs = ids.flatMap((id) => {
    const target = targets.get(id);
    return target ? [writableConfig(target.config, held)] : [];
  });
  const schedule = (await findAccountSchedule(db, upgrade.account_id)) ?? {
    updateRunTime: '05:00',
    weeklyUpdateRunDay: 'monday',
    timeZone: 'UTC',
  };
  const written = writeDependabotYml({
    configs,
    account: {
      updateRunTime: schedule.updateRunTime,
      weeklyUpdateRunDay: schedule.weeklyUpdateRunDay as never,
      timeZone: schedule.timeZone,
    },
  });

  const base = await host.getBranchCommit(token, repo, repoRow.default_branch);
  if (!base) throw new Error(`the default branch ${repoRow.default_branch} does not exist`);
  const hadV1File = (await host.readFile(token, repo, V1_PATH, repoRow.default_branch)) !== undefined;
  const change = {
    branch: UPGRADE_BRANCH,
    parentSha: base.sha,
    ...(base.treeSha ? { parentTreeSha: base.treeSha } : {}),
    message: UPGRADE_TITLE,
    files: { [V2_PATH]: written.text, ...(hadV1File ? { [V1_PATH]: null } : {}) },
  };
  try {
    await host.commitFiles(token, repo, { ...change, createBranch: true });
  } catch (error) {
    // The branch is left from an earlier upgrade (merged or closed): it gets this commit.
    if (!isCodeHostError(error, 'conflict')) throw error;
    await host.commitFiles(token, repo, { ...change, force: true });
  }
  const body = upgradeBody(
    hadV1File,
    written.notes.map((note) => note.message),
  );
  const opened = await host.openPullRequest(token, repo, {
    head: UPGRADE_BRANCH,
    base: repoRow.default_branch,
    title: UPGRADE_TITLE,
    body,
  });
  await labelPullRequest(deps, token, { repoId: upgrade.repo_id, repo }, opened.number, [
    { name: 'dependencies', color: '0366d6', description: 'Pull requests that update a dependency file' },
  ]).catch((error: unknown) => {
    if (transientCodeHostError(error)) throw error;
    deps.logger.warn({ err: error, repo: repoRow.full_name }, 'the upgrade pull request could not be labelled');
  });
  return { number: opened.number, url: opened.htmlUrl };
}

/** How long an upgrade whose code-host work failed waits before it is tried again, ms; and how often it is tried. */
const RETRY_MS = 30_000;
const MAX_ATTEMPTS = 8;

/**
 * One round: the pending upgrades that are due (up to 10, leased for 2 minutes), each opened ({@link openUpgrade});
 * a transient code-host failure is tried again after 30 s (at most 8 times), any other failure ends it `failed` with why.
 * @returns how many were opened
 */
export async function openDueUpgrades(deps: UpgradeDeps): Promise<number> {
  let opened = 0;
  for (const upgrade of await claimUpgrades(deps.db, 10, 120_000)) {
    try {
      const pull = await openUpgrade(deps, upgrade);
      await finishUpgrade(deps.db, upgrade, { status: 'opened', reason: null, number: pull.number, url: pull.url });
      opened += 1;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      deps.logger.warn({ err: error, repo: upgrade.repo_id }, 'the upgrade pull request could not be opened');
      if (transientCodeHostError(error) && upgrade.attempts + 1 < MAX_ATTEMPTS)
        await retryUpgradeLater(deps.db, upgrade, RETRY_MS, message);
      else await finishUpgrade(deps.db, upgrade, { status: 'failed', reason: message });
    }
  }
  return opened;
}
