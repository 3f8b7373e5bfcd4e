import type { RequestListener } from 'node:http';
import { HttpProblem, type Logger, REQUEST_ID_HEADER, requestIdOf, writeError } from '@switchyard/service-kit';
import { Router } from 'express';
import type { GatewayMetrics } from '../metrics/gateway-metrics.service.ts';

/** `GET /metrics` on the gateway's own app: `metrics` in Prometheus' text format (when `METRICS_PORT` is unset). */
export function metricsRouter(metrics: GatewayMetrics): Router {
  const router = Router();
  router.get('/metrics', async (_req, res) => {
    res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
  return router;
}

/**
 * The handler of `METRICS_PORT`: `GET`/`HEAD /metrics` answers `metrics` in Prometheus' text format with
 * `Cache-Control: no-store`; any other path is 404 and any other method 405 (`Allow: GET, HEAD`), as problem+json.
 * A failure to collect the metrics is logged on `logger` and answered 500.
 */
export function metricsPortHandler(metrics: GatewayMetrics, logger: Logger): RequestListener {
  return (req, res) => {
    const requestId = requestIdOf(req);
    const path = (req.url ?? '/').split('?', 1)[0];
    if (path !== '/metrics') {
      writeError(req, res, new HttpProblem(404, `No route for ${req.method} ${path}`), { requestId });
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      const allow = { allow: 'GET, HEAD' };
      writeError(req, res, new HttpProblem(405, `${req.method} is not supported here; use GET`, { headers: allow }), { requestId });
      return;
    }
    metrics.registry.metrics().then(
      (text) => {
        res.writeHead(200, {
          'content-type': metrics.registry.contentType,
          'content-length': Buffer.byteLength(text),
          'cache-control': 'no-store',
          [REQUEST_ID_HEADER]: requestId,
        });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      (error: unknown) => writeError(req, res, error, { requestId, log: logger }),
    );
  };
}
