/**
 * `pnpm bench:gateway`: what one hop through the gateway costs, apart from any service behind it. An upstream that
 * answers at once (`fixed-upstream.ts`) is measured directly, through the bare proxy (`bare-proxy.ts`: `node:http` in
 * front of an undici `Pool`, nothing else: the floor of a proxy hop in Node.js) and through the gateway
 * (`GET /books/1`, so on the catalogue's route, with its request id, `X-Forwarded-*`, hop-by-hop headers, metrics and
 * error formats), each its own process, one after the other, twice. It prints requests per second, p99 latency and
 * the CPU time per request of the process measured (from `/proc`, Linux only), and the gateway's CPU per request over
 * the bare proxy's: what the gateway adds to the hop itself.
 *
 * Environment: BENCH_DURATION seconds per measurement (5), BENCH_CONNECTIONS (32).
 */

import { freePort, type RunningProcess, startProcess } from '@switchyard/service-kit/testing';
import autocannon from 'autocannon';
import { cpuSeconds } from './process-cpu.ts';

const duration = Number(process.env.BENCH_DURATION ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const root = new URL('../', import.meta.url);

const [upstreamPort, barePort, gatewayPort] = [await freePort(), await freePort(), await freePort()];
const upstreamUrl = `http://127.0.0.1:${upstreamPort}`;
const started: RunningProcess[] = [];
try {
  const upstream = await startProcess(new URL('bench/fixed-upstream.ts', root).pathname, { PORT: String(upstreamPort) }, `${upstreamUrl}/`);
  started.push(upstream);
  const bare = await startProcess(
    new URL('bench/bare-proxy.ts', root).pathname,
    { PORT: String(barePort), UPSTREAM_URL: upstreamUrl },
    `http://127.0.0.1:${barePort}/`,
  );
  started.push(bare);
  const gateway = await startProcess(
    new URL('services/gateway/src/main.ts', root).pathname,
    { PORT: String(gatewayPort), HOST: '127.0.0.1', CATALOG_SVC_URL: upstreamUrl, LOG_LEVEL: 'warn' },
    `http://127.0.0.1:${gatewayPort}/readyz`,
  );
  started.push(gateway);

  const targets: Array<[string, number, RunningProcess]> = [
    ['upstream alone', upstreamPort, upstream],
    ['bare proxy', barePort, bare],
    ['gateway', gatewayPort, gateway],
  ];
  const cpu = new Map<string, number[]>();
  process.stdout.write(
    `\ngateway benchmark: GET /books/1 against an upstream that answers at once, ${connections} connections, ${duration} s per run, Node ${process.versions.node}\n\n`,
  );
  process.stdout.write(
    `${'target'.padEnd(16)}${'req/s'.padStart(10)}${'p99 ms'.padStart(9)}${'errors'.padStart(8)}${'µs CPU/req'.padStart(13)}\n`,
  );
  for (let round = 0; round < 2; round++) {
    for (const [name, port, measured] of targets) {
      const url = `http://127.0.0.1:${port}/books/1`;
      await autocannon({ url, connections, duration: 2 }); // warm-up: JIT, connection pools
      const before = cpuSeconds(measured.child.pid);
      const r = await autocannon({ url, connections, duration });
      const micros = ((cpuSeconds(measured.child.pid) - before) * 1e6) / Math.max(1, r.requests.total);
      cpu.set(name, [...(cpu.get(name) ?? []), micros]);
      process.stdout.write(
        `${name.padEnd(16)}${String(Math.round(r.requests.average)).padStart(10)}${String(r.latency.p99).padStart(9)}` +
          `${String(r.errors + r.non2xx).padStart(8)}${(Number.isNaN(micros) ? '' : micros.toFixed(1)).padStart(13)}\n`,
      );
    }
  }
  const mean = (name: string) => {
    const values = cpu.get(name) ?? [];
    return values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
  };
  process.stdout.write(
    `\n  gateway CPU per request / bare proxy's   ${(mean('gateway') / mean('bare proxy')).toFixed(2)}` +
      ` (${mean('gateway').toFixed(1)} µs against ${mean('bare proxy').toFixed(1)} µs; the upstream's own: ${mean('upstream alone').toFixed(1)} µs)\n`,
  );
} finally {
  for (const process of started.reverse()) await process.stop();
}
