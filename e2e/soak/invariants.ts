import type { AutomergeRule, PackageManager } from '@switchyard/contracts';
import { requireEcosystem } from '@switchyard/ecosystems';
import { FORCED_UPDATES_PATH, type ForcedUpdates } from '@switchyard/github-emulator';
import { GatewayApi, GitHubApi, type Job, type PullRequest, type Run } from './clients.ts';
import { expectJson } from './http.ts';
import type { ConfigState, Journal } from './journal.ts';
import { checkLock, LOCK_FILES } from './lockfiles.ts';
import type { Registries } from './registries.ts';
import { type CommandStats, type ConfigFileStats, observeSteering } from './steering.ts';
import type { SoakUrls } from './system.ts';
import { ALICE, BOB, BOT_LOGIN, REPOS } from './world.ts';

/**
 * The twelve invariants of a soak run, each a count whose goal is 0, read once the system has settled, from the code
 * host (the GitHub emulator), the dependency update API (through the gateway, as the demo users) and the registries;
 * with each finding in words, so that a count above 0 says which rows and pull requests to look at. The last six, of
 * what people asked on the code host (commands, config files), are `steering.ts`'s.
 */

/** One invariant: its count, and a line per finding. */
export interface InvariantResult {
  name: string;
  count: number;
  findings: string[];
}

/** The findings, and what the system did (read at the same time). */
export interface Observations {
  invariants: InvariantResult[];
  jobsByStatus: Record<string, number>;
  pullRequests: { opened: number; open: number; mergedByPerson: number; mergedAutomatically: number; closedUnmerged: number };
  /** Update runs of the configs: all, those requested during the simulated days, by trigger and by status. */
  runs: { total: number; duringDays: number; byTrigger: Record<string, number>; byStatus: Record<string, number> };
  /** The `@dependabot` commands given, and how they were answered. */
  commands: CommandStats;
  /** The config files pushed, and the API writes they refused. */
  configFiles: ConfigFileStats;
  /** Other things seen (not invariants). */
  notes: string[];
  /** Every job and every pull request of the bot as read, and every command as answered, one line each, for report.json (to look into a finding). */
  evidence: { jobs: string[]; pullRequests: string[]; commands: string[] };
}

/** How long after a config change the worker may still hold the config's earlier automerge rules, real ms. */
export const AUTOMERGE_GRACE_MS = 15_000;

/**
 * The pull request branch the service names for a job (release-svc's `branchName`, written again here, as Dependabot
 * documents it): `dependabot/<package manager>/<directory>/<target branch>/<dependency>-<version>`, the directory left
 * out at the root and the target branch when it is the repository's default branch (`defaultBranch`), `@` dropped and
 * `:` made `-`, then made a valid ref.
 */
