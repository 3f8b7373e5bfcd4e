import type { RequestListener } from 'node:http';
import { createServiceApp, type Logger, type ReadinessCheck } from '@switchyard/service-kit';
import type { GatewayConfig } from './config.ts';
import { dashboardRouter } from './http/dashboard.routes.ts';
import { docsRouter } from './http/docs.routes.ts';
import { metricsPortHandler, metricsRouter } from './http/metrics.routes.ts';
import { createGatewayMetrics, type GatewayMetrics } from './metrics/gateway-metrics.service.ts';
import { forwardingHandler } from './proxy/forward.routes.ts';
import { Upstream } from './proxy/upstream.client.ts';
import type { ServiceName } from './routing/route.policy.ts';

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

const upstreamUrlVariable = {
  'catalog-svc': 'CATALOG_SVC_URL',
  'config-svc': 'CONFIG_SVC_URL',
  'release-svc': 'RELEASE_SVC_URL',
  'peer-svc': 'PEER_SVC_URL',
} as const satisfies Record<ServiceName, keyof GatewayConfig>;

/**
 * Builds the gateway: requests whose path belongs to a service (see `routing/route.policy.ts`) are forwarded on a
 * fast path that bypasses express (`proxy/forward.routes.ts`); everything else (`/healthz`, `/readyz`, `/metrics` unless
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
      if (!metricsOnOwnPort) app.use(metricsRouter(metrics));
      app.use(docsRouter());
      app.use(dashboardRouter(config.DASHBOARD_DIR, logger));
    },
  });

  return {
    handler: forwardingHandler({
      upstreams,
      upstreamVariables: upstreamUrlVariable,
      bodyLimitBytes: config.BODY_LIMIT_BYTES,
      metrics,
      logger,
      ownApp,
    }),
    metricsHandler: metricsPortHandler(metrics, logger),
    metrics,
    close: async () => {
      await Promise.all([...upstreams.values()].map((upstream) => upstream.close()));
    },
  };
}
