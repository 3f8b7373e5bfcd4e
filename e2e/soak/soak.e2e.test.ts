import { describe, expect, it } from 'vitest';
import { formatReport } from './report.ts';
import { runSoak } from './soak.ts';

/**
 * `pnpm soak` at CI size: the one-process launcher through two simulated days (a day in 10 s) while new versions of
 * every package manager's dependencies are released, people merge, close, reopen and push, give `@dependabot`
 * commands (a reader's refused) and push config files (one invalid for a while), configs and settings change, and the
 * launcher is restarted twice and SIGKILLed once; then, once it has settled, every invariant must be 0 and each kind of
 * thing must have happened. The seed is fixed (SOAK_SEED replays another), so the plan is the same on
 * every run; the system's own timing is not.
 *
 * Budget: about 20 s of start and setup, 25 s of days, three restarts of a few seconds each and 20 s of settling on an
 * idle two-core machine, several times that on a loaded one. A job whose message a restart lost (the launcher's
 * in-process bus keeps nothing) is taken up as the worker starts again; one whose message was lost otherwise makes
 * settling wait for the worker's 10-minute stall sweep.
 */
const BUDGET_MS = 25 * 60_000;

/** The plan of the CI run (chosen so that two days hold merges, closes, reopens and pushes). */
const SEED = Number(process.env.SOAK_SEED ?? 20_261_130);

describe('the dependency-update bot left running: two simulated days on the launcher', () => {
  it('keeps pull requests right through releases, people and restarts', { timeout: BUDGET_MS }, async ({ annotate }) => {
    const report = await runSoak({
      days: 2,
      seed: SEED,
      compose: false,
      reportDir: new URL('../../reports/soak/e2e', import.meta.url).pathname,
    });
    const printed = formatReport(report);
    await annotate(printed);

    expect(report.problems, printed).toEqual([]);
    const observations = report.observations;
    expect(observations, printed).not.toBeNull();
    if (!observations) return;
    for (const invariant of observations.invariants) {
      expect(invariant.count, `${invariant.name}:\n${invariant.findings.join('\n')}\n\n${printed}`).toBe(0);
    }

    // Things happened: releases of every package manager, runs, people's merges and closes, and the faults, survived.
    expect(Object.keys(report.releases.byPackageManager).sort(), printed).toHaveLength(16);
    expect(observations.runs.duringDays, printed).toBeGreaterThan(0);
    expect(observations.pullRequests.opened, printed).toBeGreaterThan(10);
    expect(observations.pullRequests.mergedByPerson, printed).toBeGreaterThanOrEqual(1);
    expect(observations.pullRequests.mergedAutomatically, printed).toBeGreaterThanOrEqual(1);
    expect(observations.pullRequests.closedUnmerged, printed).toBeGreaterThanOrEqual(1);
    const done = (kind: string) => report.actions.byKind[kind]?.done ?? 0;
    expect(done('merge'), printed).toBeGreaterThanOrEqual(1);
    expect(done('close unmerged'), printed).toBeGreaterThanOrEqual(1);
    expect(done('push to a target branch'), printed).toBeGreaterThanOrEqual(1);
    // People steered the service on the code host: commands (one refused for want of push access), config files (one
    // invalid for a while), and API writes to their configs, refused.
    expect(observations.commands.answered, printed).toBeGreaterThanOrEqual(3);
    expect(observations.commands.refused, printed).toBeGreaterThanOrEqual(1);
    expect(observations.configFiles.pushes, printed).toBeGreaterThanOrEqual(4);
    expect(observations.configFiles.invalid, printed).toBeGreaterThanOrEqual(1);
    expect(observations.configFiles.apiWritesRefused, printed).toBeGreaterThanOrEqual(2);
    expect(
      report.faults.map((f) => f.kind),
      printed,
    ).toEqual(['launcher restart', 'launcher kill', 'launcher restart']);
  });
});
