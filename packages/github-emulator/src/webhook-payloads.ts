import { pullRequest, type RepoView } from './pulls/representations.ts';
import type { PullRequestRecord, RepoState, StatusRecord } from './repo-state.ts';
import { repository, simpleUser, type Urls } from './representations.ts';
import type { RepoRole } from './seed.ts';
import type { EmulatedRepo, EmulatedUser, World } from './world.ts';

/**
 * Payloads of the webhook events the emulator sends, in GitHub's shapes
 * (https://docs.github.com/webhooks/webhook-events-and-payloads): `push`, `pull_request` and `status`.
 */

const ZERO_SHA = '0000000000000000000000000000000000000000';

function viewOf(world: World, repo: EmulatedRepo, role: RepoRole): RepoView {
  const owner = world.account(repo.owner);
  if (!owner) throw new Error(`seed repo ${repo.owner}/${repo.name} has no owner`);
  return { repo, owner, role };
}

/** A ref change for a `push` payload: the full ref, the commit before and after (undefined: created / deleted). */
export interface RefChange {
  ref: string;
  before: string | undefined;
  after: string | undefined;
  forced: boolean;
}

/**
 * The `push` event payload of a ref change: `ref`, `before`/`after` (all zeros when created or deleted), `created`,
 * `deleted`, `forced`, `head_commit` (null when deleted), `commits` (the new head only), `repository`, `pusher`, `sender`.
 */
export function pushPayload(
  urls: Urls,
  world: World,
  access: { repo: EmulatedRepo; role: RepoRole; state: RepoState },
  user: EmulatedUser,
  change: RefChange,
) {
  const view = viewOf(world, access.repo, access.role);
  const head = change.after === undefined ? undefined : access.state.git.commit(change.after);
  const html = `${urls.htmlBase}/${access.repo.owner}/${access.repo.name}`;
  const commit = head && {
    id: head.sha,
    tree_id: head.tree,
    distinct: true,
    message: head.message,
    timestamp: head.committer.date,
    url: `${html}/commit/${head.sha}`,
    author: { name: head.author.name, email: head.author.email },
    committer: { name: head.committer.name, email: head.committer.email },
    added: [] as string[],
    removed: [] as string[],
    modified: [] as string[],
  };
  return {
    ref: change.ref,
    before: change.before ?? ZERO_SHA,
    after: change.after ?? ZERO_SHA,
    created: change.before === undefined,
    deleted: change.after === undefined,
    forced: change.forced,
    base_ref: null,
    compare: `${html}/compare/${(change.before ?? ZERO_SHA).slice(0, 12)}...${(change.after ?? ZERO_SHA).slice(0, 12)}`,
    commits: commit ? [commit] : [],
    head_commit: commit ?? null,
    repository: repository(urls, view.repo, view.owner, view.role),
    pusher: { name: user.login, email: user.email ?? null },
    sender: simpleUser(urls, { kind: 'user', user }),
  };
}

/**
 * The `pull_request` event payload (https://docs.github.com/webhooks/webhook-events-and-payloads#pull_request):
 * `action` (`opened`, `closed`, `reopened`, `edited`, `synchronize` when its head branch moved), `number`,
 * `pull_request` (the `pull-request` the API answers: `node_id`, `head.ref`, `merged`, `merged_by`, `additions`, …),
 * `repository`, `sender`.
 */
export function pullRequestPayload(
  urls: Urls,
  world: World,
  access: { repo: EmulatedRepo; role: RepoRole; state: RepoState },
  user: EmulatedUser,
  action: 'opened' | 'closed' | 'reopened' | 'edited' | 'synchronize',
  pr: PullRequestRecord,
) {
  const view = viewOf(world, access.repo, access.role);
  return {
    action,
    number: pr.number,
    pull_request: pullRequest(urls, world, view, access.state, pr),
    repository: repository(urls, view.repo, view.owner, view.role),
    sender: simpleUser(urls, { kind: 'user', user }),
  };
}

/**
 * The `status` event payload of a commit status created: `id`, `sha`, `name` (`owner/repo`), `state`, `context`,
 * `description`, `target_url`, `created_at`/`updated_at`, `branches` (those whose head is the commit), `repository`,
 * `sender`.
 */
export function statusPayload(
  urls: Urls,
  world: World,
  access: { repo: EmulatedRepo; role: RepoRole; state: RepoState },
  user: EmulatedUser,
  status: StatusRecord,
) {
  const view = viewOf(world, access.repo, access.role);
  const branches = access.state.git
    .branches()
    .filter((branch) => branch.sha === status.sha)
    .map((branch) => ({ name: branch.name, commit: { sha: branch.sha }, protected: false }));
  return {
    id: status.id,
    sha: status.sha,
    name: `${access.repo.owner}/${access.repo.name}`,
    target_url: status.targetUrl,
    context: status.context,
    description: status.description,
    state: status.state,
    branches,
    created_at: status.createdAt,
    updated_at: status.createdAt,
    repository: repository(urls, view.repo, view.owner, view.role),
    sender: simpleUser(urls, { kind: 'user', user }),
  };
}
