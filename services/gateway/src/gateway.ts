import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { createServiceApp, type Logger, problemBody, type ReadinessCheck, writeProblem } from '@switchyard/service-kit';
import type { GatewayConfig } from './config.ts';
import { docsRouter } from './http/docs.routes.ts';
import { createGatewayMetrics, type GatewayMetrics } from './metrics.ts';
import { Upstream } from './proxy/forwarder.ts';
import { prepareUpstreamRequest } from './proxy/headers.ts';
import { type ServiceName, serviceFor, unsafeTarget } from './routing.ts';

/** A gateway request handler and what it holds open. */
export interface Gateway {
  handler: RequestListener;
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
 * fast path that bypasses express; everything else (`/healthz`, `/readyz`, `/metrics`,
 * `/openapi.json`, `/docs`, unknown paths) goes to the gateway's own express app.
 * A service without a configured URL answers 503 problem+json.
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
  const readiness: ReadinessCheck[] = [...upstreams.values()].map((upstream) => ({
    name: upstream.name,
    check: async () => {
      const status = await upstream.probe('/readyz');
      if (status !== 200) throw new Error(`readyz answered ${status}`);
    },
  }));
  const ownApp = createServiceApp({
    logger,
    readiness,
    routes: (app) => {
      app.get('/metrics', async (_req, res) => {
        res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
      });
      app.use(docsRouter());
    },
  });

  const logForwarded = logger.isLevelEnabled('info');
  const handler: RequestListener = (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    const service = serviceFor(query === -1 ? url : url.slice(0, query));
    if (!service) {
      ownApp(req, res);
      return;
    }
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
      writeProblem(res, problemBody(400, 'Request path must not contain dot segments or backslashes', { instance: url, requestId }), {
        'x-request-id': requestId,
      });
      return;
    }
    const upstream = upstreams.get(service);
    if (!upstream) {
      writeProblem(
        res,
        problemBody(503, `${service} is not available behind this gateway (${upstreamUrlVariable[service]} is not set)`, {
          instance: url,
          requestId,
        }),
        { 'x-request-id': requestId, 'retry-after': '60' },
      );
      return;
    }
    upstream.forward(req, res, prepared, config.BODY_LIMIT_BYTES);
  };

  return {
    handler,
    metrics,
    close: async () => {
      await Promise.all([...upstreams.values()].map((upstream) => upstream.close()));
    },
  };
}