export function jobBranch(
  job: Pick<Job['attributes'], 'package-manager' | 'directory' | 'dependency-name' | 'target-version' | 'target-branch'>,
  defaultBranch: string,
): string {
  const directory = job.directory.replace(/^\/+|\/+$/g, '');
  const name = job['dependency-name'].replace(/@/g, '').replace(/:/g, '-');
  const target = job['target-branch'] === defaultBranch ? [] : [job['target-branch']];
  const raw = ['dependabot', job['package-manager'], ...(directory ? [directory] : []), ...target, `${name}-${job['target-version']}`].join(
    '/',
  );
  return [...raw]
    .map((c) => (c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f ? '-' : c))
    .join('')
    .replace(/[\s~^:?*[\\]+/g, '-')
    .replace(/@\{/g, '-')
    .replace(/\.{2,}/g, '.')
    .replace(/\/{2,}/g, '/')
    .replace(/(^|\/)\.+/g, '$1')
    .replace(/\.lock(\/|$)/g, '-lock$1')
    .replace(/[/.]+$/, '');
}

/** Whether `rule` lets an update of `kind` be merged automatically (the rules the soak sets). */
export function automergeAllows(rule: AutomergeRule, kind: string): boolean {
  switch (rule) {
    case 'never':
      return false;
    case 'semver:patch':
      return kind === 'patch';
    case 'semver:minor':
      return kind === 'patch' || kind === 'minor';
    case 'all':
      return true;
    default:
      // `in_range` and `security:patch` are not set by the soak: not judged here.
      return true;
  }
}

/** The update kind of `from` → `to` by the ecosystem's rule, or `fallback` when the ecosystem cannot read them. */
function updateKind(pm: PackageManager, from: string, to: string, fallback: string): string {
  try {
    return requireEcosystem(pm).versions.updateKind(from, to);
  } catch {
    return fallback;
  }
}

/** Whether `inUse` is older than `allowed` by the ecosystem's order (another commit, for submodules). */
function behind(pm: PackageManager, inUse: string, allowed: string): boolean {
  if (inUse === allowed) return false;
  const scheme = requireEcosystem(pm).versions;
  if (scheme.unordered) return true;
  try {
    return scheme.compare(inUse, allowed) < 0;
  } catch {
    return true;
  }
}

/** What {@link observe} reads from. */
export interface ObserveDeps {
  urls: () => SoakUrls;
  journal: Journal;
  registries: Registries;
  /** When the simulated days ended (real epoch ms): runs before it were the days', later ones the settling's. */
  daysEndedAt: number;
}

/**
 * Reads the system and counts the twelve invariants:
 * 1. jobs whose state differs from their pull request on the code host (`open` ↔ open and the job's; `merged` ↔ merged;
 *    `closed`/`superseded` ↔ closed unmerged; `vanished` ↔ gone or another pull request), and jobs still under way
 *    after settling;
 * 2. dependencies behind (the last run's rows: `version-in-use` older than `latest-allowed-version`) with neither a
 *    pull request (`job-recorded`/`pr-open`) nor a recorded reason (`skipped`/`error` with a reason);
 * 3. configs with two open pull requests for one dependency (those a person pushed to are theirs now, and left out);
 * 4. merged pull requests whose lockfile at the merge commit disagrees with the registry for the merged version;
 * 5. automatic merges the config's rule in force then forbade, by the ecosystem's update kind;
 * 6. forced updates by the bot that discarded someone else's commits (the emulator's `/_emulator/forced-updates`), but
 *    those a writer asked for with `@dependabot recreate`;
 * 7.–12. what people asked on the code host: command comments not answered exactly once as asked, merge commands not
 *    followed, pull requests for what a command ignored, config-file repos whose configs differ from their file, API
 *    writes to file-governed configs not refused, invalid config files whose issue is wrong (`steering.ts`).
 * @throws Unexpected / Unreachable when the system does not answer
 */
export async function observe(deps: ObserveDeps): Promise<Observations> {
  const { urls, journal, registries } = deps;
  const notes: string[] = [];
  const gateways = [ALICE, BOB].map((p) => new GatewayApi(() => urls().gateway, p.token));
  const jobsById = new Map<string, Job>();
  for (const gateway of gateways) for (const job of await gateway.jobs()) jobsById.set(job.id, job);
  const jobs = [...jobsById.values()].filter((job) => journal.config(job.relationships['update-config'].data.id));

  // Every pull request of every repository of the run, by repository and number.
  const pulls = new Map<string, Map<number, PullRequest>>();
  for (const repo of REPOS) {
    const github = new GitHubApi(() => urls().codeHost, repo.person.token);
    pulls.set(repo.fullName, new Map((await github.pulls(repo.fullName, 'all')).map((pr) => [pr.number, pr])));
  }
  const repoOf = (job: Job) => journal.config(job.relationships['update-config'].data.id)?.plan.repo;
  const pullOf = (job: Job): PullRequest | undefined => {
    const repo = repoOf(job);
    const number = job.attributes['pull-request-number'];
    return repo && number !== null ? pulls.get(repo.fullName)?.get(number) : undefined;
  };
  const branchOf = (job: Job) => jobBranch(job.attributes, repoOf(job)?.defaultBranch ?? 'main');
  const isTheJobs = (job: Job, pr: PullRequest | undefined) => pr !== undefined && pr.head.ref === branchOf(job);
  const label = (job: Job) =>
    `job ${job.id} (config ${job.relationships['update-config'].data.id}, ${job.attributes['dependency-name']} ${job.attributes['version-in-use']} → ${job.attributes['target-version']}, ${job.attributes.status}${job.attributes['status-reason'] ? `: ${job.attributes['status-reason']}` : ''})`;

  // 1. Jobs and their pull requests.
  const mismatched: string[] = [];
  const claimed = new Set<string>();
  // The pull requests jobs name: a later job of the same version (the same branch) may have opened one.
  const namers = new Map<string, string[]>();
  for (const job of jobs) {
    const number = job.attributes['pull-request-number'];
    if (number === null) continue;
    const key = `${repoOf(job)?.fullName ?? ''}#${number}`;
    namers.set(key, [...(namers.get(key) ?? []), job.id]);
  }
  const named = new Set(namers.keys());
  const namedByOther = (job: Job, key: string) => (namers.get(key) ?? []).some((id) => id !== job.id);
  for (const job of jobs) {
    const repo = repoOf(job);
    const status = job.attributes.status;
    const number = job.attributes['pull-request-number'];
    const pr = pullOf(job);
    const theirs = isTheJobs(job, pr);
    if (theirs && repo && pr) claimed.add(`${repo.fullName}#${pr.number}`);
    const where =
      number === null
        ? 'no pull request'
        : pr
          ? `#${number} ${pr.state}${pr.merged_at ? ' merged' : ''} (${pr.head.ref})`
          : `#${number} gone`;
    let wrong: string | undefined;
    if (status === 'pending' || status === 'running') wrong = `still ${status} after settling`;
    else if (number === null) {
      const open = [...(pulls.get(repo?.fullName ?? '')?.values() ?? [])].find(
        (p) => p.state === 'open' && p.head.ref === branchOf(job) && !named.has(`${repo?.fullName ?? ''}#${p.number}`),
      );
      if (status === 'open') wrong = 'open without a pull request';
      else if (open) wrong = `its branch has the open pull request #${open.number}, which the job does not name`;
    } else if (status === 'open' && !(theirs && pr?.state === 'open')) wrong = `open, but ${where}`;
    else if (status === 'open' && pr && pr.base.ref !== job.attributes['target-branch'])
      wrong = `open against ${job.attributes['target-branch']}, but ${where} is into ${pr.base.ref}`;
    else if (status === 'merged' && !(theirs && pr?.merged_at)) wrong = `merged, but ${where}`;
    else if ((status === 'closed' || status === 'superseded') && !(theirs && pr?.state === 'closed' && !pr.merged_at))
      wrong = `${status}, but ${where}`;
    // A later job of the same version (its branch) may have opened a pull request that got the same number.
    else if (status === 'vanished' && theirs && !(repo && namedByOther(job, `${repo.fullName}#${number}`)))
      wrong = `vanished, but ${where} is the job's`;
    else if (status === 'queued-limit' && theirs && pr?.state === 'open') wrong = `queued-limit, but ${where} is open`;
    else if (status === 'failed' && theirs && pr?.state === 'open') wrong = `failed, but ${where} is open`;
    if (wrong) mismatched.push(`${label(job)}: ${wrong}`);
  }
  // One pull request is one job's: a second open job naming it is a second claim.
  const openClaims = new Map<string, Job[]>();
  for (const job of jobs.filter((j) => j.attributes.status === 'open')) {
    const repo = repoOf(job);
    const number = job.attributes['pull-request-number'];
    if (!repo || number === null) continue;
    const key = `${repo.fullName}#${number}`;
    openClaims.set(key, [...(openClaims.get(key) ?? []), job]);
  }
  for (const [key, claims] of openClaims) {
    for (const job of claims.slice(1)) mismatched.push(`${label(job)}: ${key} is also open as job ${claims[0]?.id}'s`);
  }
  const botOpen = [...pulls.entries()].flatMap(([repo, byNumber]) =>
    [...byNumber.values()].filter((pr) => pr.user.login === BOT_LOGIN && pr.state === 'open').map((pr) => ({ repo, pr })),
  );
  for (const { repo, pr } of botOpen) {
    if (!claimed.has(`${repo}#${pr.number}`)) notes.push(`open bot pull request ${repo}#${pr.number} (${pr.head.ref}) that no job names`);
  }

  // 2. Dependencies behind without a pull request or a reason, in each config's last finished run.
  const behindWithout: string[] = [];
  const runs = { total: 0, duringDays: 0, byTrigger: {} as Record<string, number>, byStatus: {} as Record<string, number> };
  for (const config of journal.configs) {
    const gateway = new GatewayApi(() => urls().gateway, config.person.token);
    const all = await gateway.runs(config.id, 80);
    runs.total += all.length;
    for (const run of all) {
      const { trigger, status } = run.attributes;
      runs.byTrigger[trigger] = (runs.byTrigger[trigger] ?? 0) + 1;
      runs.byStatus[status] = (runs.byStatus[status] ?? 0) + 1;
      if (Date.parse(run.attributes['created-at']) <= deps.daysEndedAt) runs.duringDays += 1;
      if ((status === 'queued' || status === 'running') && Date.now() - Date.parse(run.attributes['created-at']) > 60_000) {
        notes.push(
          `config ${config.id} (${config.plan.key}): run ${run.id} (${trigger}) still ${status} since ${run.attributes['created-at']}`,
        );
      }
    }
    const last: Run | undefined = all.find((r) => r.attributes.status === 'done' || r.attributes.status === 'failed');
    if (!last) {
      behindWithout.push(`config ${config.id} (${config.plan.key}): no finished run`);
      continue;
    }
    if (last.attributes.status === 'failed') {
      notes.push(`config ${config.id} (${config.plan.key}): its last run ${last.id} failed: ${last.attributes.error}`);
      continue;
    }
    for (const dep of last.attributes.dependencies) {
      const inUse = dep['version-in-use'];
      const allowed = dep['latest-allowed-version'];
      if (inUse === null || allowed === null || !behind(config.plan.packageManager, inUse, allowed)) continue;
      const covered = dep.outcome === 'job-recorded' || dep.outcome === 'pr-open';
      const reasoned = (dep.outcome === 'skipped' || dep.outcome === 'error') && dep.reason.trim() !== '';
      if (!covered && !reasoned) {
        behindWithout.push(
          `config ${config.id} (${config.plan.key}) run ${last.id} (${last.attributes.trigger}): ${dep.name} ${inUse} < ${allowed}, outcome ${dep.outcome}: ${dep.reason}`,
        );
      }
    }
  }

  // 3. Two open pull requests of one config for one dependency (the bot's own branches only).
  const doubles: string[] = [];
  const groups = new Map<string, { repo: string; pr: PullRequest; job: Job }[]>();
  for (const job of jobs) {
    const pr = pullOf(job);
    const repo = repoOf(job);
    if (!repo || !pr || pr.state !== 'open' || !isTheJobs(job, pr)) continue;
    // A group's pull request counts for each dependency it updates (and for the group, whose newer one replaces it).
    const names = [job.attributes['dependency-name'], ...(job.attributes.group?.updates.map((u) => u['dependency-name']) ?? [])];
    for (const name of names) {
      const key = `${job.relationships['update-config'].data.id}\u0000${name}`;
      const group = groups.get(key) ?? [];
      // One pull request named by two jobs is one pull request (invariant 1 counts the second claim).
      if (!group.some((entry) => entry.repo === repo.fullName && entry.pr.number === pr.number))
        group.push({ repo: repo.fullName, pr, job });
      groups.set(key, group);
    }
  }
  for (const [, group] of groups) {
    if (group.length < 2) continue;
    const botsOnly: typeof group = [];
    for (const entry of group) {
      const github = new GitHubApi(() => urls().codeHost, ALICE.token);
      const commits = (await github.ok('GET', `/repos/${entry.repo}/pulls/${entry.pr.number}/commits?per_page=100`)).body as {
        author: { login: string } | null;
        commit: { author: { email: string } };
      }[];
      if (commits.every((c) => c.author?.login === BOT_LOGIN || c.commit.author.email.includes(BOT_LOGIN))) botsOnly.push(entry);
      else notes.push(`${entry.repo}#${entry.pr.number}: a person pushed to it, so it is theirs now (left open beside a newer one)`);
    }
    if (botsOnly.length >= 2) {
      const first = botsOnly[0] as (typeof botsOnly)[number];
      doubles.push(
        `config ${first.job.relationships['update-config'].data.id}, ${first.job.attributes['dependency-name']}: ${botsOnly.map((e) => `${e.repo}#${e.pr.number} (job ${e.job.id}, ${e.job.attributes['target-version']})`).join(', ')}`,
      );
    }
  }

  // 4. Lockfiles of merged pull requests.
  const lockDisagreements: string[] = [];
  const lockChecks: Record<string, number> = {};
  const tagCommit = async (repo: string, tag: string) => registries.tagCommit(repo, tag);
  for (const job of jobs.filter((j) => j.attributes.status === 'merged')) {
    const pr = pullOf(job);
    const repo = repoOf(job);
    const pm = job.attributes['package-manager'];
    const files = LOCK_FILES[pm];
    if (!pr || !repo || !isTheJobs(job, pr) || !pr.merge_commit_sha || !files) continue;
    const github = new GitHubApi(() => urls().codeHost, repo.person.token);
    const base = job.attributes.directory === '/' ? '' : `${job.attributes.directory.slice(1)}/`;
    const texts: Record<string, string> = {};
    for (const file of files) {
      const text = await github.file(repo.fullName, `${base}${file}`, pr.merge_commit_sha);
      if (text !== undefined) texts[file] = text;
    }
    // A group's pull request: each of its updates (the lockfile holds them all).
    const updates = job.attributes.group
      ? job.attributes.group.updates.map((u) => ({ name: u['dependency-name'], version: u['target-version'] }))
      : [{ name: job.attributes['dependency-name'], version: job.attributes['target-version'] }];
    for (const update of updates) {
      const verdict = await checkLock(pm, texts, update.name, update.version, {
        describe: (registry, name, version) => registries.describe(registry, name, version),
        tagCommit,
      });
      if (verdict.compared && verdict.agrees) lockChecks[pm] = (lockChecks[pm] ?? 0) + 1;
      if (!verdict.agrees)
        lockDisagreements.push(
          `${repo.fullName}#${pr.number} at ${pr.merge_commit_sha.slice(0, 7)}, ${label(job)}${job.attributes.group ? ` (${update.name})` : ''}: ${verdict.detail}`,
        );
    }
  }

  // 5. Automatic merges the rule in force forbade.
  const forbidden: string[] = [];
  for (const job of jobs.filter(
    (j) => j.attributes.status === 'merged' && (j.attributes['status-reason'] ?? '').startsWith('merged automatically'),
  )) {
    const config = journal.config(job.relationships['update-config'].data.id) as ConfigState;
    const pr = pullOf(job);
    if (!pr?.merged_at) continue;
    const at = Date.parse(pr.merged_at) + 1_000;
    const epochs = journal.automergeAround(config, at, AUTOMERGE_GRACE_MS);
    // A group is merged automatically only when the rule of each update's type allows that update.
    const updates = job.attributes.group
      ? job.attributes.group.updates.map((u) => ({
          name: u['dependency-name'],
          from: u['version-in-use'],
          to: u['target-version'],
          said: u['update-kind'],
          type: u['dependency-type'],
        }))
      : [
          {
            name: job.attributes['dependency-name'],
            from: job.attributes['version-in-use'],
            to: job.attributes['target-version'],
            said: job.attributes['update-kind'],
            type: job.attributes['dependency-type'],
          },
        ];
    for (const update of updates) {
      const kind = updateKind(job.attributes['package-manager'], update.from, update.to, update.said);
      const rules = epochs.map((e) => (update.type === 'runtime' ? e.runtime : e.development));
      if (!rules.some((rule) => automergeAllows(rule, kind))) {
        forbidden.push(
          `${label(job)}${job.attributes.group ? ` (${update.name})` : ''}: ${kind} update (${update.type}) merged at ${pr.merged_at} as #${pr.number} under ${[...new Set(rules)].join(' / ')}`,
        );
      }
      if (kind !== update.said) notes.push(`${label(job)}: the job says ${update.said} for ${update.name}, the ecosystem ${kind}`);
    }
  }

  // 7.–12. Commands and config files (read first: a `recreate` asks for the force-push invariant 6 counts otherwise).
  const steering = await observeSteering({ urls, journal, jobs, pulls });

  // 6. The bot's forced updates that discarded someone else's commits, but those a writer asked for with
  // `@dependabot recreate` ("overwriting any edits").
  const forced = (await expectJson('GET', `${urls().codeHost}${FORCED_UPDATES_PATH}`)).body as ForcedUpdates;
  const overOthers: string[] = [];
  for (const u of forced.discardingOthersCommits.filter((update) => update.pusher === BOT_LOGIN)) {
    const line = `${u.repo} ${u.ref} ${u.before.slice(0, 7)} → ${u.after.slice(0, 7)} at ${u.at}: discarded ${u.othersDiscarded.map((c) => `${c.sha.slice(0, 7)} by ${c.author.email}`).join(', ')}`;
    const at = Date.parse(u.at);
    const asked = steering.recreates.find((r) => r.repo === u.repo && `refs/heads/${r.branch}` === u.ref && at >= r.from && at <= r.until);
    if (asked) notes.push(`${line}: asked for by ${asked.asked}`);
    else overOthers.push(line);
  }

  const jobsByStatus: Record<string, number> = {};
  for (const job of jobs) jobsByStatus[job.attributes.status] = (jobsByStatus[job.attributes.status] ?? 0) + 1;
  const botPulls = [...pulls.values()].flatMap((byNumber) => [...byNumber.values()].filter((pr) => pr.user.login === BOT_LOGIN));
  const merged = botPulls.filter((pr) => pr.merged_at).length;
  const mergedAutomatically = jobs.filter(
    (j) => j.attributes.status === 'merged' && (j.attributes['status-reason'] ?? '').startsWith('merged automatically'),
  ).length;
  return {
    invariants: [
      { name: 'jobs whose state differs from their pull request', count: mismatched.length, findings: mismatched },
      { name: 'dependencies behind without a pull request or a reason', count: behindWithout.length, findings: behindWithout },
      { name: 'configs with two open pull requests for one dependency', count: doubles.length, findings: doubles },
      {
        name: 'merged pull requests whose lockfile disagrees with the registry',
        count: lockDisagreements.length,
        findings: lockDisagreements,
      },
      { name: 'automatic merges the automerge rule forbade', count: forbidden.length, findings: forbidden },
      { name: "force-pushes by the bot over someone else's commits", count: overOthers.length, findings: overOthers },
      ...steering.invariants,
    ],
    jobsByStatus,
    pullRequests: {
      opened: botPulls.length,
      open: botPulls.filter((pr) => pr.state === 'open').length,
      mergedByPerson: merged - mergedAutomatically,
      mergedAutomatically,
      closedUnmerged: botPulls.filter((pr) => pr.state === 'closed' && !pr.merged_at).length,
    },
    runs,
    commands: steering.commands,
    configFiles: steering.configFiles,
    notes: [
      ...notes,
      ...steering.notes,
      `forced updates on the code host: ${forced.forcedUpdates}`,
      `merged pull requests whose lockfile (or pin) was compared with the registry and agreed: ${
        Object.entries(lockChecks)
          .map(([pm, n]) => `${pm} ${n}`)
          .join(', ') || 'none'
      }`,
    ],
    evidence: {
      jobs: jobs
        .sort((a, b) => Number(a.id) - Number(b.id))
        .map(
          (job) =>
            `${label(job)} ${job.attributes['target-branch']} #${job.attributes['pull-request-number'] ?? '-'} ${job.attributes['created-at']}`,
        ),
      pullRequests: [...pulls.entries()].flatMap(([repo, byNumber]) =>
        [...byNumber.values()]
          .filter((pr) => pr.user.login === BOT_LOGIN)
          .map(
            (pr) =>
              `${repo}#${pr.number} ${pr.state}${pr.merged_at ? ` merged ${pr.merged_at}` : ''}${pr.closed_at && !pr.merged_at ? ` closed ${pr.closed_at}` : ''} ${pr.head.ref} → ${pr.base.ref} "${pr.title}"`,
          ),
      ),
      commands: steering.evidence,
    },
  };
}
