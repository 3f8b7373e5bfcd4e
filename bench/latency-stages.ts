/**
 * The time-to-pull-request benchmark's arithmetic (`latency.bench.ts`): what one pull request's latency is made of, from
 * the requests the emulators answered (when the benchmark runs them) or from the timestamps the dependency update API
 * shows (when it does not), the percentiles, and the printed tables. Every time is in epoch milliseconds, fractional.
 */

/** One request an emulator answered, as the benchmark's recording server saw it. */
export interface RecordedRequest {
  /** When the request reached the server. */
  start: number;
  /** When its answer was sent. */
  end: number;
  kind: 'code-host' | 'registry';
  method: string;
  path: string;
  status: number;
  /** `owner/name` of the repository the request is about (its path, or a GraphQL query's variables), if any. */
  repo: string | undefined;
  /** Whether the release worker's own token sent it (the users' requests, and the benchmark's own, are not its work). */
  bot: boolean;
}

/** What is known of one pull request of a round: when it was asked for, recorded as a job and seen on the code host. */
export interface PullRequestTimes {
  /** `owner/name` of its repository. */
  repo: string;
  /** When the benchmark sent the request that triggered it (the notification, or "bump now"). */
  t0: number;
  /** The notification's or the run's `created-at`: when release-svc accepted the trigger. */
  accepted: number;
  /** The run's `started-at` ("bump now": set once the run has read its files); undefined for a notification. */
  started: number | undefined;
  /** The job's `created-at` (the start of the transaction that recorded it). */
  recorded: number;
  /** When the pull request existed on the code host. */
  opened: number;
}

/** A stage's name and its milliseconds, in the order they happened. */
export type StageTimes = ReadonlyArray<readonly [stage: string, ms: number]>;

/** The stages measured from the emulators' requests (the benchmark runs them), in order. */
export const FINE_STAGES = ['queue', 'read', 'registry', 'decide', 'hand-off', 'write'] as const;

/** What each stage covers, for the printed legend. */
export const STAGE_LEGEND: Record<string, string> = {
  queue: "trigger sent → the worker's first code-host read of the repository (HTTP, outbox relays, bus, checkpoint, planning)",
  read: 'code-host requests of the scan or run (their time on the wire and in the emulator)',
  registry: "registry requests while the repository's scan or run was under way (not overlapping its reads)",
  decide: "the rest of the scan or run until its job's transaction began (extract, decide, a batch's slowest config)",
  'hand-off': "job recorded → the deliver stage's first code-host request (commit, outbox relay, bus, claim)",
  write: 'deliver: the first code-host request of the pull request → the pull request exists (reads, registry, writes)',
  accept: "trigger sent → the notification's or run's created-at (HTTP through the gateway, the API's transaction)",
  'queue+read+registry+decide': "notification created-at → job created-at (relays, checkpoint, scan: one run's timestamps say no more)",
  'queue+read': "run created-at → run started-at (relay, bus, the run's code-host reads)",
  'registry+decide': 'run started-at → job created-at',
  'hand-off+write': 'job created-at → the pull request seen on the code host (polled)',
};

/** The length of the union of `intervals` within `[from, to]`. */
export function coveredWithin(intervals: ReadonlyArray<readonly [number, number]>, from: number, to: number): number {
  const clipped = intervals
    .map(([a, b]) => [Math.max(a, from), Math.min(b, to)] as const)
    .filter(([a, b]) => b > a)
    .sort((x, y) => x[0] - y[0]);
  let total = 0;
  let end = Number.NEGATIVE_INFINITY;
  let start = Number.NEGATIVE_INFINITY;
  for (const [a, b] of clipped) {
    if (a > end) {
      if (end > start) total += end - start;
      start = a;
      end = b;
    } else end = Math.max(end, b);
  }
  if (end > start) total += end - start;
  return total;
}

/**
 * The {@link FINE_STAGES} of one pull request from the requests the emulators answered: the worker's requests about its
 * repository before the job was recorded are its scan (or run), but for those about pull requests and issues (the
 * maintenance of open pull requests), those after it its delivery.
 * - queue: `t0` → the first of the scan's code-host requests;
 * - read: the time covered by the scan's code-host requests;
 * - registry: the time covered by registry requests during the scan and not by its code-host requests (registry
 *   requests name a package, not a repository: with many repositories at once, every scan under way shares them);
 * - decide: the rest of the scan, until the job's transaction began;
 * - hand-off: job recorded → the first code-host request of the delivery;
 * - write: that request → the pull request exists.
 * The stages add up to `opened − t0`.
 */
export function fineStages(pr: PullRequestTimes, requests: readonly RecordedRequest[]): StageTimes {
  const ours = requests.filter((r) => r.kind === 'code-host' && r.bot && r.repo === pr.repo && r.start >= pr.t0 && r.start <= pr.opened);
  const recorded = Math.min(Math.max(pr.recorded, pr.t0), pr.opened);
  // The maintenance of open pull requests (a loop, and webhooks) may look at the repository's pull requests and issues
  // at any moment: a scan or run reads files, never those.
  const scan = ours.filter((r) => r.start < recorded && !/^\/repos\/[^/]+\/[^/]+\/(pulls|issues)(\/|$)/.test(r.path));
  const scanStart = scan.length > 0 ? Math.min(...scan.map((r) => r.start)) : recorded;
  const reads = scan.map((r) => [r.start, r.end] as const);
  const read = coveredWithin(reads, scanStart, recorded);
  const registryIntervals = requests.filter((r) => r.kind === 'registry').map((r) => [r.start, r.end] as const);
  const registry = coveredWithin([...reads, ...registryIntervals], scanStart, recorded) - read;
  const decide = Math.max(0, recorded - scanStart - read - registry);
  const delivery = ours.filter((r) => r.start >= recorded);
  const deliverStart = delivery.length > 0 ? Math.min(...delivery.map((r) => r.start)) : pr.opened;
  return [
    ['queue', scanStart - pr.t0],
    ['read', read],
    ['registry', registry],
    ['decide', decide],
    ['hand-off', deliverStart - recorded],
    ['write', pr.opened - deliverStart],
  ];
}

