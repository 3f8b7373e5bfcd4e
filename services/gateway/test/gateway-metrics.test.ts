import { describe, expect, it } from 'vitest';
import { createGatewayMetrics } from '../src/metrics/gateway-metrics.service.ts';

/** The lines of the Prometheus text that belong to the gateway's own metrics. */
async function gatewayLines(metrics: ReturnType<typeof createGatewayMetrics>): Promise<string[]> {
  return (await metrics.registry.metrics()).split('\n').filter((line) => line.includes('gateway_'));
}

describe('gateway metrics', () => {
  it('counts requests by service, method and status, across scrapes', async () => {
    const metrics = createGatewayMetrics();
    metrics.observe('catalog-svc', 'GET', 200, 0.001);
    metrics.observe('catalog-svc', 'GET', 200, 0.002);
    metrics.observe('config-svc', 'POST', 502, 0.003);
    const first = await gatewayLines(metrics);
    expect(first).toContain('gateway_requests_total{service="catalog-svc",method="GET",status="200"} 2');
    expect(first).toContain('gateway_requests_total{service="config-svc",method="POST",status="502"} 1');
    metrics.observe('catalog-svc', 'GET', 200, 0.001);
    const second = await gatewayLines(metrics);
    expect(second).toContain('gateway_requests_total{service="catalog-svc",method="GET",status="200"} 3');
    expect(second).toContain('gateway_requests_total{service="config-svc",method="POST",status="502"} 1');
  });

  it('writes the duration histogram as Prometheus does: cumulative buckets by le, +Inf, sum and count', async () => {
    const metrics = createGatewayMetrics();
    for (const seconds of [0.0004, 0.001, 0.0031, 0.25, 31]) metrics.observe('catalog-svc', 'GET', 200, seconds);
    const lines = await gatewayLines(metrics);
    const bucket = (le: string) =>
      lines.find((line) => line.startsWith(`gateway_request_duration_seconds_bucket{le="${le}",service="catalog-svc"} `));
    expect(lines).toContain('# TYPE gateway_request_duration_seconds histogram');
    expect(bucket('0.001')).toMatch(/ 2$/); // a bound counts the values equal to it
    expect(bucket('0.0025')).toMatch(/ 2$/);
    expect(bucket('0.005')).toMatch(/ 3$/);
    expect(bucket('0.25')).toMatch(/ 4$/);
    expect(bucket('30')).toMatch(/ 4$/);
    expect(bucket('+Inf')).toMatch(/ 5$/);
    expect(lines).toContain('gateway_request_duration_seconds_count{service="catalog-svc"} 5');
    const sum = lines.find((line) => line.startsWith('gateway_request_duration_seconds_sum{service="catalog-svc"} '));
    expect(Number(sum?.split(' ')[1])).toBeCloseTo(31.2545, 6);
    expect((await metrics.registry.getSingleMetricAsString('gateway_request_duration_seconds')).split('\n')).toHaveLength(
      2 + 14 + 3, // HELP and TYPE; 14 buckets, +Inf, sum and count of the one service
    );
  });

  it('answers the registry in JSON too, and starts over when reset', async () => {
    const metrics = createGatewayMetrics();
    metrics.observe('peer-svc', 'GET', 200, 0.02);
    const json = await metrics.registry.getMetricsAsJSON();
    const histogram = json.find((metric) => metric.name === 'gateway_request_duration_seconds');
    expect(histogram?.type).toBe('histogram');
    expect(histogram?.values).toContainEqual(
      expect.objectContaining({ metricName: 'gateway_request_duration_seconds_count', labels: { service: 'peer-svc' }, value: 1 }),
    );
    metrics.registry.resetMetrics();
    expect(await gatewayLines(metrics)).not.toContainEqual(expect.stringContaining('peer-svc'));
  });
});
