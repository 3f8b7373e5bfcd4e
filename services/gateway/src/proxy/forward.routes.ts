import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { HttpProblem, type Logger, ServiceUnavailable, writeError } from '@switchyard/service-kit';
import type { GatewayMetrics } from '../metrics/gateway-metrics.service.ts';
import { routeFor, type ServiceName, unsafeTarget } from '../routing/route.policy.ts';
import { prepareUpstreamRequest } from './forwarded-headers.mapper.ts';
import type { Upstream } from './upstream.client.ts';

/** What {@link forwardingHandler} forwards with. */
export interface ForwardingOptions {
  /** The upstream of each service whose URL is configured. */
  upstreams: ReadonlyMap<ServiceName, Upstream>;
  /** The configuration variable of each service's URL, which the 503 of a service without an upstream names. */
  upstreamVariables: Readonly<Record<ServiceName, string>>;
  /** Largest request body forwarded, bytes (then 413). */
  bodyLimitBytes: number;
  metrics: GatewayMetrics;
  /** Where the line of each forwarded request goes, at `info`. */
  logger: Logger;
  /** Answers every path the routing table gives to no service: the gateway's own app. */
  ownApp: RequestListener;
}

/**
 * The gateway's fast path, which bypasses express: a path the routing table (`routeFor`) gives to a service is forwarded
 * to that service's upstream, counted in `metrics` and logged as one `forwarded` line at `info` (request id, method, URL,
 * service, status, ms) once its answer has gone out whole (a request whose client left first is neither); any other
 * path goes to `ownApp`. The gateway's own errors on a forwarded path are written in the error format of the API the
 * route belongs to: 400 for an unsafe target (`unsafeTarget`), 503 with `Retry-After: 60` for a service without an
 * upstream, and the upstream's 413, 502 and 504 (`Upstream.forward`).
 */
export function forwardingHandler(options: ForwardingOptions): RequestListener {
  const { upstreams, upstreamVariables, bodyLimitBytes, metrics, logger, ownApp } = options;
  const logForwarded = logger.isLevelEnabled('info');
  return (req: IncomingMessage, res: ServerResponse) => {
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
    // Called once the answer has been sent whole (from the response's single `close` listener).
    const finished = () => {
      const seconds = (performance.now() - started) / 1_000;
      metrics.observe(service, req.method ?? '', res.statusCode, seconds);
      if (logForwarded) {
        logger.info(
          { reqId: requestId, method: req.method, url, upstream: service, status: res.statusCode, ms: Math.round(seconds * 1_000) },
          'forwarded',
        );
      }
    };
    const upstream = upstreams.get(service);
    const unsafe = unsafeTarget(url);
    if (unsafe || !upstream) {
      res.on('close', () => {
        if (res.writableFinished) finished();
      });
      const error = unsafe
        ? new HttpProblem(400, 'Request path must not contain dot segments or backslashes')
        : new ServiceUnavailable(`${service} is not available behind this gateway (${upstreamVariables[service]} is not set)`, {
            retryAfterSeconds: 60,
          });
      writeError(req, res, error, { format: errors, requestId });
      return;
    }
    upstream.forward(req, res, prepared, { bodyLimitBytes, errors }, finished);
  };
}
