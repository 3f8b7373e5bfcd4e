import { PULL_REQUEST_JOB_STATUSES } from '@switchyard/contracts';
import type { Kysely } from 'kysely';
import { findBotLogin } from '../bot-account/bot-account.repository.ts';
import { commandOf } from '../commands/command.policy.ts';
import { recordCommand } from '../commands/command.repository.ts';
import { requestConfigFileCheck } from '../config-files/config-file.repository.ts';
import { configFilePushOf } from '../config-files/config-file-push.policy.ts';
import type { ReleaseDatabase } from '../db/schema.ts';
import { applyInstallationWebhook } from '../installations/app-installation.service.ts';
import { INSTALLATION_EVENTS } from '../installations/app-installation-webhook.policy.ts';
import { IGNORED } from '../jobs/job.policy.ts';
import { findJobOfPullRequest, makeDue, setPullRequestStatus } from '../jobs/job.repository.ts';
import { addConfigIgnore, removeIgnoresOfJob } from '../read-model/config-ignore.repository.ts';
import { recordDeliveryOnce } from './webhook.repository.ts';

/** What a delivery did: changed a job, changed nothing this service follows, or was seen before. */
export type DeliveryOutcome = 'applied' | 'ignored' | 'duplicate';

/** A verified delivery: GitHub's `X-GitHub-Event`, `X-GitHub-Delivery` and the parsed payload. */
export interface WebhookDelivery {
  event: string;
  deliveryId: string;
  payload: unknown;
}

/** The fields of GitHub's `pull_request`, `push`, `status`, `check_run` and `check_suite` payloads this service reads. */
interface CodeHostEvent {
  action?: unknown;
  number?: unknown;
  repository?: { id?: unknown };
  pull_request?: {
    merged?: unknown;
    merged_by?: { login?: unknown } | null;
    user?: { login?: unknown };
    /** The pull request's global id and head branch: what tells it from another pull request given the same number. */
    node_id?: unknown;
    head?: { ref?: unknown };
  };
  sender?: { login?: unknown };
  /** `push`: the full ref pushed (`refs/heads/main`) and whether it was deleted. */
  ref?: unknown;
  deleted?: unknown;
  /** `status`: the commit whose status changed. */
  sha?: unknown;
  check_run?: { head_sha?: unknown };
  check_suite?: { head_sha?: unknown };
}

/**
 * Applies a verified code-host webhook delivery once, by its delivery id (a redelivery, GitHub's "Redeliver" or a
 * retry after a timeout, changes nothing), in one transaction with its record
 * (https://docs.github.com/webhooks/webhook-events-and-payloads):
 * - `pull_request` `closed`: the job of that pull request (its number, and its global id and head branch where known:
 *   a number the code host gave to another pull request moves nothing) becomes `merged` (`pull_request.merged`), naming
 *   who did it; closed unmerged, an `open` job becomes `closed` and `ignored`: a person closed it (this service records
 *   its own reason before it closes a pull request), so that version is not proposed again for the config (an ignore of
 *   the config, `closed-pull-request`, naming who closed it), and the worker says so on the pull request; a job this
 *   service closed, superseded or saw merged stays as it is;
 * - `pull_request` `reopened`: the job is `open` again, and the ignores its pull request made (closing it, or a
 *   `@dependabot ignore …` command on it) are gone;
 * - a `closed` (merged or not) or `reopened` whose `sender` is the service's own account (`bot_account`, which a
 *   worker records) is the echo of a worker's action, which the worker records itself; deliveries come in any order, so
 *   one may come after the worker acted again, or before its record: it moves nothing;
 * - `push` to a branch: the open pull requests targeting it are looked at at once (a rebase may be due); a push to the
 *   default branch that touched a config file (`.dependabot/config.yml`, `.github/dependabot.yml`) asks for the
 *   repository's config files to be read again (`configFilePushOf`; a worker reads them);
 * - `issue_comment` `created` on one of this service's pull requests: its `@dependabot …` command is recorded for a
 *   worker to carry out and answer (`recordCommentCommand`);
 * - `status`, `check_run` and `check_suite` `completed`: the open pull requests whose head is that commit are looked at
 *   at once (an automerge may be due); see `maintainPullRequest`;
 * - `installation` and `installation_repositories`: the App's installation as it is now is recorded and published
 *   (`applyInstallationWebhook`): a repository no longer covered becomes `inactive` and its runs stop;
 * - anything else (`ping`, other actions, a pull request or commit that is no job's) is recorded as `ignored`.
 * @returns what the delivery did
 */
