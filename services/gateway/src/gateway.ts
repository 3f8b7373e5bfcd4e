import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import {
  createServiceApp,
  HttpProblem,
  type Logger,
  REQUEST_ID_HEADER,
  type ReadinessCheck,
  requestIdOf,
  ServiceUnavailable,
  writeError,
} from '@switchyard/service-kit';
import type { GatewayConfig } from './config.ts';
import { dashboardRouter } from './http/dashboard.routes.ts';
import { docsRouter } from './http/docs.routes.ts';
import { createGatewayMetrics, type GatewayMetrics } from './metrics.ts';
import { Upstream } from './proxy/forwarder.ts';
import { prepareUpstreamRequest } from './proxy/headers.ts';
import { routeFor, type ServiceName, unsafeTarget } from './routing.ts';

/** A gateway request handler and what it holds open. */
export interface Gateway {
  handler: RequestListener;
  /**
   * Serves `GET /metrics` and nothing else (404 problem+json): the handler of `METRICS_PORT`. With `METRICS_PORT`
   * set, `handler` answers `/metrics` with 404; unset, `handler` serves it too.
   */
  metricsHandler: RequestListener;
  metrics: GatewayMetrics;
  /** Closes the upstream connection pools. */
  close: () => Promise<void>;
}

const upstreamUrlVariable: Record<ServiceName, keyof GatewayConfig> = {
  'catalog-svc': 'CATALOG_SVC_URL',
  'config-svc': 'CONFIG_SVC_URL',
  'release-svc': 'RELEASE_SVC_URL',
  'peer-svc': 'PEER_SVC_URL',
};

/**
 * Builds the gateway: requests whose path belongs to a service (see `routing.ts`) are forwarded on a
 * fast path that bypasses express; everything else (`/healthz`, `/readyz`, `/metrics` unless
 * `METRICS_PORT` moves it, `/openapi.json`, `/docs`, the dashboard at `/ui` from `DASHBOARD_DIR`, unknown paths)
 * goes to the gateway's own express app, whose errors are problem+json. The gateway's errors on a forwarded path
 * (400, 413, 502, 503 for a service without a configured URL, 504) are written in the error format of the API the
 * route belongs to.
 */
export function createGateway(config: GatewayConfig, logger: Logger): Gateway {
  const upstreams = new Map<ServiceName, Upstream>();
  for (const [service, variable] of Object.entries(upstreamUrlVariable) as [ServiceName, keyof GatewayConfig][]) {
    const url = config[variable];
    if (typeof url !== 'string') continue;
    upstreams.set(
      service,
      new Upstream(
        service,
        {
          url,
          connections: config.UPSTREAM_CONNECTIONS,
          timeoutMs: config.UPSTREAM_TIMEOUT_MS,
          connectTimeoutMs: config.UPSTREAM_CONNECT_TIMEOUT_MS,
        },
        logger,
      ),
    );
  }
  const metrics = createGatewayMetrics();
  // `/readyz` names each service and a coarse state, never an upstream's address (see `Upstream.ready`).
  const readiness: ReadinessCheck[] = [...upstreams.values()].map((upstream) => ({
    name: upstream.name,
    check: () => upstream.ready('/readyz'),
  }));
  const metricsOnOwnPort = config.METRICS_PORT !== undefined;
  const ownApp = createServiceApp({
    logger,
    readiness,
    routes: (app) => {
      if (!metricsOnOwnPort) {
        app.get('/metrics', async (_req, res) => {
          res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
        });
      }
      app.use(docsRouter());
      app.use(dashboardRouter(config.DASHBOARD_DIR, logger));
    },
  });

  const logForwarded = logger.isLevelEnabled('info');
  const handler: RequestListener = (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    const route = routeFor(query === -1 ? url : url.slice(0, query));
    if (!route) {
      ownApp(req, res);
      return;
    }
    const { service, errors } = route;
    const started = performance.now();
    const prepared = prepareUpstreamRequest(req);
    const { requestId } = prepared;
    res.once('finish', () => {
      const seconds = (performance.now() - started) / 1_000;
      metrics.observe(service, req.method ?? '', res.statusCode, seconds);
      if (logForwarded) {
        logger.info(
          { reqId: requestId, method: req.method, url, upstream: service, status: res.statusCode, ms: Math.round(seconds * 1_000) },
          'forwarded',
        );
      }
    });
    if (unsafeTarget(url)) {
      writeError(req, res, new HttpProblem(400, 'Request path must not contain dot segments or backslashes'), {
        format: errors,
        requestId,
      });
      return;
    }
    const upstream = upstreams.get(service);
    if (!upstream) {
      const detail = `${service} is not available behind this gateway (${upstreamUrlVariable[service]} is not set)`;
      writeError(req, res, new ServiceUnavailable(detail, { retryAfterSeconds: 60 }), { format: errors, requestId });
      return;
    }
    upstream.forward(req, res, prepared, { bodyLimitBytes: config.BODY_LIMIT_BYTES, errors });
  };

  const metricsHandler: RequestListener = (req, res) => {
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

  return {
    handler,
    metricsHandler,
    metrics,
    close: async () => {
      await Promise.all([...upstreams.values()].map((upstream) => upstream.close()));
    },
  };
}
