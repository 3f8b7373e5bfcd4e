import type { AutomergeRule, PackageManager } from '@switchyard/contracts';
import { LIVE_PACKAGE_MANAGERS } from '@switchyard/contracts';
import type { Agenda } from './agenda.ts';
import { GatewayApi, GitHubApi, type PullRequest } from './clients.ts';
import { DAY_MS, type SimulatedClock } from './clock.ts';
import { Unexpected } from './http.ts';
import type { ConfigState, Journal } from './journal.ts';
import type { Random } from './random.ts';
import type { SoakUrls } from './system.ts';
import { ACCOUNTS, BOT_LOGIN, type Person, REPOS, type RepoPlan } from './world.ts';

/**
 * The people of the demo organisations, on the GitHub emulator's REST API and through the gateway with their own
 * tokens: they merge about half of the bot's pull requests (some at once, some after a while), close some unmerged and
 * reopen a few, push to the target branches (editing a manifest, so that open pull requests conflict, or another file,
 * so that they only fall behind), push a commit onto a bot's branch now and then, and change configs (automerge rules,
 * the target branch, the schedule) and their organisations' settings.
 */

/** How many of each action a simulated day holds on average. */
const PER_DAY = {
  pushToTarget: 2,
  pushToBotBranch: 0.6,
  configChange: 1.5,
  accountChange: 0.6,
};

/** A bot pull request's fate, decided by its repository's person when they first see it. */
type Fate = 'merge' | 'close' | 'leave';

const RULES: readonly AutomergeRule[] = ['never', 'semver:patch', 'semver:minor', 'all'];

/** A manifest a person may edit without changing a dependency: its file in the config's directory and how to edit it. */
const MANIFEST_EDITS: Partial<Record<PackageManager, { file: string; edit: (text: string, note: string) => string | undefined }>> = {
  npm_and_yarn: { file: 'package.json', edit: (text, note) => jsonDescription(text, note) },
  composer: { file: 'composer.json', edit: (text, note) => jsonDescription(text, note) },
  bundler: { file: 'Gemfile', edit: (text, note) => `${text.trimEnd()}\n# ${note}\n` },
  pip: { file: 'requirements.txt', edit: (text, note) => `${text.trimEnd()}\n# ${note}\n` },
  docker: { file: 'Dockerfile', edit: (text, note) => `${text.trimEnd()}\n# ${note}\n` },
  gradle: { file: 'build.gradle', edit: (text, note) => `${text.trimEnd()}\n// ${note}\n` },
  nuget: { file: 'App.csproj', edit: (text, note) => text.replace('</Project>', `  <!-- ${note} -->\n</Project>`) },
  go_modules: { file: 'go.mod', edit: (text, note) => `${text.trimEnd()}\n// ${note}\n` },
  terraform: { file: 'main.tf', edit: (text, note) => `${text.trimEnd()}\n# ${note}\n` },
  hex: { file: 'mix.exs', edit: (text, note) => `${text.trimEnd()}\n# ${note}\n` },
  dep: { file: 'Gopkg.toml', edit: (text, note) => `${text.trimEnd()}\n# ${note}\n` },
  github_actions: { file: '.github/workflows/ci.yml', edit: (text, note) => `${text.trimEnd()}\n# ${note}\n` },
  maven: { file: 'pom.xml', edit: (text, note) => text.replace('</project>', `  <!-- ${note} -->\n</project>`) },
  cargo: { file: 'Cargo.toml', edit: (text, note) => `${text.trimEnd()}\n# ${note}\n` },
};

/** A JSON manifest with its `description` set to `note` (a field no lockfile records). */
function jsonDescription(text: string, note: string): string | undefined {
  try {
    const json = JSON.parse(text) as Record<string, unknown>;
    json.description = note;
    return `${JSON.stringify(json, null, 2)}\n`;
  } catch {
    return undefined;
  }
}

/** The people and what they have seen and decided. */
export class People {
  private readonly deps: PeopleDeps;
  /** Bot pull requests seen, by `<repo>#<number>@<node id>`, with the fate decided. */
  private readonly seen = new Map<string, Fate>();
  private notes = 0;

