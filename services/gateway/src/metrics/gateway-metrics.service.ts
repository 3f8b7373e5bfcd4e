import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';

/** Prometheus metrics of one gateway instance (own registry, so several gateways can live in one process). */
export interface GatewayMetrics {
  registry: Registry;
  /** Counts a finished proxied request and observes its duration in seconds. */
  observe: (service: string, method: string, status: number, seconds: number) => void;
}

/**
 * Creates the gateway's metrics: `gateway_requests_total{service,method,status}`,
 * `gateway_request_duration_seconds{service}` and Node's default process metrics.
 */
export function createGatewayMetrics(): GatewayMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'gateway_requests_total',
    help: 'Requests forwarded to an upstream service, by service, method and response status',
    labelNames: ['service', 'method', 'status'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'gateway_request_duration_seconds',
    help: 'Time from request to the end of the response, by upstream service',
    labelNames: ['service'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  // Label children are looked up once per label set: prom-client hashes labels on every `labels()` call.
  const counters = new Map<string, ReturnType<typeof requests.labels>>();
  const timers = new Map<string, ReturnType<typeof duration.labels>>();
  return {
    registry,
    observe: (service, method, status, seconds) => {
      const key = `${service} ${method} ${status}`;
      let counter = counters.get(key);
      if (!counter) {
        counter = requests.labels(service, method, String(status));
        counters.set(key, counter);
      }
      counter.inc();
      let timer = timers.get(service);
      if (!timer) {
        timer = duration.labels(service);
        timers.set(service, timer);
      }
      timer.observe(seconds);
    },
  };
}
