import { setTimeout as sleep } from 'node:timers/promises';
import type { PackageManager } from '@switchyard/contracts';
import { requireEcosystem } from '@switchyard/ecosystems';
import { GatewayApi, GitHubApi, type IssueComment, type Job, type PullRequest } from './clients.ts';
import { fileConfigDiffers } from './config-files.ts';
import type { CommandRecord, Journal } from './journal.ts';
import type { SoakUrls } from './system.ts';
import { BOT_LOGIN, repoPlan } from './world.ts';

/**
 * The checks of what people asked of the service on the code host: their `@dependabot` commands (each answered once,
 * a reader's refused; merges asked for made with the method asked, `cancel merge` kept; no pull request for what an
 * ignore command ignored) and their config files (the configs as the file says, API writes refused, the invalid file's
 * issue closed once it is fixed). Each is an invariant count of `invariants.ts` (goal 0), with a line per finding.
 */

/** One invariant: its count, and a line per finding (as `invariants.ts` has it). */
export interface SteeringInvariant {
  name: string;
  count: number;
  findings: string[];
}

/** What the commands came to. */
export interface CommandStats {
  given: number;
  byCommand: Record<string, number>;
  /** Given by someone without push access. */
  withoutPushAccess: number;
  /** Answered once, as the command called for (a lost comment's too). */
  answered: number;
  /** Of those: carried out (`OK, …`, or a rebase already up to date). */
  carriedOut: number;
  /** Of those: answered that it could not be done (the pull request not open, edited by someone else…). */
  declined: number;
  /** Of those: refused for want of push access. */
  refused: number;
  unanswered: number;
  /** Comments the code host lost with its state in a fault (answered or not: the service may have had their webhook). */
  lost: number;
}

/** What the config files came to. */
export interface ConfigFileStats {
  pushes: number;
  invalid: number;
  /** `<repo> <path>`, each repository with a config file. */
  repos: string[];
  /** Writes through the API to configs a file governs, and how many were refused with 409. */
  apiWrites: number;
  apiWritesRefused: number;
}

/** The steering checks' invariants, figures and notes. */
export interface SteeringObservations {
  invariants: SteeringInvariant[];
  commands: CommandStats;
  configFiles: ConfigFileStats;
  notes: string[];
  /** Every command as answered, one line each (for report.json). */
  evidence: string[];
  /**
   * The `recreate`s carried out: the pull request's branch, and the real time (epoch ms, to the second) from the
   * comment to the answer, within which the bot force-pushes over any edits, as asked.
   */
  recreates: { repo: string; branch: string; from: number; until: number; asked: string }[];
}

/** What the checks read from: the system, the journal, and the jobs and pull requests `observe` read. */
export interface SteeringDeps {
  urls: () => SoakUrls;
  journal: Journal;
  jobs: Job[];
  /** Every pull request of every repository of the run, by repository and number. */
  pulls: Map<string, Map<number, PullRequest>>;
}

/** Dependabot's answer to a command from someone without push access. */
const NO_PUSH_ACCESS = 'Sorry, only users with push access can use that command.';

/** The answer of a `close` or an ignore command that closed the pull request. */
const IGNORED = /^OK, I won't notify you about .+ again, unless you re-open this PR\.$/;
/** The refusal of an `ignore this …` command on a group's pull request (which of its dependencies would it be?). */
const GROUP_IGNORE = /^`@dependabot ignore this [a-z ]+` applies to a pull request of one dependency, and this one updates the .+ group\./;