  /** The people of the world, acting through `deps`. */
  constructor(deps: PeopleDeps) {
    this.deps = deps;
  }

  private github(person: Person): GitHubApi {
    return new GitHubApi(() => this.deps.urls().codeHost, person.token);
  }

  private gateway(person: Person): GatewayApi {
    return new GatewayApi(() => this.deps.urls().gateway, person.token);
  }

  /** Adds the day's random actions (pushes, config and account changes) to the agenda, at random times of day `day`. */
  planDay(day: number): void {
    const { agenda, clock, random } = this.deps;
    const times = (perDay: number) => Math.floor(perDay) + (random.chance(perDay % 1) ? 1 : 0);
    const at = () => clock.atDay(day + random.next());
    for (let i = times(PER_DAY.pushToTarget); i > 0; i--) agenda.add(at(), 'push to a target branch', () => this.pushToTarget());
    for (let i = times(PER_DAY.pushToBotBranch); i > 0; i--) agenda.add(at(), "push to a bot's branch", () => this.pushToBotBranch());
    for (let i = times(PER_DAY.configChange); i > 0; i--) agenda.add(at(), 'change a config', () => this.changeConfig());
    for (let i = times(PER_DAY.accountChange); i > 0; i--) agenda.add(at(), 'change an account', () => this.changeAccount());
  }

  /** The open pull requests of the bot in `repo`, as its person sees them. */
  private async openBotPulls(repo: RepoPlan): Promise<PullRequest[]> {
    return (await this.github(repo.person).pulls(repo.fullName, 'open')).filter((pr) => pr.user.login === BOT_LOGIN);
  }

  /**
   * Each person looks at their repositories' open bot pull requests and decides the fate of those they had not seen:
   * about half merged, some closed unmerged, the rest left (to automerge, to be superseded, or open); each merge or close
   * comes at once or after a while.
   */
  async lookAround(): Promise<void> {
    const { agenda, clock, random } = this.deps;
    for (const repo of REPOS) {
      for (const pr of await this.openBotPulls(repo)) {
        const key = `${repo.fullName}#${pr.number}@${pr.node_id}`;
        if (this.seen.has(key)) continue;
        const drawn = random.weighted<Fate>([
          ['merge', 50],
          ['close', 15],
          ['leave', 35],
        ]);
        // Someone closes one of the first pull requests unmerged whatever the draws: a short run (CI's two days) sees
        // a close every time, not only when the draws and the pull requests' timing happen to give one.
        const firstClose = this.seen.size >= 2 && ![...this.seen.values()].includes('close');
        const fate: Fate = firstClose ? 'close' : drawn;
        this.seen.set(key, fate);
        if (fate === 'leave') continue;
        const after = firstClose ? 0 : random.chance(0.5) ? random.next() * 0.2 : 0.2 + random.next();
        const when = new Date(clock.now().getTime() + after * DAY_MS);
        if (fate === 'merge') agenda.add(when, `merge ${repo.fullName}#${pr.number}`, () => this.merge(repo, pr, true));
        else agenda.add(when, `close ${repo.fullName}#${pr.number}`, () => this.close(repo, pr));
      }
    }
  }

  /** Merges the pull request if it is still the open one seen (a merge commit or a squash); a refused merge may be tried once more later. */
  private async merge(repo: RepoPlan, seen: PullRequest, again: boolean): Promise<void> {
    const github = this.github(repo.person);
    const pr = await github.pull(repo.fullName, seen.number);
    if (!pr || pr.node_id !== seen.node_id || pr.state !== 'open') return;
    const method = this.deps.random.chance(0.5) ? 'merge' : 'squash';
    const answer = await github.send('PUT', `/repos/${repo.fullName}/pulls/${pr.number}/merge`, { merge_method: method, sha: pr.head.sha });
    const what = `${repo.fullName}#${pr.number} "${pr.title}" (${method})`;
    if (answer.status === 200) {
      this.deps.journal.action('merge', what);
      return;
    }
    this.deps.journal.action('merge', `${what}: ${answer.status} ${answer.body?.message ?? ''}`, false);
    if (again) {
      const when = new Date(this.deps.clock.now().getTime() + (0.25 + this.deps.random.next() * 0.5) * DAY_MS);
      this.deps.agenda.add(when, `merge ${repo.fullName}#${pr.number} again`, () => this.merge(repo, seen, false));
    }
  }

