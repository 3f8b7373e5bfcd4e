import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, type ProcessStack } from '@switchyard/service-kit/testing';

/**
 * How long the launcher may take to answer `/readyz`: it creates a fresh PGlite data directory (one for all services,
 * a schema each) and migrates it at start, about 20 s on an idle two-core machine and several times that beside the
 * rest of the suite.
 */
export const LAUNCHER_READY_MS = 150_000;

/** The one-process launcher's entry point (apps/standalone). */
export const STANDALONE_MAIN = new URL('../../apps/standalone/src/main.ts', import.meta.url).pathname;

/** The URLs of a launcher started by {@link startLauncherWithEmulators}. */
export interface LauncherUrls {
  gateway: string;
  codeHost: string;
  registry: string;
}

/** The launcher's port variables, one free port each, and the URLs they give. */
export interface LauncherPorts {
  ports: Record<
    'GATEWAY_PORT' | 'CATALOG_PORT' | 'CONFIG_PORT' | 'CODE_HOST_PORT' | 'RELEASE_PORT' | 'PEER_PORT' | 'REGISTRY_PORT',
    string
  >;
  urls: LauncherUrls;
}

/**
 * A free port for each of the launcher's services and emulators (`GATEWAY_PORT`, … `REGISTRY_PORT`, as strings for its
 * environment) and the URLs of the gateway and the two emulators on 127.0.0.1.
 */
export async function launcherPorts(): Promise<LauncherPorts> {
  const ports = {
    GATEWAY_PORT: String(await freePort()),
    CATALOG_PORT: String(await freePort()),
    CONFIG_PORT: String(await freePort()),
    CODE_HOST_PORT: String(await freePort()),
    RELEASE_PORT: String(await freePort()),
    PEER_PORT: String(await freePort()),
    REGISTRY_PORT: String(await freePort()),
  };
  const at = (port: string) => `http://127.0.0.1:${port}`;
  return {
    ports,
    urls: { gateway: at(ports.GATEWAY_PORT), codeHost: at(ports.CODE_HOST_PORT), registry: at(ports.REGISTRY_PORT) },
  };
}

/**
 * Starts the one-process launcher on the embedded defaults (PGlite, the in-process broker) with its GitHub and registry
 * emulators, each service on a free port, in a temporary data directory that `processes` removes on disposal, and
 * waits for the gateway's `/readyz`. `env` is added to (and overrides) the launcher's environment; `HOST`,
 * `DATABASE_URL`, `AMQP_URL`, `CODE_HOST_API_URL` and `REGISTRY_URLS` are empty (unset) whatever the test's
 * environment says, so the emulators are used.
 */
export async function startLauncherWithEmulators(processes: ProcessStack, env: Record<string, string> = {}): Promise<LauncherUrls> {
  const dataDir = mkdtempSync(join(tmpdir(), 'switchyard-e2e-'));
  processes.defer(() => rmSync(dataDir, { recursive: true, force: true }));
  const { ports, urls } = await launcherPorts();
  await processes.start(
    STANDALONE_MAIN,
    { ...ports, DATA_DIR: dataDir, DATABASE_URL: '', AMQP_URL: '', CODE_HOST_API_URL: '', REGISTRY_URLS: '', HOST: '', ...env },
    `${urls.gateway}/readyz`,
    LAUNCHER_READY_MS,
  );
  return urls;
}
