import type { Observations } from './invariants.ts';
import type { ActionRecord, ReleaseRecord } from './journal.ts';
import type { FaultRecord } from './system.ts';

/** Everything a soak run found and did, as `pnpm soak` prints it (and `report.json` holds it). */
export interface SoakReport {
  system: 'launcher' | 'compose';
  seed: number;
  days: number;
  /** The simulated time: where it began and ended, and its rate (simulated per real ms). */
  clock: { start: string; end: string; rate: number; daySeconds: number };
  releases: { total: number; byKind: Record<string, number>; byPackageManager: Record<string, number>; list: ReleaseRecord[] };
  actions: { byKind: Record<string, { done: number; refused: number }>; list: ActionRecord[] };
  faults: FaultRecord[];
  /** Null when the run did not get as far as reading the system. */
  observations: Observations | null;
  /** Real seconds: the whole run, and its phases. */
  seconds: { total: number; setup: number; days: number; settle: number; check: number };
  /** What went wrong beside the invariants (the system exited on its own, a phase failed), each making the run fail. */
  problems: string[];
  notes: string[];
  logDir: string;
}

/** Whether the run passed: every invariant 0 and no problem. */
export function passed(report: SoakReport): boolean {
  return report.problems.length === 0 && report.observations !== null && report.observations.invariants.every((i) => i.count === 0);
}

const countsText = (counts: Record<string, number>) =>
  Object.entries(counts)
    .sort(([, a], [, b]) => b - a)
    .map(([key, n]) => `${key} ${n}`)
    .join(', ');

const duration = (seconds: number) =>
  seconds >= 60 ? `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s` : `${seconds.toFixed(1)} s`;

/**
 * The report as text: the invariant counts first (goal 0), then what happened (releases, people's actions, faults,
 * runs, jobs, pull requests, time), the findings of every invariant above 0, the problems and the notes.
 * @param findingsPerInvariant at most this many findings are printed per invariant (report.json has them all)
 */
export function formatReport(report: SoakReport, findingsPerInvariant = 20): string {
  const lines: string[] = [];
  const { clock } = report;
  lines.push(
    `soak: ${report.days} simulated days (${clock.start.slice(0, 10)} → ${clock.end.slice(0, 16).replace('T', ' ')}) on the ${report.system}, seed ${report.seed}, ${clock.rate}× real time (a day in ${clock.daySeconds} s)`,
    '',
    'Invariants (goal 0)',
  );
  const observations = report.observations;
  if (observations) {
    observations.invariants.forEach((invariant, i) => {
      lines.push(`  ${String(i + 1).padStart(2, ' ')}. ${invariant.name.padEnd(62, ' ')} ${invariant.count}`);
    });
  } else {
    lines.push('  not read: the run stopped before (see the problems below)');
  }
  lines.push('', 'What happened');
  lines.push(`  releases       ${report.releases.total}: ${countsText(report.releases.byKind)}`);
  lines.push(
    `                 by package manager (${Object.keys(report.releases.byPackageManager).length}): ${countsText(report.releases.byPackageManager)}`,
  );
  const actions = Object.entries(report.actions.byKind)
    .map(([kind, { done, refused }]) => `${kind} ${done}${refused ? ` (+${refused} refused)` : ''}`)
    .join(', ');
  lines.push(`  people         ${actions || 'none'}`);
  lines.push(
    `  faults         ${
      report.faults.map((f) => `${f.kind} at day ${f.atDay.toFixed(2)} (back in ${f.downSeconds.toFixed(1)} s)`).join('; ') || 'none'
    }`,
  );
  if (observations) {
    const { runs, jobsByStatus, pullRequests: pr } = observations;
    lines.push(
      `  runs           ${runs.total} (${runs.duringDays} during the days, the rest while settling on the running clock): ${countsText(runs.byTrigger)}; ${countsText(runs.byStatus)}`,
    );
    lines.push(`  jobs           ${Object.values(jobsByStatus).reduce((a, b) => a + b, 0)}: ${countsText(jobsByStatus)}`);
    lines.push(
      `  pull requests  ${pr.opened} opened: merged by a person ${pr.mergedByPerson}, merged automatically ${pr.mergedAutomatically}, closed unmerged ${pr.closedUnmerged}, open ${pr.open}`,
    );
    const c = observations.commands;
    lines.push(
      `  commands       ${c.given} given (${countsText(c.byCommand) || 'none'}; ${c.withoutPushAccess} without push access): answered ${c.answered} (carried out ${c.carriedOut}, declined ${c.declined}, refused for want of push access ${c.refused}), unanswered ${c.unanswered}${c.lost ? `, lost with the code host's state ${c.lost}` : ''}`,
    );
    const f = observations.configFiles;
    lines.push(
      `  config files   ${f.pushes} pushes (${f.invalid} invalid) on ${f.repos.join(', ') || 'none'}; API writes to their configs ${f.apiWrites}, refused with 409 ${f.apiWritesRefused}`,
    );
  }
  const s = report.seconds;
  lines.push(
    `  time           ${duration(s.total)}: start and setup ${duration(s.setup)}, the days ${duration(s.days)}, settling ${duration(s.settle)}, checks ${duration(s.check)}`,
  );
  lines.push(`  logs           ${report.logDir}/ (soak.log, launcher or compose logs, report.json)`);
  if (observations) {
    for (const [i, invariant] of observations.invariants.entries()) {
      if (invariant.count === 0) continue;
      lines.push('', `Invariant ${i + 1}: ${invariant.name} (${invariant.count})`);
      for (const finding of invariant.findings.slice(0, findingsPerInvariant)) lines.push(`  - ${finding}`);
      if (invariant.findings.length > findingsPerInvariant)
        lines.push(`  … ${invariant.findings.length - findingsPerInvariant} more in report.json`);
    }
  }
  if (report.problems.length > 0) {
    lines.push('', 'Problems');
    for (const problem of report.problems) lines.push(`  - ${problem}`);
  }
  const notes = [...report.notes, ...(observations?.notes ?? [])];
  if (notes.length > 0) {
    lines.push('', 'Notes');
    for (const note of notes.slice(0, 40)) lines.push(`  - ${note}`);
    if (notes.length > 40) lines.push(`  … ${notes.length - 40} more in report.json`);
  }
  lines.push('', passed(report) ? 'OK: every invariant is 0' : 'FAILED: an invariant is not 0, or the run had a problem');
  return `${lines.join('\n')}\n`;
}