  /** Closes the pull request unmerged if it is still open; a few are reopened later. */
  private async close(repo: RepoPlan, seen: PullRequest): Promise<void> {
    const github = this.github(repo.person);
    const pr = await github.pull(repo.fullName, seen.number);
    if (!pr || pr.node_id !== seen.node_id || pr.state !== 'open') return;
    const answer = await github.send('PATCH', `/repos/${repo.fullName}/pulls/${pr.number}`, { state: 'closed' });
    const what = `${repo.fullName}#${pr.number} "${pr.title}"`;
    this.deps.journal.action('close unmerged', answer.status === 200 ? what : `${what}: ${answer.status}`, answer.status === 200);
    if (answer.status === 200 && this.deps.random.chance(0.3)) {
      const when = new Date(this.deps.clock.now().getTime() + (0.1 + this.deps.random.next() * 0.9) * DAY_MS);
      this.deps.agenda.add(when, `reopen ${repo.fullName}#${pr.number}`, () => this.reopen(repo, seen));
    }
  }

  /** Reopens a pull request the person closed (refused when its branch is gone, or it was merged meanwhile). */
  private async reopen(repo: RepoPlan, seen: PullRequest): Promise<void> {
    const github = this.github(repo.person);
    const pr = await github.pull(repo.fullName, seen.number);
    if (!pr || pr.node_id !== seen.node_id || pr.state !== 'closed' || pr.merged_at) return;
    const answer = await github.send('PATCH', `/repos/${repo.fullName}/pulls/${pr.number}`, { state: 'open' });
    const what = `${repo.fullName}#${pr.number} "${pr.title}"`;
    this.deps.journal.action(
      'reopen',
      answer.status === 200 ? what : `${what}: ${answer.status} ${answer.body?.message ?? ''}`,
      answer.status === 200,
    );
  }

  /**
   * A commit on a config's target branch by its person: mostly an edit of its manifest that changes no dependency (a
   * comment, a JSON `description`), which makes the bot's pull requests on that manifest conflict; else a note beside it,
   * which only puts them behind.
   */
  private async pushToTarget(): Promise<void> {
    const { journal, random } = this.deps;
    const config = random.pick(journal.configs);
    const repo = config.plan.repo;
    const branch = config.targetBranch ?? repo.defaultBranch;
    const github = this.github(repo.person);
    const base = config.plan.directory === '/' ? '' : `${config.plan.directory.slice(1)}/`;
    const note = `soak note ${++this.notes} by ${repo.person.login}`;
    let files: Record<string, string> | undefined;
    const manifest = MANIFEST_EDITS[config.plan.packageManager];
    if (manifest && random.chance(0.7)) {
      const text = await github.file(repo.fullName, `${base}${manifest.file}`, branch);
      const edited = text === undefined ? undefined : manifest.edit(text, note);
      if (edited !== undefined) files = { [`${base}${manifest.file}`]: edited };
    }
    const kind = files ? 'manifest edited' : 'note added';
    files ??= { [`${base}NOTES.md`]: `# Notes\n\n${note}\n` };
    try {
      const sha = await github.commit(repo.fullName, branch, files, note);
      journal.action(
        'push to a target branch',
        `${repo.fullName}@${branch}: ${kind} (${Object.keys(files).join(', ')}) ${sha.slice(0, 7)}`,
      );
    } catch (error) {
      if (!(error instanceof Unexpected)) throw error;
      journal.action('push to a target branch', `${repo.fullName}@${branch}: ${error.message}`, false);
    }
  }