export async function applyDelivery(db: Kysely<ReleaseDatabase>, delivery: WebhookDelivery): Promise<DeliveryOutcome> {
  const payload = (typeof delivery.payload === 'object' && delivery.payload !== null ? delivery.payload : {}) as CodeHostEvent;
  const action = typeof payload.action === 'string' ? payload.action : null;
  return db
    .transaction()
    .execute(async (trx) => {
      let changed = 0;
      const repoId = payload.repository?.id;
      if (delivery.event === 'pull_request' && typeof payload.number === 'number' && typeof repoId === 'number') {
        const who = payload.sender?.login;
        const by = typeof who === 'string' ? ` by ${who}` : '';
        const nodeId = payload.pull_request?.node_id;
        const headRef = payload.pull_request?.head?.ref;
        const pull = {
          repoId,
          number: payload.number,
          nodeId: typeof nodeId === 'string' ? nodeId : null,
          headRef: typeof headRef === 'string' ? headRef : null,
        };
        if ((action === 'closed' || action === 'reopened') && (await isBotAction(trx, who))) {
          // The echo of a worker's own merge, close or reopen, which the worker records itself as it acts. GitHub does
          // not keep deliveries in order, so it may come after the worker acted again (a close's echo after the reopen
          // that followed it), or before the worker's own record (a merge's): it moves nothing, recorded as ignored.
          changed = 0;
        } else if (action === 'closed' && payload.pull_request?.merged === true) {
          changed = (await setPullRequestStatus(trx, pull, { status: 'merged', reason: `merged on the code host${by}`, from: NOT_MERGED }))
            .length;
        } else if (action === 'closed') {
          // This service records why it closes a pull request before it closes it: an open job's pull request closed
          // unmerged was closed by a person, whose decision stands (the worker says so on the pull request).
          const closed = await setPullRequestStatus(trx, pull, {
            status: 'closed',
            reason: `closed unmerged on the code host${by}: ${IGNORED}`,
            ignored: true,
            from: ['open'],
          });
          // A group's closed pull request ignores its updates together (the job, `ignored`), not each dependency's version.
          for (const job of closed.filter((row) => row.group_name === null)) {
            await addConfigIgnore(trx, {
              update_config_id: job.update_config_id,
              dependency_name: job.dependency_name,
              kind: 'version',
              version: job.target_version,
              source: 'closed-pull-request',
              job_id: job.id,
              created_by: typeof who === 'string' ? who : null,
            });
          }
          changed = closed.length;
        } else if (action === 'reopened') {
          const reopened = await setPullRequestStatus(trx, pull, { status: 'open', reason: null, ignored: false, from: REOPENABLE });
          for (const job of reopened) await removeIgnoresOfJob(trx, job.id);
          changed = reopened.length;
        }
      } else if (delivery.event === 'issue_comment' && action === 'created' && typeof repoId === 'number') {
        changed = await recordCommentCommand(trx, delivery.deliveryId, repoId, delivery.payload);
      } else if (delivery.event === 'push' && typeof repoId === 'number' && typeof payload.ref === 'string' && payload.deleted !== true) {
        if (payload.ref.startsWith('refs/heads/'))
          changed = await makeDue(trx, { repoId, branch: payload.ref.slice('refs/heads/'.length) });
        const configFiles = configFilePushOf(delivery.payload);
        if (configFiles) {
          await requestConfigFileCheck(trx, configFiles);
          changed += 1;
        }
      } else if ((INSTALLATION_EVENTS as readonly string[]).includes(delivery.event)) {
        changed = (await applyInstallationWebhook(trx, delivery.event, delivery.payload)) ? 1 : 0;
      } else {
        const headSha = headShaOf(delivery.event, action, payload);
        if (headSha) changed = await makeDue(trx, { headSha });
      }
      const outcome = changed > 0 ? 'applied' : 'ignored';
      const first = await recordDeliveryOnce(trx, { id: delivery.deliveryId, event: delivery.event, action, outcome });
      if (!first) {
        // Seen before: undo this transaction's change (none is expected: the first delivery made it already).
        throw new DuplicateDelivery();
      }
      return outcome;
    })
    .catch((error: unknown) => {
      if (error instanceof DuplicateDelivery) return 'duplicate' as const;
      throw error;
    });
}

