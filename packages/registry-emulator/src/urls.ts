import { allowedHostOf } from '@switchyard/service-kit';
import { PROTOCOLS } from './serve.ts';

/**
 * The base URLs a registry adapter (`@switchyard/registries`) takes for each package manager the emulator at `origin`
 * serves, e.g. `{ npm_and_yarn: 'http://127.0.0.1:8091/npm/', cargo: 'http://127.0.0.1:8091/crates/index/', … }` (and
 * `gradle`, the Maven repository's);
 * with `scope: 'private'` the private registries' (`/private/<prefix>/`), which need the seed's credentials.
 */
export function emulatorRegistryUrls(origin: string, scope: 'public' | 'private' = 'public'): Record<string, string> {
  const base = `${origin.replace(/\/+$/, '')}/${scope === 'private' ? 'private/' : ''}`;
  const urls: Record<string, string> = Object.fromEntries(
    PROTOCOLS.map((protocol) => [protocol.packageManager, `${base}${protocol.prefix}/${protocol.clientPath ?? ''}`]),
  );
  // Gradle builds resolve against Maven repositories: the emulator's Maven repository is gradle's registry too.
  if (urls.maven) urls.gradle = urls.maven;
  return urls;
}

/** crates.io's web API on the emulator at `origin` (release dates and links beside its sparse index). */
export function emulatorCratesApiUrl(origin: string): string {
  return `${origin.replace(/\/+$/, '')}/crates/api/v1/`;
}

/**
 * The environment a release-svc worker needs to ask the emulator at `origin` instead of the public registries:
 * `REGISTRY_URLS` (`<package manager>=<url>`, comma-separated), `CRATES_API_URL`, and `REGISTRY_ALLOWED_HOSTS`: the
 * emulator's `host:port` (e.g. `127.0.0.1:8091`), so that an account's private registry on the emulator
 * (`/private/<prefix>/`, {@link emulatorRegistryUrls} with `scope: 'private'`) passes the outbound guard although the
 * emulator listens on loopback (the public registries' URLs are allowed without it; config-svc, which checks the URLs
 * accounts register, needs the same value). A caller with an allow-list of its own joins both with a comma.
 */
export function emulatorRegistryEnv(origin: string): { REGISTRY_URLS: string; CRATES_API_URL: string; REGISTRY_ALLOWED_HOSTS: string } {
  const urls = emulatorRegistryUrls(origin);
  return {
    REGISTRY_URLS: Object.entries(urls)
      .map(([manager, url]) => `${manager}=${url}`)
      .join(','),
    CRATES_API_URL: emulatorCratesApiUrl(origin),
    REGISTRY_ALLOWED_HOSTS: allowedHostOf(origin),
  };
}
