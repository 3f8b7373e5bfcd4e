/**
 * `pnpm bench:gateway`: what one hop through the gateway costs, apart from any service behind it, beside its peers. An
 * upstream that answers at once (`fixed-upstream.ts`) is measured directly and through four proxies, each its own
 * process, one after the other, twice:
 *
 * - nginx (the machine's binary, found on PATH or in /usr/sbin, /usr/local/sbin, /usr/local/nginx/sbin), started with
 *   a config generated into a temporary folder: one worker process (as the Node processes have one thread of
 *   JavaScript), keep-alive connections to the upstream, `X-Forwarded-*` and `X-Request-Id` set as the gateway sets
 *   them, no access log; skipped, with the reason printed, when there is no nginx;
 * - express 5 + `http-proxy-middleware` (`express-proxy.ts`): the common way to write a proxy in Node.js;
 * - the bare proxy (`bare-proxy.ts`: `node:http` in front of an undici `Pool`, nothing else: the floor of a proxy hop
 *   in Node.js);
 * - the gateway (`GET /books/1`, so on the catalogue's route, with its request id, `X-Forwarded-*`, hop-by-hop
 *   headers, metrics and error formats), at `LOG_LEVEL=warn` (no line per request, as nginx here has no access log)
 *   unless BENCH_GATEWAY_LOG_LEVEL says otherwise (`info`: its line per forwarded request, to a pipe this script
 *   drains).
 *
 * It prints the machine's cores and load average (other work on it skews every figure), each run (requests per
 * second, p99 latency, errors, and the CPU time per request of the process measured, nginx's master and worker
 * together, from `/proc`, Linux only), then the mean of the runs per target with its throughput as a share of the
 * direct one and of nginx's, and the gateway's CPU per request over the bare proxy's.
 *
 * Environment: BENCH_DURATION seconds per measurement (5), BENCH_CONNECTIONS (32), BENCH_TARGETS (a comma-separated
 * subset of `direct,nginx,express,bare,gateway`; all by default), BENCH_GATEWAY_LOG_LEVEL (`warn`), NGINX_BIN (the
 * nginx binary, instead of looking for one), BENCH_PROFILE_DIR (the gateway runs with `--cpu-prof` into it, and its
 * top functions and areas by self time, per request, are printed at the end; the figures are then not the real ones).
 */

