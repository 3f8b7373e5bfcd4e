import { appendFileSync } from 'node:fs';
import type { AutomergeRule, PackageManager } from '@switchyard/contracts';
import { type SimulatedClock, simulatedLabel } from './clock.ts';
import type { FaultRecord } from './system.ts';
import type { ConfigFilePlan, ConfigPlan, Person } from './world.ts';

/**
 * The soak's own record of what it did and when: every config and account setting it made (with the real time each
 * change was answered, so an automerge can be judged by the rule in force then), every release, every person's action
 * and every fault, with a line per event in `soak.log`. The invariants and the report read it.
 */

/**
 * The automerge rules of a config from `since` (real epoch ms, when the change that set them was sent: the worker may
 * hold them before the answer comes back, and holds the earlier ones until config-svc's event reaches it).
 */
export interface AutomergeEpoch {
  since: number;
  runtime: AutomergeRule;
  development: AutomergeRule;
  /**
   * When the soak saw the rules in force (real epoch ms), for rules a config file set: the worker holds the earlier ones
   * until the file was read and applied, which may take longer than a change through the API.
   */
  settledAt?: number;
}

/** A config the soak made, as it stands now, with the history of its automerge rules. */
export interface ConfigState {
  plan: ConfigPlan;
  id: string;
  person: Person;
  schedule: string;
  /** null: the repository's default branch. */
  targetBranch: string | null;
  automerge: AutomergeEpoch[];
  /** Where the config comes from: `api`, or the path of the config file that governs it since the soak saw it applied. */
  source: string;
}

/** A `@dependabot` command a person commented on one of the bot's pull requests. */
export interface CommandRecord {
  day: number;
  /** Real epoch ms the code host took the comment. */
  at: number;
  repo: string;
  number: number;
  /** The pull request's title when the command was given. */
  title: string;
  /** What follows `@dependabot` (`rebase`, `squash and merge`…). */
  command: string;
  by: string;
  /** Whether the person has push access to the repository (without it the command must be refused). */
  pushAccess: boolean;
  /** The comment's id on the code host. */
  commentId: number;
}

/** A config file a person pushed to a repository's default branch. */
export interface ConfigFilePush {
  day: number;
  /** Real epoch ms the code host took the push. */
  at: number;
  repo: string;
  path: string;
  valid: boolean;
  /** The configs the file makes, by the soak's config ids (for an invalid file: those it would make). */
  configs: FileConfigState[];
  /** The commit that holds it. */
  commit: string;
  /** When the soak saw the service apply it (real epoch ms); undefined until then, or when it never did. */
  seenAt?: number;
}

/** One config as a config file says it. */
export interface FileConfigState {
  id: string;
  schedule: string;
  runtime: AutomergeRule;
  development: AutomergeRule;
  targetBranch: string | null;
}

/** A repository that has a config file: its plan, every push of it, and the push being applied. */
export interface ConfigFileState {
  plan: ConfigFilePlan;
  pushes: ConfigFilePush[];
  /** The push the soak waits to see applied (its repository's configs are left alone meanwhile). */
  pending?: ConfigFilePush;
}

/** A write through the API to a config a config file governs, and what the API answered (409 expected). */
export interface FileGovernedWrite {
  day: number;
  configId: string;
  what: string;
  status: number;
  answer: string;
}

/** A fault as the soak played it, in real epoch ms: when it began and when the system answered again. */
export interface FaultWindow {
  kind: string;
  began: number;
  back: number;
}

/** A release the soak made (a version published, or one yanked). */
export interface ReleaseRecord {
  day: number;
  /** `patch`, `minor`, `major`, `pre-release`, `commit` (a branch head) or `yank`. */
  kind: string;
  packageKey: string;
  /** The package manager whose configs it concerns (`gradle` and `maven` share Maven's packages: the first config's). */
  packageManager: PackageManager;
  version: string;
}

/** One action of a person (or of the soak on their behalf), its outcome in words. */
export interface ActionRecord {
  day: number;
  kind: string;
  detail: string;
  /** False when the code host or the API refused it (a merge of a conflicting pull request…). */
  done: boolean;
}

