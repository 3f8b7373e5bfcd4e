import { Counter, collectDefaultMetrics, type Metric, Registry } from 'prom-client';

/** Prometheus metrics of one gateway instance (own registry, so several gateways can live in one process). */
export interface GatewayMetrics {
  registry: Registry;
  /**
   * Counts a finished proxied request (`service`, HTTP `method`, response `status`) and observes its duration in
   * `seconds`. A few plain additions, no allocation once a label set has been seen: prom-client is given the counts
   * when it collects (a scrape), not per request.
   */
  observe: (service: string, method: string, status: number, seconds: number) => void;
}

const DURATION_NAME = 'gateway_request_duration_seconds';
const DURATION_HELP = 'Time from request to the end of the response, by upstream service';
/** Upper bounds of the duration histogram's buckets, seconds (`+Inf` comes after them). */
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** The durations of one service so far: per bucket (not cumulative; the last one is `+Inf`), their sum and count. */
interface DurationSeries {
  buckets: Float64Array;
  sum: number;
  count: number;
}

/** Requests forwarded per service, method and status since the last collection, not yet handed to prom-client. */
interface PendingCount {
  labels: { service: string; method: string; status: string };
  count: number;
}

/**
 * `gateway_request_duration_seconds{service}` as a metric of `registry`: a histogram kept in plain arrays, written out
 * by the registry like prom-client's own (`_bucket` with `le` cumulative and `+Inf`, `_sum`, `_count`). prom-client's
 * `Histogram.observe` hashes its labels on every call, which the gateway would pay per request; the registry only
 * asks this object for `get()` (and `reset()`), the shape prom-client's metrics answer.
 */
function durationHistogram(registry: Registry): (service: string, seconds: number) => void {
  const series = new Map<string, DurationSeries>();
  const metric = {
    name: DURATION_NAME,
    help: DURATION_HELP,
    type: 'histogram',
    aggregator: 'sum',
    labelNames: ['service'],
    get: async () => {
      const values: { value: number; labels: Record<string, string | number>; metricName: string }[] = [];
      for (const [service, { buckets, sum, count }] of series) {
        let cumulative = 0;
        DURATION_BUCKETS.forEach((le, index) => {
          cumulative += buckets[index] ?? 0;
          values.push({ value: cumulative, labels: { le, service }, metricName: `${DURATION_NAME}_bucket` });
        });
        values.push({ value: count, labels: { le: '+Inf', service }, metricName: `${DURATION_NAME}_bucket` });
        values.push({ value: sum, labels: { service }, metricName: `${DURATION_NAME}_sum` });
        values.push({ value: count, labels: { service }, metricName: `${DURATION_NAME}_count` });
      }
      return { name: DURATION_NAME, help: DURATION_HELP, type: 'histogram', aggregator: 'sum', values };
    },
    reset: () => series.clear(),
  };
  // prom-client's types name its four classes only; its registry takes any object that answers `get()` as they do.
  registry.registerMetric(metric as unknown as Metric);
  return (service, seconds) => {
    let entry = series.get(service);
    if (!entry) {
      entry = { buckets: new Float64Array(DURATION_BUCKETS.length + 1), sum: 0, count: 0 };
      series.set(service, entry);
    }
    let index = 0;
    while (index < DURATION_BUCKETS.length && seconds > (DURATION_BUCKETS[index] as number)) index++;
    entry.buckets[index] = (entry.buckets[index] ?? 0) + 1;
    entry.sum += seconds;
    entry.count++;
  };
}

/**
 * Creates the gateway's metrics: `gateway_requests_total{service,method,status}`,
 * `gateway_request_duration_seconds{service}` and Node's default process metrics, in a registry of their own.
 */
export function createGatewayMetrics(): GatewayMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  // service → method → status → what prom-client has not been given yet.
  const pending = new Map<string, Map<string, Map<number, PendingCount>>>();
  const requests: Counter<'service' | 'method' | 'status'> = new Counter({
    name: 'gateway_requests_total',
    help: 'Requests forwarded to an upstream service, by service, method and response status',
    labelNames: ['service', 'method', 'status'] as const,
    registers: [registry],
    collect: () => {
      for (const byMethod of pending.values()) {
        for (const byStatus of byMethod.values()) {
          for (const entry of byStatus.values()) {
            if (entry.count === 0) continue;
            requests.inc(entry.labels, entry.count);
            entry.count = 0;
          }
        }
      }
    },
  });
  const observeDuration = durationHistogram(registry);
  return {
    registry,
    observe: (service, method, status, seconds) => {
      let byMethod = pending.get(service);
      if (!byMethod) {
        byMethod = new Map();
        pending.set(service, byMethod);
      }
      let byStatus = byMethod.get(method);
      if (!byStatus) {
        byStatus = new Map();
        byMethod.set(method, byStatus);
      }
      const entry = byStatus.get(status);
      if (entry) entry.count++;
      else byStatus.set(status, { labels: { service, method, status: String(status) }, count: 1 });
      observeDuration(service, seconds);
    },
  };
}
