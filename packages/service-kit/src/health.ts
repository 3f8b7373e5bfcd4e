import type { Express } from 'express';
import { problemBody, writeProblem } from './problem.ts';

/** One dependency that `/readyz` checks: `check` resolves when it is usable and throws when it is not. */
export interface ReadinessCheck {
  name: string;
  check: () => Promise<void>;
}

/** How long one readiness check may take before it counts as failed, in milliseconds. */
export const READINESS_TIMEOUT_MS = 2_000;

/**
 * Runs every check concurrently, each bounded by {@link READINESS_TIMEOUT_MS}.
 * @returns `{ ready, checks }` where `checks` maps each name to `ok` or the failure's message
 */
export async function runReadinessChecks(checks: readonly ReadinessCheck[]): Promise<{ ready: boolean; checks: Record<string, string> }> {
  const results = await Promise.all(
    checks.map(async ({ name, check }) => {
      try {
        await Promise.race([
          check(),
          new Promise((_, reject) => setTimeout(() => reject(new Error('timed out')), READINESS_TIMEOUT_MS).unref()),
        ]);
        return [name, 'ok'] as const;
      } catch (error) {
        return [name, error instanceof Error ? error.message : String(error)] as const;
      }
    }),
  );
  return { ready: results.every(([, state]) => state === 'ok'), checks: Object.fromEntries(results) };
}

/**
 * Mounts `GET /healthz` (200 `{"status":"ok"}` while the process runs) and `GET /readyz`
 * (200 `{"status":"ready","checks":{...}}` when every check passes, else 503 problem+json with the same `checks`).
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