/** The journal of one soak run. */
export class Journal {
  readonly configs: ConfigState[] = [];
  /** Each account's settings as the soak last set them (or found them). */
  readonly accountSettings = new Map<string, Record<string, unknown>>();
  readonly releases: ReleaseRecord[] = [];
  readonly actions: ActionRecord[] = [];
  readonly faults: FaultRecord[] = [];
  /** Things the soak saw that are not invariants but worth reading (a refused action, a slow settle…). */
  readonly notes: string[] = [];
  /** Every `@dependabot` command given, in order. */
  readonly commands: CommandRecord[] = [];
  /** The repositories with a config file, by full name. */
  readonly configFiles = new Map<string, ConfigFileState>();
  /** Every write through the API to a config its repository's config file governs. */
  readonly fileGovernedWrites: FileGovernedWrite[] = [];
  /** When each fault played, in real time. */
  readonly faultWindows: FaultWindow[] = [];
  private readonly clock: SimulatedClock;
  private readonly logFile: string;
  private readonly echo: (line: string) => void;

  /** A journal whose lines go to `logFile` (appended) and to `echo`, stamped with `clock`'s time. */
  constructor(clock: SimulatedClock, logFile: string, echo: (line: string) => void) {
    this.clock = clock;
    this.logFile = logFile;
    this.echo = echo;
  }

  /** Writes `line` to `soak.log` with the simulated time (and echoes it when the run is verbose). */
  log(line: string): void {
    const text = `${new Date().toISOString()} [${simulatedLabel(this.clock)}] ${line}`;
    appendFileSync(this.logFile, `${text}\n`);
    this.echo(text);
  }

  /** Records a note (also logged). */
  note(line: string): void {
    this.notes.push(line);
    this.log(`note: ${line}`);
  }

  /** Records a person's action (also logged). */
  action(kind: string, detail: string, done = true): void {
    this.actions.push({ day: this.clock.day(), kind, detail, done });
    this.log(`${done ? '' : 'refused: '}${kind}: ${detail}`);
  }

  /** Records a release (also logged). */
  release(record: Omit<ReleaseRecord, 'day'>): void {
    this.releases.push({ day: this.clock.day(), ...record });
    this.log(`release ${record.kind}: ${record.packageKey} ${record.version}`);
  }

  /** Records a command given (also logged, as an action). */
  command(record: Omit<CommandRecord, 'day'>): void {
    this.commands.push({ day: this.clock.day(), ...record });
    this.action(
      record.pushAccess ? 'command' : 'command without push access',
      `${record.repo}#${record.number} "${record.title}": @dependabot ${record.command} (${record.by}, comment ${record.commentId})`,
    );
  }

  /** The config the soak knows by `id`. */
  config(id: string): ConfigState | undefined {
    return this.configs.find((c) => c.id === id);
  }

  /**
   * The config's automerge rules in force at `at` (real epoch ms) and in the `graceMs` before it (events are on their
   * way), and the earlier rules of any that were still being applied then (a config file's, until the soak saw them).
   */
  automergeAround(config: ConfigState, at: number, graceMs: number): AutomergeEpoch[] {
    const inForce = (t: number) => config.automerge.findLast((epoch) => epoch.since <= t) ?? config.automerge[0];
    const epochs = new Set<AutomergeEpoch>();
    for (const epoch of config.automerge) if (epoch.since > at - graceMs && epoch.since <= at) epochs.add(epoch);
    config.automerge.forEach((epoch, i) => {
      const previous = config.automerge[i - 1];
      if (previous && epoch.since <= at && (epoch.settledAt ?? epoch.since) > at - graceMs) epochs.add(previous);
    });
    const atStart = inForce(at - graceMs);
    if (atStart) epochs.add(atStart);
    const atEnd = inForce(at);
    if (atEnd) epochs.add(atEnd);
    return [...epochs];
  }

  /** How many actions of each kind were done (and refused). */
  actionCounts(): Record<string, { done: number; refused: number }> {
    const counts: Record<string, { done: number; refused: number }> = {};
    for (const action of this.actions) {
      const entry = counts[action.kind] ?? { done: 0, refused: 0 };
      counts[action.kind] = entry;
      if (action.done) entry.done += 1;
      else entry.refused += 1;
    }
    return counts;
  }
}