/** The fields of GitHub's `issue_comment` payload a command needs (https://docs.github.com/webhooks/webhook-events-and-payloads#issue_comment). */
interface CommentEvent {
  issue?: { number?: unknown; pull_request?: unknown };
  comment?: { id?: unknown; body?: unknown; user?: { login?: unknown; type?: unknown }; performed_via_github_app?: unknown };
  sender?: { login?: unknown; type?: unknown };
}

/**
 * Records the `@dependabot` command of a new comment on one of this service's pull requests (`commandOf`: the first
 * line that starts with the mention), for a worker to carry out or refuse and answer, with the job whose pull request it
 * is when that job has recorded the number (else the worker looks for it: the pull request may have opened moments
 * before). A comment without a command, or on an issue, records nothing.
 * @returns 1 when a command was recorded, else 0
 */
async function recordCommentCommand(trx: Kysely<ReleaseDatabase>, deliveryId: string, repoId: number, payload: unknown): Promise<number> {
  const event = (typeof payload === 'object' && payload !== null ? payload : {}) as CommentEvent;
  const number = event.issue?.number;
  const body = event.comment?.body;
  const commentId = event.comment?.id;
  const author = event.comment?.user?.login ?? event.sender?.login;
  if (!event.issue?.pull_request || typeof number !== 'number' || typeof body !== 'string') return 0;
  if (typeof commentId !== 'number' || typeof author !== 'string') return 0;
  const command = commandOf(body);
  if (command === undefined) return 0;
  // A pull request opened moments ago may not have its number on its job yet: the worker finds the job then.
  const job = await findJobOfPullRequest(trx, repoId, number);
  const isApp = event.comment?.user?.type === 'Bot' || event.comment?.performed_via_github_app != null;
  return (await recordCommand(trx, {
    delivery_id: deliveryId,
    job_id: job?.id ?? null,
    repo_id: repoId,
    pull_request_number: number,
    comment_id: commentId,
    author,
    author_is_app: isApp,
    command,
  }))
    ? 1
    : 0;
}

/** Every status but `merged`: a merge on the code host is news to a job in any of them. */
const NOT_MERGED = PULL_REQUEST_JOB_STATUSES.filter((status) => status !== 'merged');

/** Whether `login` (a delivery's `sender`) is the service's own account on the code host, as a worker recorded it. */
async function isBotAction(db: Kysely<ReleaseDatabase>, login: unknown): Promise<boolean> {
  if (typeof login !== 'string') return false;
  const bot = await findBotLogin(db);
  return bot !== undefined && bot.toLowerCase() === login.toLowerCase();
}

/** The statuses a reopened pull request brings back to `open`. */
const REOPENABLE = PULL_REQUEST_JOB_STATUSES.filter((status) => status !== 'merged' && status !== 'open');

/** Thrown inside the transaction of a delivery seen before, to roll it back. */
class DuplicateDelivery extends Error {}

/** The commit a `status` event, or a `check_run` / `check_suite` `completed` event, is about; undefined for other events. */
function headShaOf(event: string, action: string | null, payload: CodeHostEvent): string | undefined {
  const sha =
    event === 'status'
      ? payload.sha
      : event === 'check_run' && action === 'completed'
        ? payload.check_run?.head_sha
        : event === 'check_suite' && action === 'completed'
          ? payload.check_suite?.head_sha
          : undefined;
  return typeof sha === 'string' && /^[0-9a-f]{40}$/.test(sha) ? sha : undefined;
}
