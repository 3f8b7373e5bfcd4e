import type { AutomergeRule, PackageManager } from '@switchyard/contracts';
import { LIVE_PACKAGE_MANAGERS } from '@switchyard/contracts';
import type { Agenda } from './agenda.ts';
import { GatewayApi, GitHubApi, type PullRequest } from './clients.ts';
import { DAY_MS, type SimulatedClock } from './clock.ts';
import { configFileText, expressible, type FileConfig, fileConfigDiffers, fileVersion } from './config-files.ts';
import { Unexpected, Unreachable } from './http.ts';
import type { ConfigFilePush, ConfigFileState, ConfigState, Journal } from './journal.ts';
import type { Random } from './random.ts';
import type { SoakUrls } from './system.ts';
import { ACCOUNTS, BOT_LOGIN, CONFIG_FILES, type Person, READERS, REPOS, type Reader, type RepoPlan } from './world.ts';

/**
 * The people of the demo organisations, on the GitHub emulator's REST API and through the gateway with their own
 * tokens: they merge about half of the bot's pull requests (some at once, some after a while), close some unmerged and
 * reopen a few, push to the target branches (editing a manifest, so that open pull requests conflict, or another file,
 * so that they only fall behind), push a commit onto a bot's branch now and then, and change configs (automerge rules,
 * the target branch, the schedule) and their organisations' settings. They give `@dependabot` commands in comments on
 * the bot's open pull requests (a reader without push access now and then, whose commands must be refused), and two
 * repositories get a config file (`world.ts` CONFIG_FILES), after which their configs change through the file: a
 * change through the API must be refused (409).
 */

/** How many of each action a simulated day holds on average. */
const PER_DAY = {
  pushToTarget: 2,
  pushToBotBranch: 0.6,
  configChange: 1.5,
  accountChange: 0.6,
  command: 4,
};

/** The commands people give a writer's pull request, by weight: mostly `rebase`. */
const COMMANDS: readonly (readonly [string, number])[] = [
  ['rebase', 40],
  ['recreate', 5],
  ['merge', 8],
  ['squash and merge', 8],
  ['cancel merge', 8],
  ['close', 11],
  ['ignore this dependency', 5],
  ['ignore this major version', 5],
  ['ignore this minor version', 5],
  ['ignore this patch version', 5],
];

/** Every command the service knows, which a reader picks from evenly. */
const ALL_COMMANDS = [...COMMANDS.map(([command]) => command), 'reopen'];

/** The share of commands given by a reader, without push access. */
const READER_SHARE = 0.12;

/** How often a `close` (and an `ignore …`) is undone later with `@dependabot reopen`. */
const REOPEN_AFTER_CLOSE = 0.5;
const REOPEN_AFTER_IGNORE = 0.2;