/**
 * The stages of one pull request from the API's timestamps alone (no emulator of the benchmark's to time requests at):
 * accept (`t0` → created-at), then for a run `queue+read` (→ started-at) and `registry+decide` (→ the job's
 * created-at), for a notification `queue+read+registry+decide` (→ the job's created-at), then `hand-off+write`.
 */
export function coarseStages(pr: PullRequestTimes): StageTimes {
  const accepted = Math.max(pr.accepted, pr.t0);
  const recorded = Math.max(pr.recorded, accepted);
  const scan: StageTimes =
    pr.started === undefined
      ? [['queue+read+registry+decide', recorded - accepted]]
      : [
          ['queue+read', Math.max(pr.started, accepted) - accepted],
          ['registry+decide', recorded - Math.max(pr.started, accepted)],
        ];
  return [['accept', accepted - pr.t0], ...scan, ['hand-off+write', pr.opened - recorded]];
}

/** The nearest-rank percentile `p` (0 < p ≤ 1) of `values`; NaN when there are none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length, Math.max(1, Math.ceil(p * sorted.length))) - 1] ?? Number.NaN;
}

/** A scenario's measurements: each pull request's latency and stages, and what else the benchmark counted. */
export interface ScenarioResult {
  name: string;
  /** Each pull request's `opened − t0`, ms. */
  latencies: number[];
  stages: StageTimes[];
  /** Each round's time until its last pull request, ms. */
  rounds: number[];
  /** The worker's code-host requests per pull request, when counted. */
  codeHostPerPullRequest?: number | undefined;
  /** Registry requests per pull request, when counted. */
  registryPerPullRequest?: number | undefined;
  /** The launcher's CPU seconds during the scenario, when known. */
  cpuSeconds?: number | undefined;
  /** Problems seen (a job not open, a round that timed out). */
  problems: string[];
}

const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(0) : '–');

/** The summary table: per scenario the pull requests, p50, p99, mean and max latency, the rounds' times, the requests. */
export function summaryTable(results: readonly ScenarioResult[]): string {
  const header = ['scenario', 'PRs', 'p50 ms', 'p99 ms', 'mean ms', 'max ms', 'round p50 ms', 'GH req/PR', 'reg req/PR', 'CPU s'];
  const rows = results.map((r) => {
    const mean = r.latencies.reduce((a, b) => a + b, 0) / Math.max(1, r.latencies.length);
    return [
      r.name,
      String(r.latencies.length),
      ms(percentile(r.latencies, 0.5)),
      ms(percentile(r.latencies, 0.99)),
      ms(mean),
      ms(Math.max(...r.latencies)),
      ms(percentile(r.rounds, 0.5)),
      r.codeHostPerPullRequest === undefined ? '–' : r.codeHostPerPullRequest.toFixed(1),
      r.registryPerPullRequest === undefined ? '–' : r.registryPerPullRequest.toFixed(1),
      r.cpuSeconds === undefined || Number.isNaN(r.cpuSeconds) ? '–' : r.cpuSeconds.toFixed(1),
    ];
  });
  return table(header, rows);
}

/**
 * The stages table of a scenario: per stage its p50 and mean over the pull requests (ms) and its share of the mean
 * latency; the stages in the order they happen.
 */
export function stagesTable(result: ScenarioResult): string {
  const names: string[] = [];
  for (const stages of result.stages) for (const [name] of stages) if (!names.includes(name)) names.push(name);
  const meanTotal = result.latencies.reduce((a, b) => a + b, 0) / Math.max(1, result.latencies.length);
  const rows = names.map((name) => {
    const values = result.stages.map((stages) => stages.find(([n]) => n === name)?.[1] ?? 0);
    const mean = values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
    return [name, ms(percentile(values, 0.5)), ms(mean), `${((100 * mean) / meanTotal).toFixed(0)} %`];
  });
  return table([`stages of ${result.name}`, 'p50 ms', 'mean ms', 'share'], rows);
}

/** The stage whose mean is the largest share of `result`'s latency, with that share. */
export function dominantStage(result: ScenarioResult): { stage: string; share: number } | undefined {
  const totals = new Map<string, number>();
  for (const stages of result.stages) for (const [name, value] of stages) totals.set(name, (totals.get(name) ?? 0) + value);
  const all = result.latencies.reduce((a, b) => a + b, 0);
  const [stage, value] = [...totals].sort((a, b) => b[1] - a[1])[0] ?? [];
  return stage === undefined || value === undefined || all <= 0 ? undefined : { stage, share: value / all };
}

/** A plain text table: the first column left-aligned, the others right-aligned. */
function table(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('  ');
  return [line(header), ...rows.map(line)].join('\n');
}
