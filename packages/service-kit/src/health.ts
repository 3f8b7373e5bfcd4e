import type { Express } from 'express';
import { problemBody, writeProblem } from './problem.ts';

/**
 * One dependency that `/readyz` checks: `check` resolves when it is usable and throws when it is not. A check with
 * `required: false` is non-fatal: its failure is reported as `degraded` and does not make the service unready (a
 * dependency the service can do without for a while, e.g. a broker behind a transactional outbox).
 */
export interface ReadinessCheck {
  name: string;
  check: () => Promise<void>;
  /** Whether a failure makes the service unready (default true); when false, a failure shows as `degraded`. */
  required?: boolean;
}

/** What `/readyz` reports for a non-required check that failed. */
export const DEGRADED = 'degraded';

/** How long one readiness check may take before it counts as failed, in milliseconds. */
export const READINESS_TIMEOUT_MS = 2_000;

/**
 * Runs every check concurrently, each bounded by {@link READINESS_TIMEOUT_MS}.
 * @returns `{ ready, checks }` where `checks` maps each name to `ok`, the failure's message (a required check) or
 * `degraded` (a failed check with `required: false`, which leaves `ready` true)
 */
export async function runReadinessChecks(checks: readonly ReadinessCheck[]): Promise<{ ready: boolean; checks: Record<string, string> }> {
  const results = await Promise.all(
    checks.map(async ({ name, check, required = true }) => {
      try {
        await Promise.race([
          check(),
          new Promise((_, reject) => setTimeout(() => reject(new Error('timed out')), READINESS_TIMEOUT_MS).unref()),
        ]);
        return { name, state: 'ok', fatal: false };
      } catch (error) {
        if (!required) return { name, state: DEGRADED, fatal: false };
        return { name, state: error instanceof Error ? error.message : String(error), fatal: true };
      }
    }),
  );
  return { ready: results.every((r) => !r.fatal), checks: Object.fromEntries(results.map((r) => [r.name, r.state])) };
}

/**
 * Mounts `GET /healthz` (200 `{"status":"ok"}` while the process runs) and `GET /readyz`
 * (200 `{"status":"ready","checks":{...}}` when every required check passes, non-required ones that failed showing
 * `degraded`, e.g. `{"status":"ready","checks":{"database":"ok","bus":"degraded"}}`; else 503 problem+json with the
 * same `checks`).
 */
export function mountHealthRoutes(app: Express, checks: readonly ReadinessCheck[]): void {
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (req, res) => {
    const result = await runReadinessChecks(checks);
    if (result.ready) {
      res.json({ status: 'ready', checks: result.checks });
      return;
    }
    writeProblem(res, {
      ...problemBody(503, 'Not ready: a dependency is unavailable', { instance: req.originalUrl }),
      checks: result.checks,
    } as ReturnType<typeof problemBody>);
  });
}