/** How often the soak looks whether a config file pushed was applied, simulated ms (about 0.3 s at the default rate). */
const FILE_LOOK_MS = 0.03 * DAY_MS;
/** After this long (real ms) without the file applied, its person pushes it once more (its webhook may have been lost). */
const FILE_PUSH_AGAIN_MS = 20_000;
/** After this long (real ms) the soak stops waiting for the file (the checks at the end say whether it was applied). */
const FILE_GIVE_UP_MS = 90_000;

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
  /** Whether the early merge (see `lookAround`) is on the agenda, not yet merged or left for its conflicts. */
  private earlyMergeAhead = false;
  /** Pull requests a person merged. */
  private merged = 0;
  /** Whether the close made whatever the draws is scheduled and not yet tried (see {@link lookAround}). */
  private earlyCloseAhead = false;
  /** Pull requests people closed unmerged. */
  private closed = 0;
  private notes = 0;
  /** The draws of the commands and of the config files: streams of their own, so the other actions draw as before. */
  private readonly commandRandom: Random;
  private readonly fileRandom: Random;
  private commandsPlayed = 0;
  private readerCommandGiven = false;

  /** The people of the world, acting through `deps`. */
  constructor(deps: PeopleDeps) {
    this.deps = deps;
    this.commandRandom = deps.random.fork('commands');
    this.fileRandom = deps.random.fork('config files');
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
    const commands = this.commandRandom;
    const count = Math.floor(PER_DAY.command) + (commands.chance(PER_DAY.command % 1) ? 1 : 0);
    for (let i = count; i > 0; i--) agenda.add(clock.atDay(day + commands.next()), 'give a command', () => this.giveCommand());
  }

  /**
   * Adds the config files' pushes of a run of `days` days to the agenda (`world.ts` CONFIG_FILES): each file at its
   * fraction of the run, and the invalid version and its fix where planned, each a little before or after.
   */
  planConfigFiles(days: number): void {
    const { agenda, clock, journal } = this.deps;
    const random = this.fileRandom;
    const when = (fraction: number) => clock.atDay(days * (fraction + (random.next() - 0.5) * 0.04));
    for (const plan of CONFIG_FILES) {
      const state: ConfigFileState = { plan, pushes: [] };
      journal.configFiles.set(plan.repo.fullName, state);
      const label = `${plan.path} of ${plan.repo.fullName}`;
      agenda.add(when(plan.at), `push ${label}`, () => this.pushConfigFile(state, { valid: true }));
      if (plan.invalid) {
        agenda.add(when(plan.invalid.at), `push an invalid ${label}`, () => this.pushConfigFile(state, { valid: false }));
        agenda.add(when(plan.invalid.fixedAt), `fix ${label}`, () => this.pushConfigFile(state, { valid: true, note: 'fixed' }));
      }
    }
  }

  /**
   * The end of the days: a config file push not seen applied yet is taken as the repository's setup from now on (the
   * checks at the end say whether the service applied it).
   */
  finish(): void {
    for (const state of this.deps.journal.configFiles.values()) {
      // Not seen: nothing is asked of the service here, so nothing is awaited.
      if (state.pending) void this.fileDone(state, state.pending, false);
    }
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
        // Until one is closed: a pull request gone before its close (merged, superseded, closed by a command) is not one.
        const firstClose = this.seen.size >= 2 && this.closed === 0 && !this.earlyCloseAhead;
        // Likewise someone merges one: the first pull request after that close, or the next one when that one had
        // conflicts (a person does not press a merge button GitHub greys out).
        const firstMerge = !firstClose && this.seen.size >= 3 && this.merged === 0 && !this.earlyMergeAhead;
        const fate: Fate = firstClose ? 'close' : firstMerge ? 'merge' : drawn;
        this.seen.set(key, fate);
        if (fate === 'leave') continue;
        const after = firstClose || firstMerge ? 0 : random.chance(0.5) ? random.next() * 0.2 : 0.2 + random.next();
        const when = new Date(clock.now().getTime() + after * DAY_MS);
        if (firstMerge) this.earlyMergeAhead = true;
        if (firstClose) this.earlyCloseAhead = true;
        if (fate === 'merge') agenda.add(when, `merge ${repo.fullName}#${pr.number}`, () => this.merge(repo, pr, true, firstMerge));
        else agenda.add(when, `close ${repo.fullName}#${pr.number}`, () => this.close(repo, pr, firstClose));
      }
    }
  }

  /** Merges the pull request if it is still the open one seen (a merge commit or a squash); a refused merge may be tried once more later. */
  private async merge(repo: RepoPlan, seen: PullRequest, again: boolean, early = false): Promise<void> {
    const done = () => {
      if (early) this.earlyMergeAhead = false;
    };
    const github = this.github(repo.person);
    const pr = await github.pull(repo.fullName, seen.number);
    if (!pr || pr.node_id !== seen.node_id || pr.state !== 'open') {
      done();
      return;
    }
    if (pr.mergeable === false) {
      // GitHub says it has conflicts: a person does not press the merge button then. They look again later (the bot may
      // have rebased it), and leave it if it still has them.
      if (again && !early) {
        this.deps.agenda.add(this.later(), `merge ${repo.fullName}#${pr.number} again`, () => this.merge(repo, seen, false));
      } else {
        this.deps.journal.action('left with conflicts', `${repo.fullName}#${pr.number} "${pr.title}"`);
        done();
      }
      return;
    }
    const method = this.deps.random.chance(0.5) ? 'merge' : 'squash';
    const answer = await github.send('PUT', `/repos/${repo.fullName}/pulls/${pr.number}/merge`, { merge_method: method, sha: pr.head.sha });
    const what = `${repo.fullName}#${pr.number} "${pr.title}" (${method})`;
    if (answer.status === 200) {
      this.deps.journal.action('merge', what);
      this.merged += 1;
      done();
      return;
    }
    this.deps.journal.action('merge', `${what}: ${answer.status} ${answer.body?.message ?? ''}`, false);
    if (again && !early) {
      this.deps.agenda.add(this.later(), `merge ${repo.fullName}#${pr.number} again`, () => this.merge(repo, seen, false));
    }
    done();
  }

  /** When a person looks at a pull request again: a quarter to three quarters of a day on. */
  private later(): Date {
    return new Date(this.deps.clock.now().getTime() + (0.25 + this.deps.random.next() * 0.5) * DAY_MS);
  }

  /** Closes the pull request unmerged if it is still open; a few are reopened later. */
  private async close(repo: RepoPlan, seen: PullRequest, early = false): Promise<void> {
    try {
      await this.closeIfOpen(repo, seen);
    } finally {
      if (early) this.earlyCloseAhead = false;
    }
  }

  /** The body of {@link close}. */
  private async closeIfOpen(repo: RepoPlan, seen: PullRequest): Promise<void> {
    const github = this.github(repo.person);
    const pr = await github.pull(repo.fullName, seen.number);
    if (!pr || pr.node_id !== seen.node_id || pr.state !== 'open') return;
    const answer = await github.send('PATCH', `/repos/${repo.fullName}/pulls/${pr.number}`, { state: 'closed' });
    const what = `${repo.fullName}#${pr.number} "${pr.title}"`;
    this.deps.journal.action('close unmerged', answer.status === 200 ? what : `${what}: ${answer.status}`, answer.status === 200);
    if (answer.status === 200) this.closed += 1;
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

  /**
   * A change of one config through the gateway: its automerge rules (half the time), its target branch, or its schedule.
   * A config its repository's config file governs is changed in the file instead ({@link changeFileGoverned}).
   */
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
    const file = journal.configFiles.get(config.plan.repo.fullName);
    const governed = file && (config.source !== 'api' || file.pending) ? file : undefined;
    if (what === 'automerge') {
      const runtime = random.pick(RULES);
      const development = random.pick(RULES);
      const since = Date.now();
      const body = { 'automerge-rule-runtime-deps': runtime, 'automerge-rule-development-deps': development };
      const done = () => {
        config.automerge.push({ since, runtime, development });
        journal.action('config: automerge rules', `${label}: ${runtime}/${development}`);
      };
      if (governed) {
        const inFile = fileVersion(governed.plan.path) === 1 ? { runtime, development } : undefined;
        return this.changeFileGoverned(governed, config, `automerge rules ${runtime}/${development}`, body, done, inFile);
      }
      await this.patch(gateway, config, body, done);
    } else if (what === 'target') {
      const target = config.targetBranch === null ? config.plan.repo.otherBranch.name : null;
      const done = () => {
        config.targetBranch = target;
        journal.action('config: target branch', `${label}: ${target ?? `${config.plan.repo.defaultBranch} (default)`}`);
      };
      // A file's entry of another target branch is another config: the person changes the branch through the API only.
      if (governed) return this.changeFileGoverned(governed, config, `target branch ${target}`, { 'target-branch': target }, done);
      await this.patch(gateway, config, { 'target-branch': target }, done);
    } else {
      const live = (LIVE_PACKAGE_MANAGERS as readonly string[]).includes(config.plan.packageManager);
      const liveHere = live && !(governed && fileVersion(governed.plan.path) === 2);
      const choices = ['daily', 'weekly', ...(liveHere ? ['live'] : [])].filter((s) => s !== config.schedule);
      const schedule = random.pick(choices);
      const done = () => {
        config.schedule = schedule;
        journal.action('config: schedule', `${label}: ${schedule}`);
      };
      if (governed)
        return this.changeFileGoverned(governed, config, `schedule ${schedule}`, { 'update-schedule': schedule }, done, { schedule });
      await this.patch(gateway, config, { 'update-schedule': schedule }, done);
    }
  }

  /**
   * A change of a config its repository's config file governs: the person tries the API first, which must refuse it
   * (409; any other answer is recorded, and a change the API took is the config's, as the journal must know it), then
   * makes the change in the file where the file can say it (`inFile`: a schedule; automerge rules in a version 1
   * file). While a push of the file is being applied the config is left alone.
   */
  private async changeFileGoverned(
    state: ConfigFileState,
    config: ConfigState,
    what: string,
    body: Record<string, unknown>,
    done: () => void,
    inFile?: { schedule?: string; runtime?: AutomergeRule; development?: AutomergeRule },
  ): Promise<void> {
    const { journal } = this.deps;
    const label = `config ${config.id} (${config.plan.key})`;
    if (state.pending) {
      journal.log(`config change of ${label} left: ${state.plan.path} of ${state.plan.repo.fullName} is being applied`);
      return;
    }
    const answer = await this.gateway(config.person).send('PATCH', `/update_configs/${config.id}`, body);
    journal.fileGovernedWrites.push({
      day: this.deps.clock.day(),
      configId: config.id,
      what,
      status: answer.status,
      answer: answer.text.slice(0, 300),
    });
    journal.action(
      'config: API write to a file-governed config',
      `${label}: ${what}: ${answer.status}${answer.status === 409 ? `, governed by ${state.plan.path}` : ` instead of 409: ${answer.text.slice(0, 200)}`}`,
    );
    if (answer.status >= 200 && answer.status < 300) done();
    if (inFile)
      await this.pushConfigFile(state, { valid: true, change: { id: config.id, ...inFile }, note: `${config.plan.key}: ${what}` });
  }

  /**
   * A schedule change of each config a config file governs, through the API (the other of daily and weekly), which must
   * be refused; after the push being applied, if there is one.
   */
  private async tryTheApi(state: ConfigFileState): Promise<void> {
    if (state.pending) {
      const later = new Date(this.deps.clock.now().getTime() + FILE_LOOK_MS);
      this.deps.journal.log(`the API try on ${state.plan.repo.fullName} waits: ${state.plan.path} is being applied`);
      this.deps.agenda.add(later, `change a config of ${state.plan.repo.fullName} through the API`, () => this.tryTheApi(state));
      return;
    }
    const governed = this.deps.journal.configs.filter((c) => c.plan.repo === state.plan.repo && c.source !== 'api');
    this.deps.journal.log(`the API try on ${state.plan.repo.fullName}: ${governed.length} config(s) its file governs`);
    for (const config of governed) {
      const schedule = config.schedule === 'daily' ? 'weekly' : 'daily';
      await this.changeFileGoverned(state, config, `schedule ${schedule}`, { 'update-schedule': schedule }, () => {
        config.schedule = schedule;
        this.deps.journal.action('config: schedule', `config ${config.id} (${config.plan.key}): ${schedule}`);
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
   * A `@dependabot` command on one of the bot's open pull requests (drawn from {@link COMMANDS}), by the repository's
   * person; now and then one by a reader without push access instead (the first such one by the third command at the
   * latest, so a short run sees a refusal), on a pull request of the reader's repository. A `close` or an `ignore …` is
   * undone with `@dependabot reopen` now and then, later.
   */
  private async giveCommand(): Promise<void> {
    const random = this.commandRandom;
    this.commandsPlayed += 1;
    const byReader = random.chance(READER_SHARE) || (this.commandsPlayed >= 3 && !this.readerCommandGiven);
    const command = random.weighted(COMMANDS);
    const readerCommand = random.pick(ALL_COMMANDS);
    const reopenChance = command === 'close' ? REOPEN_AFTER_CLOSE : command.startsWith('ignore') ? REOPEN_AFTER_IGNORE : 0;
    const reopen = random.chance(reopenChance);
    const reopenAfter = 0.1 + random.next() * 0.5;
    const reader = random.pick(READERS);
    // Which pull request, drawn as a fraction of those there are: every command draws as many numbers, whatever the
    // system's state, so the commands of a seed are the same on every run.
    const which = random.next();
    const repos = random.shuffle(REPOS);
    if (byReader && (await this.commandByReader(reader, readerCommand, which))) return;
    for (const repo of repos) {
      const pulls = await this.openBotPulls(repo);
      if (pulls.length === 0) continue;
      const pr = pulls[Math.floor(which * pulls.length)] as PullRequest;
      const given = await this.comment(repo.fullName, repo.person, pr, command, true);
      if (given && reopen) {
        const when = new Date(this.deps.clock.now().getTime() + reopenAfter * DAY_MS);
        this.deps.agenda.add(when, `@dependabot reopen ${repo.fullName}#${pr.number}`, () => this.commandReopen(repo, pr));
      }
      return;
    }
    this.deps.journal.log(`no command given: no open pull request of the bot for @dependabot ${command}`);
  }

  /**
   * A command by `reader` on one of the bot's pull requests of the reader's repository (an open one if there is one;
   * `which` a fraction of them), which the service must refuse. @returns false when the repository has none of the
   * bot's pull requests
   */
  private async commandByReader(reader: Reader, command: string, which: number): Promise<boolean> {
    const all = (await this.github(reader.person).pulls(reader.repo.fullName, 'all')).filter((pr) => pr.user.login === BOT_LOGIN);
    const open = all.filter((pr) => pr.state === 'open');
    const choices = open.length > 0 ? open : all;
    if (choices.length === 0) return false;
    const pr = choices[Math.floor(which * choices.length)] as PullRequest;
    const given = await this.comment(reader.repo.fullName, reader.person, pr, command, false);
    if (given) this.readerCommandGiven = true;
    return given;
  }

  /** `@dependabot reopen` by the repository's person on a pull request a command closed, if it is still closed unmerged. */
  private async commandReopen(repo: RepoPlan, seen: PullRequest): Promise<void> {
    const pr = await this.github(repo.person).pull(repo.fullName, seen.number);
    if (!pr || pr.node_id !== seen.node_id || pr.state !== 'closed' || pr.merged_at) return;
    await this.comment(repo.fullName, repo.person, pr, 'reopen', true);
  }

  /**
   * Comments `@dependabot <command>` on `pr` as `person`, and records it in the journal.
   * @returns whether the code host took the comment
   */
  private async comment(repo: string, person: Person, pr: PullRequest, command: string, pushAccess: boolean): Promise<boolean> {
    const answer = await this.github(person).send('POST', `/repos/${repo}/issues/${pr.number}/comments`, {
      body: `@dependabot ${command}`,
    });
    if (answer.status !== 201) {
      this.deps.journal.action(
        pushAccess ? 'command' : 'command without push access',
        `${repo}#${pr.number}: @dependabot ${command} (${person.login}): ${answer.status} ${answer.text.slice(0, 200)}`,
        false,
      );
      return false;
    }
    this.deps.journal.command({
      at: Date.now(),
      repo,
      number: pr.number,
      title: pr.title,
      command,
      by: person.login,
      pushAccess,
      commentId: answer.body.id,
    });
    return true;
  }

  /**
   * A push of the repository's config file by its person, saying its configs as the journal has them (with `change`
   * made to one), as the file's version can say them; or an invalid version of it. While an earlier push is being
   * applied, the push waits.
   */
  private async pushConfigFile(
    state: ConfigFileState,
    options: {
      valid: boolean;
      change?: { id: string; schedule?: string; runtime?: AutomergeRule; development?: AutomergeRule };
      note?: string;
    },
  ): Promise<void> {
    const { agenda, clock, journal } = this.deps;
    const { plan } = state;
    if (state.pending) {
      const later = new Date(clock.now().getTime() + FILE_LOOK_MS);
      agenda.add(later, `push ${plan.path} of ${plan.repo.fullName} (after the one being applied)`, () =>
        this.pushConfigFile(state, options),
      );
      return;
    }
    const configs: FileConfig[] = journal.configs
      .filter((config) => config.plan.repo === plan.repo)
      .map((config) => {
        const rules = config.automerge.at(-1) ?? { runtime: 'never' as const, development: 'never' as const };
        const change = options.change?.id === config.id ? options.change : undefined;
        return expressible(plan.path, {
          id: config.id,
          packageManager: config.plan.packageManager,
          directory: config.plan.directory,
          schedule: change?.schedule ?? config.schedule,
          runtime: change?.runtime ?? rules.runtime,
          development: change?.development ?? rules.development,
          targetBranch: config.targetBranch,
        });
      });
    const text = configFileText(plan.path, configs, { invalid: !options.valid, ...(options.note ? { note: options.note } : {}) });
    const what = `${plan.repo.fullName} ${plan.path}: ${options.valid ? 'valid' : 'invalid (an hourly schedule)'}, ${configs
      .map((c) => `config ${c.id} ${c.schedule} ${c.runtime}/${c.development}${c.targetBranch ? ` → ${c.targetBranch}` : ''}`)
      .join(', ')}`;
    const github = this.github(plan.repo.person);
    try {
      const commit = await github.putFile(plan.repo.fullName, plan.path, text, `${options.valid ? 'Update' : 'Edit'} ${plan.path}`);
      const push: ConfigFilePush = {
        day: clock.day(),
        at: Date.now(),
        repo: plan.repo.fullName,
        path: plan.path,
        valid: options.valid,
        configs: configs.map(({ id, schedule, runtime, development, targetBranch }) => ({
          id,
          schedule,
          runtime,
          development,
          targetBranch,
        })),
        commit,
      };
      state.pushes.push(push);
      state.pending = push;
      journal.action('config file', `${what} (${commit.slice(0, 7)})`);
      this.watchConfigFile(state, push, { text, again: false });
    } catch (error) {
      if (!(error instanceof Unexpected)) throw error;
      journal.action('config file', `${what}: ${error.message}`, false);
    }
  }

  /**
   * Looks every {@link FILE_LOOK_MS} whether the service applied `push` (the repository's listing shows the file, valid
   * or not as pushed, and its configs as it says them). Its person pushes it again when the code host lost the commit
   * (a SIGKILL of the launcher takes the GitHub emulator's latest writes with it), and once after
   * {@link FILE_PUSH_AGAIN_MS} without it (a fault may have lost the push's webhook); the soak gives up after
   * {@link FILE_GIVE_UP_MS}.
   */
  private watchConfigFile(state: ConfigFileState, push: ConfigFilePush, pushed: { text: string; again: boolean }): void {
    const { agenda, clock, journal } = this.deps;
    const label = `is ${push.path} of ${push.repo} applied?`;
    agenda.add(new Date(clock.now().getTime() + FILE_LOOK_MS), label, async () => {
      const github = this.github(state.plan.repo.person);
      let applied = false;
      let lost = false;
      try {
        applied = await this.fileApplied(state, push);
        if (!applied && journal.faultWindows.some((f) => f.began > push.at)) {
          lost = (await github.send('GET', `/repos/${push.repo}/git/commits/${push.commit}`)).status !== 200;
        }
      } catch (error) {
        if (!(error instanceof Unexpected) && !(error instanceof Unreachable)) throw error;
      }
      if (applied) return this.fileDone(state, push, true);
      const waited = Date.now() - push.at;
      if (waited > FILE_GIVE_UP_MS) {
        journal.note(
          `${push.path} of ${push.repo} pushed at day ${push.day.toFixed(2)} was not seen applied within ${FILE_GIVE_UP_MS / 1000} s`,
        );
        return this.fileDone(state, push, false);
      }
      if (lost || (waited > FILE_PUSH_AGAIN_MS && !pushed.again)) {
        const why = lost
          ? `the code host lost its commit ${push.commit.slice(0, 7)} in a fault`
          : `not seen applied after ${(waited / 1000).toFixed(0)} s`;
        const text = lost ? pushed.text : `${pushed.text}# pushed again\n`;
        try {
          const commit = await github.putFile(push.repo, push.path, text, `Update ${push.path} again`);
          push.commit = commit;
          journal.action('config file', `${push.repo} ${push.path} pushed again: ${why} (${commit.slice(0, 7)})`);
        } catch (error) {
          if (!(error instanceof Unexpected) && !(error instanceof Unreachable)) throw error;
        }
        return this.watchConfigFile(state, push, { text, again: pushed.again || !lost });
      }
      this.watchConfigFile(state, push, pushed);
    });
  }

  /** Whether the repository's listing shows `push` applied: the file, valid or not as pushed, and its configs as it says them. */
  private async fileApplied(state: ConfigFileState, push: ConfigFilePush): Promise<boolean> {
    const { repo } = state.plan;
    const { data, included } = await this.gateway(repo.person).repos(repo.accountId);
    const file = data.find((r) => r.id === String(repo.id))?.attributes['config-file'];
    if (!file || file.path !== push.path || file.valid !== push.valid) return false;
    if (!push.valid) return true;
    const configs = included.filter((c) => c.relationships.repo.data.id === String(repo.id));
    return (
      configs.length === push.configs.length &&
      push.configs.every(
        (want) =>
          fileConfigDiffers(
            configs.find((c) => c.id === want.id),
            want,
            push.path,
          ) === undefined,
      )
    );
  }

  /**
   * `push` is the repository's setup now (seen applied, or not seen by the end of the wait): each config it makes is
   * governed by the file, with its schedule and automerge rules (in force from the push, and settled when seen). The
   * first valid push seen applied has its person try the API on those configs at once ({@link tryTheApi}).
   */
  private async fileDone(state: ConfigFileState, push: ConfigFilePush, seen: boolean): Promise<void> {
    const { journal } = this.deps;
    if (seen) push.seenAt = Date.now();
    state.pending = undefined;
    if (seen)
      journal.log(
        `${push.path} of ${push.repo} applied (${push.valid ? 'valid' : 'invalid'}) after ${((Date.now() - push.at) / 1000).toFixed(1)} s`,
      );
    if (!push.valid) return;
    const first = !state.pushes.some((p) => p !== push && p.valid && p.seenAt !== undefined);
    for (const want of push.configs) {
      const config = journal.config(want.id);
      if (!config) continue;
      config.source = push.path;
      config.schedule = want.schedule;
      const rules = config.automerge.at(-1);
      if (rules?.runtime !== want.runtime || rules.development !== want.development) {
        config.automerge.push({
          since: push.at,
          runtime: want.runtime,
          development: want.development,
          settledAt: push.seenAt ?? Date.now(),
        });
      }
    }
    // Its person tries the API as soon as the file is seen in force, as people did: it must refuse. At once, not later
    // in the agenda: on a loaded machine the agenda runs late, and a later push being applied could hold the try past
    // the last day.
    if (seen && first) await this.tryTheApi(state);
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
