import { describe, expect, inject, it } from 'vitest';
import { formatChaosReport, runReleaseChaos } from '../../bench/release-chaos.ts';

/**
 * The release pipeline's chaos run (`pnpm chaos:release`, bench/release-chaos.ts) at CI size: 50 notifications
 * through the gateway over 15 s, on 50 update configs in 5 organisations, with two workers; the run's own RabbitMQ
 * node is restarted once (down 2 s) and a worker is SIGKILLed and replaced once while they flow. Every job the
 * notifications call for must exist exactly once, every notification must be done, and nothing may be left in the
 * outbox, the parking or the retry queues. Needs `rabbitmq-server` installed (it is never the machine's broker
 * that is restarted).
 */
describe('release pipeline under a broker restart and a worker kill', () => {
  it('loses nothing and duplicates nothing', { timeout: 300_000 }, async ({ annotate }) => {
    const lines: string[] = [];
    const report = await runReleaseChaos({
      configs: 50,
      orgs: 5,
      notifications: 50,
      workers: 2,
      brokerRestarts: 1,
      workerKills: 1,
      sendSeconds: 15,
      downSeconds: 2,
      quietTimeoutSeconds: 120,
      databaseUrl: inject('databaseUrl'),
      log: (line) => lines.push(line),
    });
    const printed = formatChaosReport(report);
    await annotate(printed);

    expect(report.problems, `${printed}\n${lines.join('\n')}`).toEqual([]);
    expect(report.lost).toBe(0);
    expect(report.duplicated).toBe(0);
    expect(report.unexpected).toBe(0);
    expect(report.accepted).toBe(50);
    expect(report.notificationsDone).toBe(50);
    expect(report.expectedJobs).toBeGreaterThan(0);
    expect(report.jobsFound).toBe(report.expectedJobs);
    expect(report.jobEvents).toMatchObject({ distinct: report.expectedJobs, missing: 0 });
    expect(report).toMatchObject({ wrongResults: 0, unpublished: 0, parked: 0, retrying: 0 });
    // The chaos really happened, in the middle of the work: notifications were accepted while the broker was away,
    // and the worker died with notifications still unfinished.
    expect(report.events.map((e) => e.kind)).toEqual(['broker restart', 'worker kill']);
    expect(report.sentDuringOutage).toBeGreaterThan(0);
    expect(report.events.find((e) => e.kind === 'worker kill')?.unfinished).toBeGreaterThan(0);
  });
});