/** Answers any writer's command may get: the pull request is not open or gone, or the code host kept failing. */
const NOT_DONE = [
  /^This pull request is not open, so /,
  /^This pull request is gone from the code host\./,
  /^Sorry, `@dependabot [^`]*` could not be carried out: /s,
];

/** The answer to a `merge`, `squash and merge` or `cancel merge` given while the bot merges the pull request already. */
const MERGE_UNDER_WAY =
  /^This pull request is being merged already, (with a merge commit|as one squashed commit): it is too late to change that\.$/;

/** The answers each command may get from the service: carried out, or declined with a reason. */
const ANSWERS: Readonly<Record<string, { done: RegExp[]; declined: RegExp[] }>> = {
  rebase: {
    done: [/^OK, I've rebased this PR on the latest `[^`]+`\.$/, /^Looks like this PR is already up-to-date with /],
    declined: [
      /^Looks like this PR has been edited by someone other than Dependabot\./,
      /^The target branch .+ is gone, /,
      /^This pull request was not rebased: /,
    ],
  },
  recreate: {
    done: [/^OK, I've recreated this PR from scratch on the latest /],
    declined: [/^The target branch .+ is gone, /, /^This pull request was not recreated: /],
  },
  merge: { done: [/^OK, I'll merge this PR once its checks pass\.$/], declined: [MERGE_UNDER_WAY] },
  'squash and merge': { done: [/^OK, I'll squash and merge this PR once its checks pass\.$/], declined: [MERGE_UNDER_WAY] },
  'cancel merge': { done: [/^OK, I won't merge this PR automatically\.$/], declined: [MERGE_UNDER_WAY] },
  close: { done: [IGNORED], declined: [] },
  'ignore this dependency': { done: [IGNORED], declined: [GROUP_IGNORE] },
  'ignore this major version': { done: [IGNORED], declined: [GROUP_IGNORE] },
  'ignore this minor version': { done: [IGNORED], declined: [GROUP_IGNORE] },
  'ignore this patch version': { done: [IGNORED], declined: [GROUP_IGNORE] },
  reopen: {
    done: [/^OK, I've reopened this PR\.$/],
    declined: [/^This pull request was merged, so it cannot be reopened\.$/, /^This pull request is already open\.$/],
  },
};

type Verdict = 'done' | 'declined' | 'refused';

/** How `body` answers `command`, or undefined when it is no answer to it. */
function verdictOf(command: CommandRecord, body: string): Verdict | undefined {
  if (!command.pushAccess) return body === NO_PUSH_ACCESS ? 'refused' : undefined;
  const answers = ANSWERS[command.command];
  if (!answers) return undefined;
  if (answers.done.some((r) => r.test(body))) return 'done';
  if ([...answers.declined, ...NOT_DONE].some((r) => r.test(body))) return 'declined';
  return undefined;
}

/** Whether a comment of the bot is an answer to some command (every answer of the service's, and any `Sorry, …`). */
function isAnswer(body: string): boolean {
  if (body.startsWith('Sorry, ') || NOT_DONE.some((r) => r.test(body))) return true;
  return Object.values(ANSWERS).some(({ done, declined }) => [...done, ...declined].some((r) => r.test(body)));
}

/** A command and the bot's comment that answers it (undefined: none yet). */
interface Answered {
  command: CommandRecord;
  answer?: IssueComment;
  verdict?: Verdict;
  /** The code host lost the command's comment with its state in a fault (the service may have had its webhook). */
  lost?: boolean;
}

/**
 * Pairs the commands of one pull request (in the order given) with the bot's answers on it: each takes the first answer
 * after its comment that fits it and no earlier command took; then each command whose comment the code host lost takes
 * any answer left that fits it (the emulator gives a lost comment's id again after a restart, so ids do not order it).
 * @returns the pairs, and the answers no command took
 */
function pairAnswers(
  commands: CommandRecord[],
  lost: ReadonlySet<CommandRecord>,
  comments: IssueComment[],
): { pairs: Answered[]; extra: IssueComment[] } {
  // What GitHub shows of the bot's comments: without an answer's HTML comment (the command it answers).
  const shown = comments.map((c) => ({ ...c, body: c.body.replace(/\s*<!--[\s\S]*?-->\s*$/, '') }));
  const answers = shown.filter((c) => c.user.login === BOT_LOGIN && isAnswer(c.body)).sort((a, b) => a.id - b.id);
  const used = new Set<number>();
  const take = (command: CommandRecord, ordered: boolean): Answered => {
    for (const answer of answers) {
      if ((ordered && answer.id < command.commentId) || used.has(answer.id)) continue;
      const verdict = verdictOf(command, answer.body);
      if (verdict === undefined) continue;
      used.add(answer.id);
      return { command, answer, verdict, ...(ordered ? {} : { lost: true }) };
    }
    return ordered ? { command } : { command, lost: true };
  };
  const sorted = [...commands].sort((a, b) => a.commentId - b.commentId);
  const pairs = [
    ...sorted.filter((c) => !lost.has(c)).map((c) => take(c, true)),
    ...sorted.filter((c) => lost.has(c)).map((c) => take(c, false)),
  ];
  return { pairs, extra: answers.filter((a) => !used.has(a.id)) };
}

/** Orders answered commands by when the bot answered (to the second, then by the answer's id). */
function byAnswer(a: Answered, b: Answered): number {
  return Date.parse(a.answer?.created_at ?? '') - Date.parse(b.answer?.created_at ?? '') || (a.answer?.id ?? 0) - (b.answer?.id ?? 0);
}

/** How long the checks wait for answers still missing, real ms (the worker answers within seconds). */
const ANSWER_WAIT_MS = 20_000;
/** A command taken by a worker that a fault then stopped waits for its lease (2 minutes) before it is taken again. */
const COMMAND_LEASE_MS = 125_000;
/** A command whose comment came this little before a fault may have lost its webhook (3 tries within 1.5 s). */
const WEBHOOK_LOSS_MS = 3_000;

const label = (c: CommandRecord) =>
  `${c.repo}#${c.number} "@dependabot ${c.command}" by ${c.by} (comment ${c.commentId}, day ${c.day.toFixed(2)})`;

/** The numbers a version starts with (`v7.2.1-rc.1` → 7, 2, 1), at most three. */
function leadingNumbers(version: string): number[] {
  const match = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?/.exec(version.trim());
  return match ? match.slice(1).flatMap((part) => (part === undefined ? [] : [Number(part)])) : [];
}

/** An ignore a command made: a config's dependency, or a line of its versions, from when it was answered until a reopen. */
interface CommandIgnore {
  command: CommandRecord;
  configId: string;
  packageManager: PackageManager;
  dependency: string;
  kind: 'dependency' | 'major' | 'minor' | 'patch' | 'version';
  version: string;
  /** Real epoch ms: from the answer (to the second), until the pull request was reopened with a command (or forever). */
  from: number;
  until: number;
}

const IGNORE_KINDS: Readonly<Record<string, CommandIgnore['kind']>> = {
  close: 'version',
  'ignore this dependency': 'dependency',
  'ignore this major version': 'major',
  'ignore this minor version': 'minor',
  'ignore this patch version': 'patch',
};

/**
 * Whether `candidate` is a version the ignore leaves out: any (the dependency), the same major, major and minor, or
 * major, minor and patch as the version ignored, or that version itself (by the ecosystem's order where it reads both).
 */
function ignores(ignore: CommandIgnore, candidate: string): boolean {
  if (ignore.kind === 'dependency' || candidate === ignore.version) return true;
  if (ignore.kind === 'version') {
    try {
      const scheme = requireEcosystem(ignore.packageManager).versions;
      return scheme.isValid(candidate) && scheme.isValid(ignore.version) && scheme.compare(candidate, ignore.version) === 0;
    } catch {
      return false;
    }
  }
  const width = ignore.kind === 'major' ? 1 : ignore.kind === 'minor' ? 2 : 3;
  const a = leadingNumbers(ignore.version);
  const b = leadingNumbers(candidate);
  if (a.length === 0 || b.length === 0) return false;
  for (let i = 0; i < width; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return false;
  return true;
}

/**
 * Reads the code host and the API and counts six invariants (each goal 0):
 * 1. command comments not answered exactly once by the bot as the command calls for (a reader's: refused for want of
 *    push access; a writer's: carried out, or declined with a reason), after waiting for missing answers;
 * 2. merge commands not followed: a `merge` / `squash and merge` carried out whose pull request is still open with no
 *    reason given, or that the bot merged with another method; a `cancel merge` whose pull request the bot merged
 *    after it;
 * 3. pull requests opened for what an ignore command (`close`, `ignore …`) left out, after it and before a reopen;
 * 4. repositories with a config file whose configs (or the file as the API shows it) differ from their last valid file;
 * 5. writes through the API to configs a config file governs that were not refused with 409;
 * 6. invalid config files without their issue, and issues of a file fixed since still open.
 * @throws Unexpected / Unreachable when the system does not answer
 */
export async function observeSteering(deps: SteeringDeps): Promise<SteeringObservations> {
  const { journal } = deps;
  const notes: string[] = [];
  const commands = await observeCommands(deps, notes);
  const files = await observeConfigFiles(deps, notes);
  const stats: CommandStats = {
    given: journal.commands.length,
    byCommand: {},
    withoutPushAccess: journal.commands.filter((c) => !c.pushAccess).length,
    answered: commands.pairs.filter((p) => p.answer).length,
    carriedOut: commands.pairs.filter((p) => p.verdict === 'done').length,
    declined: commands.pairs.filter((p) => p.verdict === 'declined').length,
    refused: commands.pairs.filter((p) => p.verdict === 'refused').length,
    unanswered: commands.pairs.filter((p) => !p.answer && !p.lost).length,
    lost: commands.lost,
  };
  for (const c of journal.commands) stats.byCommand[c.command] = (stats.byCommand[c.command] ?? 0) + 1;
  return {
    invariants: [
      { name: 'command comments not answered exactly once as asked', count: commands.answers.length, findings: commands.answers },
      { name: 'merge commands not followed', count: commands.merges.length, findings: commands.merges },
      { name: 'pull requests for what a command ignored', count: commands.ignored.length, findings: commands.ignored },
      { name: 'config-file repos whose configs differ from their file', count: files.differ.length, findings: files.differ },
      { name: 'API writes to file-governed configs not refused (409)', count: files.writes.length, findings: files.writes },
      { name: 'invalid config files whose issue is wrong (missing, left open)', count: files.issues.length, findings: files.issues },
    ],
    commands: stats,
    configFiles: files.stats,
    notes,
    recreates: commands.pairs.flatMap((p) => {
      const branch = deps.pulls.get(p.command.repo)?.get(p.command.number)?.head.ref;
      if (p.command.command !== 'recreate' || p.verdict !== 'done' || !p.answer || !branch) return [];
      return [
        {
          repo: p.command.repo,
          branch,
          from: p.command.at - 1_000,
          until: Date.parse(p.answer.created_at) + 1_000,
          asked: label(p.command),
        },
      ];
    }),
    evidence: commands.pairs.map(
      (p) =>
        `${label(p.command)}: ${p.verdict ?? 'unanswered'}${p.answer ? ` (comment ${p.answer.id} ${p.answer.created_at}) ${JSON.stringify(p.answer.body.slice(0, 200))}` : ''}`,
    ),
  };
}

/** The command checks: answers, merges, ignores. */
async function observeCommands(
  deps: SteeringDeps,
  notes: string[],
): Promise<{ pairs: Answered[]; lost: number; answers: string[]; merges: string[]; ignored: string[] }> {
  const { urls, journal, jobs, pulls } = deps;
  const byPull = new Map<string, CommandRecord[]>();
  for (const command of journal.commands) {
    const key = `${command.repo}#${command.number}`;
    byPull.set(key, [...(byPull.get(key) ?? []), command]);
  }
  const github = (repo: string) => new GitHubApi(() => urls().codeHost, repoPlan(repo).person.token);

  // The answers, waited for while some are missing: a while, and past a worker's lease for a command a fault caught.
  const began = Date.now();
  const caughtBy = (c: CommandRecord) => journal.faultWindows.find((f) => f.began >= c.at && f.began - c.at <= 10_000);
  // A comment the code host no longer has was lost with its state (a SIGKILL of the launcher takes the GitHub
  // emulator's latest writes with it): it is no command, and its id may be another comment's now.
  const lost = new Set<CommandRecord>();
  let read = new Map<string, { pairs: Answered[]; extra: IssueComment[] }>();
  for (;;) {
    read = new Map();
    for (const [key, given] of byPull) {
      const first = given[0] as CommandRecord;
      const comments = await github(first.repo).comments(first.repo, first.number);
      for (const c of given) {
        if (!comments.some((x) => x.id === c.commentId && x.user.login === c.by && x.body === `@dependabot ${c.command}`)) lost.add(c);
      }
      read.set(key, pairAnswers(given, lost, comments));
    }
    const missing = [...read.values()].flatMap((r) => r.pairs.filter((p) => !p.answer && !p.lost).map((p) => p.command));
    if (missing.length === 0) break;
    const waitFor = (c: CommandRecord) => {
      const fault = caughtBy(c);
      return fault && fault.began - c.at > WEBHOOK_LOSS_MS ? fault.back + COMMAND_LEASE_MS : 0;
    };
    if (Date.now() > Math.max(began + ANSWER_WAIT_MS, ...missing.map(waitFor))) break;
    await sleep(2_000);
  }

  const answers: string[] = [];
  const pairs = [...read.values()].flatMap((r) => r.pairs);
  for (const [key, { pairs: onPull, extra }] of read) {
    for (const { command, answer, lost: gone } of onPull) {
      if (gone) {
        notes.push(
          `${label(command)}: the comment is gone from the code host (lost with its state in a fault); ${answer ? `answered all the same: ${JSON.stringify(answer.body.slice(0, 120))}` : 'no answer'}`,
        );
        continue;
      }
      if (answer) continue;
      const fault = caughtBy(command);
      if (fault && fault.began - command.at <= WEBHOOK_LOSS_MS) {
        notes.push(
          `${label(command)}: no answer; the ${fault.kind} ${((fault.began - command.at) / 1000).toFixed(1)} s after the comment may have lost its webhook or its answer`,
        );
        continue;
      }
      const later = extra.filter((a) => a.id > command.commentId).map((a) => JSON.stringify(a.body.slice(0, 120)));
      answers.push(
        `${label(command)}: no answer${command.pushAccess ? '' : ' (a refusal was due)'}${later.length ? `; the bot's other answers after it: ${later.join(', ')}` : ''}`,
      );
    }
    for (const answer of extra)
      answers.push(`${key}: the bot's comment ${answer.id} answers no command given: ${JSON.stringify(answer.body.slice(0, 160))}`);
  }

  // The job each command acted on: the newest of the repository with that pull request number.
  const repoOfJob = (job: Job) => journal.config(job.relationships['update-config'].data.id)?.plan.repo.fullName;
  const jobOf = (c: CommandRecord) =>
    jobs
      .filter((j) => repoOfJob(j) === c.repo && j.attributes['pull-request-number'] === c.number)
      .sort((a, b) => Number(b.id) - Number(a.id))[0];
  const answeredAt = (p: Answered) => (p.answer ? Date.parse(p.answer.created_at) : Number.NaN);

  // Merges asked for, and merges cancelled.
  const merges: string[] = [];
  for (const [key, { pairs: onPull }] of read) {
    const asked = onPull
      .filter((p) => p.verdict === 'done' && ['merge', 'squash and merge', 'cancel merge'].includes(p.command.command))
      .sort(byAnswer);
    const last = asked.at(-1);
    if (!last) continue;
    const { command } = last;
    const pr = await github(command.repo).pull(command.repo, command.number);
    const merged = pr?.merged_at ? Date.parse(pr.merged_at) : undefined;
    const byBot = pr?.merged_by?.login === BOT_LOGIN;
    const job = jobOf(command);
    const reason = job ? `job ${job.id} ${job.attributes.status}: ${job.attributes['status-reason'] ?? ''}` : 'no job';
    if (command.command === 'cancel merge') {
      if (merged !== undefined && byBot && merged > answeredAt(last) + 2_000) {
        merges.push(`${label(command)}: merged by the bot at ${pr?.merged_at} (${reason})`);
      }
      continue;
    }
    if (!pr) {
      notes.push(`${label(command)}: the pull request is gone`);
    } else if (pr.state === 'open') {
      const why = job?.attributes['status-reason'] ?? '';
      if (/not merged|not rebased|pushed to its branch/.test(why)) notes.push(`${label(command)}: still open, ${reason}`);
      else merges.push(`${label(command)}: still open (${reason})`);
    } else if (merged !== undefined && byBot && pr.merge_commit_sha) {
      const commit = (await github(command.repo).ok('GET', `/repos/${command.repo}/git/commits/${pr.merge_commit_sha}`)).body as {
        parents: unknown[];
      };
      const method = commit.parents.length > 1 ? 'merge' : 'squash';
      const wanted = command.command === 'merge' ? 'merge' : 'squash';
      if (method !== wanted)
        merges.push(
          `${label(command)}: merged by the bot with a ${method} commit ${pr.merge_commit_sha.slice(0, 7)}, not a ${wanted} (${reason})`,
        );
    }
    if (pr && merged === undefined && pr.state === 'closed')
      notes.push(`${key}: closed unmerged after ${command.command} was asked (${reason})`);
  }

  // What the ignore commands left out: no pull request for it after the answer, until the pull request was reopened.
  const ignoredFindings: string[] = [];
  const ignoresMade: CommandIgnore[] = [];
  for (const { pairs: onPull } of read.values()) {
    for (const p of onPull) {
      const kind = IGNORE_KINDS[p.command.command];
      const job = jobOf(p.command);
      if (!kind || p.verdict !== 'done' || !job) continue;
      const reopened = onPull.filter((q) => q.command.command === 'reopen' && q.verdict === 'done' && byAnswer(q, p) > 0).sort(byAnswer)[0];
      ignoresMade.push({
        command: p.command,
        configId: job.relationships['update-config'].data.id,
        packageManager: job.attributes['package-manager'],
        dependency: job.attributes['dependency-name'],
        kind,
        version: job.attributes['target-version'],
        // The answer's time is to the second: a job of the next second came after the ignore for sure.
        from: answeredAt(p) + 1_000,
        until: reopened ? answeredAt(reopened) : Number.POSITIVE_INFINITY,
      });
    }
  }
  for (const ignore of ignoresMade) {
    for (const job of jobs) {
      const created = Date.parse(job.attributes['created-at']);
      if (
        job.relationships['update-config'].data.id !== ignore.configId ||
        job.attributes['dependency-name'] !== ignore.dependency ||
        job.attributes['pull-request-number'] === null ||
        !(created > ignore.from && created < ignore.until) ||
        !ignores(ignore, job.attributes['target-version'])
      )
        continue;
      const pr = pulls.get(ignore.command.repo)?.get(job.attributes['pull-request-number']);
      ignoredFindings.push(
        `${label(ignore.command)} (${ignore.kind} ${ignore.dependency} ${ignore.version}): job ${job.id} ${job.attributes['target-version']} created ${job.attributes['created-at']} opened #${job.attributes['pull-request-number']}${pr ? ` (${pr.state})` : ''}`,
      );
    }
  }
  notes.push(
    `ignores made by commands: ${ignoresMade.length}${ignoresMade.some((i) => i.until !== Number.POSITIVE_INFINITY) ? `, ${ignoresMade.filter((i) => i.until !== Number.POSITIVE_INFINITY).length} undone by a reopen` : ''}`,
  );
  return { pairs, lost: lost.size, answers, merges, ignored: ignoredFindings };
}

/** The config-file checks: the configs as the file says, the API's refusals, the invalid file's issue. */
async function observeConfigFiles(
  deps: SteeringDeps,
  notes: string[],
): Promise<{ differ: string[]; writes: string[]; issues: string[]; stats: ConfigFileStats }> {
  const { urls, journal } = deps;
  const differ: string[] = [];
  const issues: string[] = [];
  const stats: ConfigFileStats = { pushes: 0, invalid: 0, repos: [], apiWrites: journal.fileGovernedWrites.length, apiWritesRefused: 0 };
  for (const state of journal.configFiles.values()) {
    const { repo, path } = state.plan;
    if (state.pushes.length === 0) continue;
    stats.repos.push(`${repo.fullName} ${path}`);
    stats.pushes += state.pushes.length;
    stats.invalid += state.pushes.filter((p) => !p.valid).length;
    const unseen = state.pushes.filter((p) => p.seenAt === undefined);
    if (unseen.length > 0)
      notes.push(`${repo.fullName} ${path}: ${unseen.length} of ${state.pushes.length} pushes not seen applied while the days ran`);
    // A push whose commit the code host lost with its state in a fault (and not pushed again) is no push.
    const github = new GitHubApi(() => urls().codeHost, repo.person.token);
    const pushes: typeof state.pushes = [];
    for (const push of state.pushes) {
      if ((await github.send('GET', `/repos/${repo.fullName}/git/commits/${push.commit}`)).status === 200) pushes.push(push);
      else
        notes.push(
          `${repo.fullName} ${path} of day ${push.day.toFixed(2)} (${push.commit.slice(0, 7)}): the code host lost the commit in a fault`,
        );
    }
    const last = pushes.at(-1);
    if (!last) continue;

    // 4. The configs as the last valid file says them, and the file as the last push left it.
    const lastValid = pushes.findLast((p) => p.valid);
    const { data, included } = await new GatewayApi(() => urls().gateway, repo.person.token).repos(repo.accountId);
    const listed = data.find((r) => r.id === String(repo.id));
    const file = listed?.attributes['config-file'];
    if (!listed) differ.push(`${repo.fullName}: not listed among ${repo.accountId}'s active repositories`);
    else if (!listed.attributes['using-config-file'] || file?.path !== path || file.valid !== last.valid) {
      differ.push(
        `${repo.fullName}: using-config-file ${listed.attributes['using-config-file']}, config-file ${file ? `${file.path} ${file.valid ? 'valid' : 'invalid'}` : 'none'}; the last push (day ${last.day.toFixed(2)}, ${last.commit.slice(0, 7)}) was ${path} ${last.valid ? 'valid' : 'invalid'}`,
      );
    }
    if (lastValid) {
      const configs = included.filter((c) => c.relationships.repo.data.id === String(repo.id));
      for (const want of lastValid.configs) {
        const difference = fileConfigDiffers(
          configs.find((c) => c.id === want.id),
          want,
          path,
        );
        if (difference)
          differ.push(
            `${repo.fullName} config ${want.id}: ${difference} (the file of day ${lastValid.day.toFixed(2)}, ${lastValid.commit.slice(0, 7)})`,
          );
      }
      for (const extra of configs.filter((c) => !lastValid.configs.some((w) => w.id === c.id))) {
        differ.push(
          `${repo.fullName} config ${extra.id} (${extra.attributes['package-manager']} ${extra.attributes.directory}, ${extra.attributes.source}): not in ${path}`,
        );
      }
    }

    // 6. The invalid file's issue: opened, and closed once the file is valid again.
    if (pushes.some((p) => !p.valid)) {
      const title = `Your ${path} contained invalid details`;
      const found = (await github.issuesBy(repo.fullName, BOT_LOGIN)).filter((i) => !i.pull_request && i.title === title);
      const open = found.filter((i) => i.state === 'open');
      if (found.length === 0) issues.push(`${repo.fullName}: no issue "${title}" though ${path} was pushed invalid`);
      else if (last.valid && open.length > 0)
        issues.push(
          `${repo.fullName}: issue ${open.map((i) => `#${i.number}`).join(', ')} "${title}" still open, though ${path} is valid since day ${last.day.toFixed(2)}`,
        );
      else if (!last.valid && open.length === 0)
        issues.push(`${repo.fullName}: no open issue "${title}" though the last ${path} pushed is invalid`);
      if (found.length > 1)
        notes.push(`${repo.fullName}: ${found.length} issues "${title}" (${found.map((i) => `#${i.number} ${i.state}`).join(', ')})`);
    }
  }

  // 5. Writes through the API to what a file governs.
  const writes: string[] = [];
  for (const write of journal.fileGovernedWrites) {
    if (write.status === 409) stats.apiWritesRefused += 1;
    else writes.push(`day ${write.day.toFixed(2)} config ${write.configId}, ${write.what}: ${write.status} ${write.answer}`);
  }
  return { differ, writes, issues, stats };
}