import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { accessSync, constants, readdirSync, readFileSync, statSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { freePort, type RunningProcess, startProcess, waitFor } from '@switchyard/service-kit/testing';
import autocannon from 'autocannon';
import { cpuSeconds } from './process-cpu.ts';

const duration = Number(process.env.BENCH_DURATION ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const profileDir = process.env.BENCH_PROFILE_DIR;
const gatewayLogLevel = process.env.BENCH_GATEWAY_LOG_LEVEL ?? 'warn';
const TARGET_KEYS = ['direct', 'nginx', 'express', 'bare', 'gateway'] as const;
type TargetKey = (typeof TARGET_KEYS)[number];
const wanted = new Set((process.env.BENCH_TARGETS ?? TARGET_KEYS.join(',')).split(',').map((key) => key.trim()));
const root = new URL('../', import.meta.url);

/** One server measured: its row name, port, and the processes whose CPU time counts. */
interface Target {
  key: TargetKey;
  name: string;
  port: number;
  pids: () => number[];
}

/** One measurement of one target. */
interface Run {
  requestsPerSecond: number;
  p99: number;
  microsPerRequest: number;
}

/** The children of process `pid` (from `/proc/<pid>/task/<pid>/children`); none off Linux. */
function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** CPU seconds used so far by the processes `pids` together (NaN when one cannot be read). */
function cpuOf(pids: number[]): number {
  return pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0);
}

/** The path of the nginx binary: NGINX_BIN, else the first `nginx` on PATH or in the usual sbin folders. */
function findNginx(): string | undefined {
  if (process.env.NGINX_BIN) return process.env.NGINX_BIN;
  const folders = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/local/sbin', '/usr/local/nginx/sbin'];
  for (const folder of folders.filter(Boolean)) {
    try {
      accessSync(join(folder, 'nginx'), constants.X_OK);
      return join(folder, 'nginx');
    } catch {
      // not in this folder
    }
  }
  return undefined;
}

/**
 * nginx's config for the bench: one worker, keep-alive both ways without a request limit per connection, the
 * client's `X-Request-Id` kept (else nginx's own id) and sent both ways, `X-Forwarded-*` set, every file in `dir`.
 */
function nginxConfig(dir: string, port: number, upstreamPort: number): string {
  return `worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  keepalive_requests 1000000;
  map $http_x_request_id $forwarded_request_id { "" $request_id; default $http_x_request_id; }
  upstream fixed {
    server 127.0.0.1:${upstreamPort};
    keepalive 64;
    keepalive_requests 1000000;
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://fixed;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header X-Request-Id $forwarded_request_id;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Host $host;
      proxy_set_header X-Forwarded-Proto $scheme;
      add_header X-Request-Id $forwarded_request_id always;
    }
  }
}
`;
}

/**
 * Starts nginx in front of the upstream on `port`, with {@link nginxConfig} in a new temporary folder, and waits until
 * `GET /books/1` answers 200 through it. Resolves with the running process and a `stop` that also removes the folder,
 * or with the reason it was skipped (no binary, or it did not start).
 */
async function startNginx(port: number, upstreamPort: number): Promise<RunningProcess | string> {
  const binary = findNginx();
  if (!binary) return 'no nginx binary on PATH, in /usr/sbin, /usr/local/sbin or /usr/local/nginx/sbin (set NGINX_BIN)';
  const dir = await mkdtemp(join(tmpdir(), 'gateway-bench-nginx-'));
  await chmod(dir, 0o755); // run as root, nginx's worker is `nobody`, and its temporary folders live here
  await writeFile(join(dir, 'nginx.conf'), nginxConfig(dir, port, upstreamPort));
  const child = spawn(binary, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const exited = once(child, 'exit');
  child.once('error', () => {}); // a spawn error ends in 'exit' too
  const stop = async (signal: NodeJS.Signals = 'SIGTERM', graceMs = 5_000) => {
    let code: number | null = child.exitCode;
    if (child.exitCode === null && child.signalCode === null) {
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      [code] = (await exited) as [number | null];
      clearTimeout(timer);
    }
    await rm(dir, { recursive: true, force: true });
    return code;
  };
  try {
    await Promise.race([
      waitFor(async () => (await fetch(`http://127.0.0.1:${port}/books/1`)).status === 200, 10_000, 100),
      exited.then(([code]) => {
        throw new Error(`exited with ${code}`);
      }),
    ]);
  } catch (error) {
    await stop('SIGKILL', 1_000);
    let log = '';
    try {
      log = readFileSync(join(dir, 'error.log'), 'utf8');
    } catch {
      // removed with the folder
    }
    return `${binary} did not start (${(error as Error).message}): ${`${output}${log}`.trim().split('\n').slice(-3).join(' | ')}`;
  }
  return { child, output: () => output, stop };
}

/** Native functions that are the socket writes of `node:net` (a `write(2)`/`writev(2)` each, the time in the kernel included). */
const SOCKET_WRITES = new Set(['writev', 'writeBuffer', 'writeLatin1String', 'writeUtf8String', 'writeAsciiString', 'writeUcs2String']);

/**
 * The `top` functions by self time of a `.cpuprofile` (V8's samples of the main thread: time spent in a system call,
 * and time the process waited for a core there, count as that call's), then the same time by area (`node:<module>`,
 * a dependency, the gateway's own code, V8's pseudo-frames). Each as ms, as a share of the busy time (all but
 * `(idle)`), and per request when `requests` (served while profiled) is given.
 */
function summariseProfile(file: string, requests: number, top = 20): string {
  interface ProfileNode {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
  }
  const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfMicros = new Map<string, number>();
  const byArea = new Map<string, number>();
  let busy = 0;
  let idle = 0;
  profile.samples.forEach((id, index) => {
    const micros = profile.timeDeltas[index] ?? 0;
    const frame = byId.get(id)?.callFrame;
    if (!frame) return;
    if (frame.functionName === '(idle)') {
      idle += micros;
      return;
    }
    busy += micros;
    const where = frame.url.replace(/^file:\/\/.*?\/(node_modules\/\.pnpm\/[^/]+\/node_modules\/|services\/|packages\/)/, '');
    const key = `${frame.functionName || '(anonymous)'}  ${where ? `${where}:${frame.lineNumber + 1}` : ''}`;
    selfMicros.set(key, (selfMicros.get(key) ?? 0) + micros);
    let area: string;
    if (frame.url)
      area = frame.url.startsWith('node:') ? frame.url.replace(/^node:(internal\/)?([^/]+).*/, 'node:$2') : (where.split('/')[0] ?? '?');
    else if (SOCKET_WRITES.has(frame.functionName)) area = '(socket writes: system calls)';
    else area = frame.functionName.startsWith('(') ? frame.functionName : '(other native code)';
    byArea.set(area, (byArea.get(area) ?? 0) + micros);
  });
  const line = ([key, micros]: [string, number]) =>
    `  ${(micros / 1_000).toFixed(0).padStart(7)} ms ${((100 * micros) / busy).toFixed(1).padStart(5)} %` +
    `${requests > 0 ? `${(micros / requests).toFixed(2).padStart(8)} µs/req` : ''}  ${key}`;
  const sorted = (map: Map<string, number>) => [...map].sort((a, b) => b[1] - a[1]);
  return [
    `gateway CPU profile (${file}): ${(busy / 1_000).toFixed(0)} ms busy, ${(idle / 1_000).toFixed(0)} ms idle, ${requests} requests`,
    'self time by function:',
    ...sorted(selfMicros).slice(0, top).map(line),
    'self time by area (node:<module> is Node.js itself; other names are dependencies, `gateway` its own code):',
    ...sorted(byArea).slice(0, 14).map(line),
  ].join('\n');
}

const [upstreamPort, nginxPort, expressPort, barePort, gatewayPort] = [
  await freePort(),
  await freePort(),
  await freePort(),
  await freePort(),
  await freePort(),
];
const upstreamUrl = `http://127.0.0.1:${upstreamPort}`;
const started: RunningProcess[] = [];
const targets: Target[] = [];
const startedAt = Date.now();
/** Requests each target answered, warm-ups included (what its profile covers). */
const served = new Map<TargetKey, number>();
try {
  const upstream = await startProcess(new URL('bench/fixed-upstream.ts', root).pathname, { PORT: String(upstreamPort) }, `${upstreamUrl}/`);
  started.push(upstream);
  if (wanted.has('direct'))
    targets.push({ key: 'direct', name: 'upstream alone', port: upstreamPort, pids: () => [upstream.child.pid ?? 0] });
  if (wanted.has('nginx')) {
    const nginx = await startNginx(nginxPort, upstreamPort);
    if (typeof nginx === 'string') process.stdout.write(`nginx skipped: ${nginx}\n`);
    else {
      started.push(nginx);
      const master = nginx.child.pid ?? 0;
      targets.push({ key: 'nginx', name: 'nginx', port: nginxPort, pids: () => [master, ...childrenOf(master)] });
    }
  }
  if (wanted.has('express')) {
    const express = await startProcess(
      new URL('bench/express-proxy.ts', root).pathname,
      { PORT: String(expressPort), UPSTREAM_URL: upstreamUrl },
      `http://127.0.0.1:${expressPort}/`,
    );
    started.push(express);
    targets.push({ key: 'express', name: 'express + hpm', port: expressPort, pids: () => [express.child.pid ?? 0] });
  }
  if (wanted.has('bare')) {
    const bare = await startProcess(
      new URL('bench/bare-proxy.ts', root).pathname,
      { PORT: String(barePort), UPSTREAM_URL: upstreamUrl },
      `http://127.0.0.1:${barePort}/`,
    );
    started.push(bare);
    targets.push({ key: 'bare', name: 'bare proxy', port: barePort, pids: () => [bare.child.pid ?? 0] });
  }
  if (wanted.has('gateway')) {
    const gateway = await startProcess(
      new URL('services/gateway/src/main.ts', root).pathname,
      {
        PORT: String(gatewayPort),
        HOST: '127.0.0.1',
        CATALOG_SVC_URL: upstreamUrl,
        LOG_LEVEL: gatewayLogLevel,
        ...(profileDir ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${profileDir}` } : {}),
      },
      `http://127.0.0.1:${gatewayPort}/readyz`,
    );
    started.push(gateway);
    // At `info` its lines would pile up in `output()`: drain them instead (stderr is still kept).
    gateway.child.stdout?.removeAllListeners('data').resume();
    targets.push({ key: 'gateway', name: 'gateway', port: gatewayPort, pids: () => [gateway.child.pid ?? 0] });
  }

  const runs = new Map<TargetKey, Run[]>();
  process.stdout.write(
    `\ngateway benchmark: GET /books/1 against an upstream that answers at once, ${connections} connections, ${duration} s per run, Node ${process.versions.node}\n` +
      `${availableParallelism()} cores, load average ${loadavg()[0]?.toFixed(1)} at the start (the load generator, the upstream and the proxy share them)\n\n`,
  );
  const header = (first: string) =>
    `${first.padEnd(16)}${'req/s'.padStart(10)}${'p99 ms'.padStart(9)}${'errors'.padStart(8)}${'µs CPU/req'.padStart(13)}`;
  process.stdout.write(`${header('target')}\n`);
  for (let round = 0; round < 2; round++) {
    for (const target of targets) {
      const url = `http://127.0.0.1:${target.port}/books/1`;
      const warmUp = await autocannon({ url, connections, duration: 2 }); // JIT, connection pools
      const pids = target.pids();
      const before = cpuOf(pids);
      const r = await autocannon({ url, connections, duration });
      const micros = ((cpuOf(pids) - before) * 1e6) / Math.max(1, r.requests.total);
      const run = { requestsPerSecond: r.requests.average, p99: r.latency.p99, microsPerRequest: micros };
      served.set(target.key, (served.get(target.key) ?? 0) + warmUp.requests.total + r.requests.total);
      runs.set(target.key, [...(runs.get(target.key) ?? []), run]);
      process.stdout.write(
        `${target.name.padEnd(16)}${String(Math.round(run.requestsPerSecond)).padStart(10)}${String(run.p99).padStart(9)}` +
          `${String(r.errors + r.non2xx).padStart(8)}${(Number.isNaN(micros) ? '' : micros.toFixed(1)).padStart(13)}\n`,
      );
    }
  }

  const mean = (key: TargetKey, field: keyof Run) => {
    const values = (runs.get(key) ?? []).map((run) => run[field]);
    return values.length ? values.reduce((a, b) => a + b, 0) / values.length : Number.NaN;
  };
  const share = (key: TargetKey, of: TargetKey) => {
    const ratio = mean(key, 'requestsPerSecond') / mean(of, 'requestsPerSecond');
    return Number.isNaN(ratio) ? '' : ratio.toFixed(2);
  };
  process.stdout.write(
    `\nmean of the runs\n${'target'.padEnd(16)}${'req/s'.padStart(10)}${'p99 ms'.padStart(9)}${'µs CPU/req'.padStart(13)}` +
      `${'÷ direct'.padStart(10)}${'÷ nginx'.padStart(9)}\n`,
  );
  for (const { key, name } of targets) {
    const micros = mean(key, 'microsPerRequest');
    process.stdout.write(
      `${name.padEnd(16)}${String(Math.round(mean(key, 'requestsPerSecond'))).padStart(10)}${mean(key, 'p99').toFixed(1).padStart(9)}` +
        `${(Number.isNaN(micros) ? '' : micros.toFixed(1)).padStart(13)}${share(key, 'direct').padStart(10)}${share(key, 'nginx').padStart(9)}\n`,
    );
  }
  if (runs.has('gateway') && runs.has('bare')) {
    const [gateway, bare] = [mean('gateway', 'microsPerRequest'), mean('bare', 'microsPerRequest')];
    process.stdout.write(
      `\n  gateway CPU per request / bare proxy's   ${(gateway / bare).toFixed(2)} (${gateway.toFixed(1)} µs against ${bare.toFixed(1)} µs)\n`,
    );
  }
} finally {
  for (const running of started.reverse()) await running.stop();
}

if (profileDir && wanted.has('gateway')) {
  const newest = readdirSync(profileDir)
    .filter((name) => name.endsWith('.cpuprofile'))
    .map((name) => join(profileDir, name))
    .filter((file) => statSync(file).mtimeMs >= startedAt)
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
  process.stdout.write(
    newest ? `\n${summariseProfile(newest, served.get('gateway') ?? 0)}\n` : `\nno .cpuprofile written into ${profileDir}\n`,
  );
}