  /** A commit onto the branch of one of the bot's open pull requests, by the repository's person (a fix of their own). */
  private async pushToBotBranch(): Promise<void> {
    const { journal, random } = this.deps;
    const repos = random.shuffle(REPOS);
    for (const repo of repos) {
      const pulls = await this.openBotPulls(repo);
      if (pulls.length === 0) continue;
      const pr = random.pick(pulls);
      const note = `soak note ${++this.notes} by ${repo.person.login}`;
      try {
        const sha = await this.github(repo.person).commit(
          repo.fullName,
          pr.head.ref,
          { [`NOTES-${repo.person.login}.md`]: `# ${note}\n` },
          `A fix of ${repo.person.login}'s on the update`,
          { parent: pr.head.sha },
        );
        journal.action("push to a bot's branch", `${repo.fullName}#${pr.number} ${pr.head.ref}: ${sha.slice(0, 7)}`);
      } catch (error) {
        if (!(error instanceof Unexpected)) throw error;
        journal.action("push to a bot's branch", `${repo.fullName}#${pr.number}: ${error.message}`, false);
      }
      return;
    }
  }

  /** A change of one config through the gateway: its automerge rules (half the time), its target branch, or its schedule. */
  private async changeConfig(): Promise<void> {
    const { journal, random } = this.deps;
    const config = random.pick(journal.configs);
    const what = random.weighted<'automerge' | 'target' | 'schedule'>([
      ['automerge', 50],
      ['target', 25],
      ['schedule', 25],
    ]);
    const gateway = this.gateway(config.person);
    const label = `config ${config.id} (${config.plan.key})`;
    if (what === 'automerge') {
      const runtime = random.pick(RULES);
      const development = random.pick(RULES);
      const since = Date.now();
      await this.patch(gateway, config, { 'automerge-rule-runtime-deps': runtime, 'automerge-rule-development-deps': development }, () => {
        config.automerge.push({ since, runtime, development });
        journal.action('config: automerge rules', `${label}: ${runtime}/${development}`);
      });
    } else if (what === 'target') {
      const target = config.targetBranch === null ? config.plan.repo.otherBranch.name : null;
      await this.patch(gateway, config, { 'target-branch': target }, () => {
        config.targetBranch = target;
        journal.action('config: target branch', `${label}: ${target ?? `${config.plan.repo.defaultBranch} (default)`}`);
      });
    } else {
      const live = (LIVE_PACKAGE_MANAGERS as readonly string[]).includes(config.plan.packageManager);
      const choices = ['daily', 'weekly', ...(live ? ['live'] : [])].filter((s) => s !== config.schedule);
      const schedule = random.pick(choices);
      await this.patch(gateway, config, { 'update-schedule': schedule }, () => {
        config.schedule = schedule;
        journal.action('config: schedule', `${label}: ${schedule}`);
      });
    }
  }

  private async patch(gateway: GatewayApi, config: ConfigState, body: Record<string, unknown>, done: () => void): Promise<void> {
    try {
      await gateway.patchConfig(config.id, body);
      done();
    } catch (error) {
      if (!(error instanceof Unexpected)) throw error;
      this.deps.journal.action('config change', `config ${config.id}: ${error.message}`, false);
    }
  }

  /**
   * A change of an organisation's settings by its admin (alice, of acme): automatic rebases, merge commits or the open
   * pull-request limit, toggled.
   */
  private async changeAccount(): Promise<void> {
    const { journal, random } = this.deps;
    const account = random.pick(ACCOUNTS.filter((a) => a.admin));
    if (!account.admin) return;
    const setting = random.pick(['automatically-rebase-prs', 'create-merge-commits', 'limit-open-pull-requests']);
    const current = journal.accountSettings.get(account.id) ?? {};
    const value = !(current[setting] ?? setting !== 'create-merge-commits');
    const answer = await this.gateway(account.admin).patchAccount(account.id, { [setting]: value });
    if (answer.status === 200) {
      journal.accountSettings.set(account.id, { ...answer.body.data.attributes });
      journal.action('account settings', `${account.login}: ${setting} ${value}`);
    } else {
      journal.action('account settings', `${account.login}: ${setting} ${value}: ${answer.status} ${answer.text.slice(0, 200)}`, false);
    }
  }
}

/** What the people work with. */
export interface PeopleDeps {
  urls: () => SoakUrls;
  journal: Journal;
  random: Random;
  clock: SimulatedClock;
  agenda: Agenda;
}
