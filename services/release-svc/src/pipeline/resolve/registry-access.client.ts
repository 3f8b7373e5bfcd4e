import { createHash } from 'node:crypto';
import type { PackageManager } from '@switchyard/contracts';
import type { LockfileRegistry } from '@switchyard/ecosystems';
import {
  CODE_HOST_PACKAGE_MANAGERS,
  type PackageRegistry,
  type RegistryCredentials,
  RegistryError,
  type RegistryRequestStats,
  type RegistryVersionDetails,
  registryFor,
} from '@switchyard/registries';
import { allowedHostOf, createOutboundGuard, type OutboundGuard } from '@switchyard/service-kit';
import { LRUCache } from 'lru-cache';
import type { FoundPackage, PackageNotFound } from './resolved.model.ts';

/** An account's private registry for one package manager: its base URL and the credentials to send it. */
export interface PrivateRegistry {
  baseUrl: string;
  credentials: RegistryCredentials;
  /** Identifies the credentials without holding them (e.g. the credential's id and revision): a new value opens a new client. */
  fingerprint: string;
}

/** Finds an account's private registry for a package manager, or undefined when it registered none. */
export type PrivateRegistryLookup = (accountId: number, packageManager: PackageManager) => Promise<PrivateRegistry | undefined>;

/** What {@link RegistryAccess} needs. */
export interface RegistryAccessOptions {
  /** Base URL of the public registry of each package manager (an adapter's default public registry when absent). */
  publicUrls: Partial<Record<PackageManager, string>>;
  /**
   * Credentials sent to the public registry of some package managers: the service's own code-host token for those whose
   * versions are the code host's tags and branches (see {@link codeHostRegistryCredentials}).
   */
  publicCredentials?: Partial<Record<PackageManager, RegistryCredentials>>;
  /**
   * The credentials of the code host's "registry" (the package managers of `CODE_HOST_PACKAGE_MANAGERS`) for an account's
   * runs, asked at each lookup, over `publicCredentials`: App mode's installation token of the account, which expires
   * within the hour.
   */
  codeHostCredentials?: (accountId: number) => Promise<RegistryCredentials>;
  /** crates.io's web API beside a non-default index (the emulator's), or undefined. */
  cratesApiUrl?: string | undefined;
  /** Timeout of one registry request, ms. */
  timeoutMs: number;
  /** The private registries of accounts (none when absent). */
  privateRegistry?: PrivateRegistryLookup;
  /**
   * The outbound guard every registry connection goes through (`REGISTRY_ALLOWED_HOSTS`; default one with no host
   * listed: public addresses only). Accounts' private registries get it as it is; the public registries' clients get it
   * with the hosts of `publicUrls` and `cratesApiUrl` added (the operator's own, e.g. the registry emulator on
   * loopback), so a URL a registry names or a redirect elsewhere is still checked.
   */
  outboundGuard?: OutboundGuard;
}

/**
 * The package registries an update run asks, for every account: each package manager's public registry, and an
 * account's private one first when it registered credentials for it, as Dependabot asked a private registry for scoped
 * and private packages. The private registry's answer stands when it knows the package; only when it does not (404)
 * is the public registry asked, so a private package name is never resolved on the public registry while its own
 * registry refuses the credentials (a refusal is an error, not a miss). One client per registry and credential
 * (`@switchyard/registries`: conditional requests, a bounded cache, retries), shared by every run of this process.
 * Every client connects through the outbound guard ({@link RegistryAccessOptions.outboundGuard}): an account's private
 * registry at an address the operator does not allow fails its dependencies as `registry_unreachable`, the reason
 * `… could not be reached: address refused: <why>`.
 */
export class RegistryAccess {
  readonly #options: RegistryAccessOptions;
  /** Clients by package manager, base URL and credentials; at most 1,000 (an expired token's client is let go and closed). */
  readonly #clients = new LRUCache<string, PackageRegistry>({
    max: 1_000,
    dispose: (client, _key, reason) => {
      if (reason === 'evict') void client.close().catch(() => undefined);
    },
  });
  /** The guard of accounts' private registries (tenant-set URLs): the operator's allow-list only. */
  readonly #privateGuard: OutboundGuard;
  /** The guard of the public registries: the operator's allow-list and the hosts of the operator's own registry URLs. */
  readonly #publicGuard: OutboundGuard;

  constructor(options: RegistryAccessOptions) {
    this.#options = options;
    this.#privateGuard = options.outboundGuard ?? createOutboundGuard();
    const operatorUrls = [...Object.values(options.publicUrls), ...(options.cratesApiUrl ? [options.cratesApiUrl] : [])];
    this.#publicGuard = this.#privateGuard.allowing(operatorUrls.flatMap((url) => (url && URL.canParse(url) ? [allowedHostOf(url)] : [])));
  }

  /**
   * What the registries say of `name` for `accountId`'s update run.
   * @returns the package and the registry that knew it, or which registries were asked and did not know it; undefined
   * when this service has no registry adapter for `packageManager`
   * @throws RegistryError when a registry cannot be asked, refuses the credentials or answers nonsense (its `url` names it)
   */
  async fetch(accountId: number, packageManager: PackageManager, name: string): Promise<FoundPackage | PackageNotFound | undefined> {
    const asked: string[] = [];
    for (const { client } of (await this.#chain(accountId, packageManager)) ?? []) {
      asked.push(client.baseUrl);
      const found = await client.fetchPackage(name);
      if (found) return { package: found, registry: client.baseUrl };
    }
    return asked.length === 0 ? undefined : { notFound: true, registries: asked };
  }

  /**
   * What a lockfile needs of `version` of `name` (its dependencies and artifacts), asked in the same order as
   * {@link fetch}, with the registries a resolver may ask itself (npm's): the account's private one with its credentials
   * first, then the public one.
   * @returns the details and the registries; which registries were asked when none knows that version; undefined when
   * this service has no registry adapter for `packageManager` or its adapter does not describe versions (Maven)
   * @throws RegistryError as {@link fetch} does
   */
  async describe(
    accountId: number,
    packageManager: PackageManager,
    name: string,
    version: string,
  ): Promise<{ details: RegistryVersionDetails; registries: LockfileRegistry[] } | PackageNotFound | undefined> {
    const chain = await this.#chain(accountId, packageManager);
    if (!chain || chain.some(({ client }) => !client.describeVersion)) return undefined;
    const registries = chain.map(({ client, credentials }) => ({ url: client.baseUrl, ...(credentials ? { credentials } : {}) }));
    for (const { client } of chain) {
      const details = await client.describeVersion?.(name, version);
      if (details) return { details, registries };
    }
    return { notFound: true, registries: registries.map((r) => r.url) };
  }

  /** The registries asked for `accountId`'s packages, in order (its private one first), or undefined without an adapter. */
  async #chain(
    accountId: number,
    packageManager: PackageManager,
  ): Promise<Array<{ client: PackageRegistry; credentials?: RegistryCredentials }> | undefined> {
    const chain: Array<{ client: PackageRegistry; credentials?: RegistryCredentials }> = [];
    const own = await this.#options.privateRegistry?.(accountId, packageManager);
    if (own) {
      const client = this.#client(packageManager, own.baseUrl, own);
      if (!client) return undefined;
      chain.push({ client, credentials: own.credentials });
    }
    const codeHost = this.#options.codeHostCredentials && isCodeHostPackageManager(packageManager);
    // Without the account's token (an account the App is not on), the code host's public repositories are read without.
    const credentials = codeHost
      ? await this.#options.codeHostCredentials?.(accountId).catch(() => undefined)
      : this.#options.publicCredentials?.[packageManager];
    const client = this.#client(packageManager, this.#options.publicUrls[packageManager], undefined, credentials);
    if (!client) return undefined;
    chain.push(credentials ? { client, credentials } : { client });
    return chain;
  }

  /** Requests made by every client so far, summed (conditional revalidations included, cache hits not). */
  stats(): RegistryRequestStats {
    const total: RegistryRequestStats = { requests: 0, notModified: 0, fullDownloads: 0 };
    for (const client of this.#clients.values()) {
      const stats = client.stats();
      total.requests += stats.requests;
      total.notModified += stats.notModified;
      total.fullDownloads += stats.fullDownloads;
    }
    return total;
  }

  /** Closes every client's connections. */
  async close(): Promise<void> {
    const clients = [...this.#clients.values()];
    this.#clients.clear();
    await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
  }

  #client(
    packageManager: PackageManager,
    baseUrl: string | undefined,
    own: PrivateRegistry | undefined,
    publicCredentials?: RegistryCredentials,
  ): PackageRegistry | undefined {
    const key = `${packageManager} ${baseUrl ?? ''} ${own?.fingerprint ?? fingerprintOf(publicCredentials)}`;
    let client = this.#clients.get(key);
    if (!client) {
      const { cratesApiUrl, timeoutMs } = this.#options;
      const credentials = own?.credentials ?? publicCredentials;
      client = registryFor(packageManager, {
        ...(baseUrl ? { baseUrl } : {}),
        ...(credentials ? { credentials } : {}),
        ...(packageManager === 'cargo' && cratesApiUrl && !own ? { apiUrl: cratesApiUrl } : {}),
        responseTimeoutMs: timeoutMs,
        userAgent: 'switchyard-release-worker',
        // Every connection checked on the address connected to: a refused one is the dependency's `registry_unreachable`.
        agentFactory: (own ? this.#privateGuard : this.#publicGuard).agent,
      });
      if (!client) return undefined;
      this.#clients.set(key, client);
    }
    return client;
  }
}

/**
 * The public "registry" of each package manager whose versions are a code host's tags and branch heads
 * (`CODE_HOST_PACKAGE_MANAGERS` of `@switchyard/registries`: submodules, dep, github_actions): the code host this
 * service uses (`CODE_HOST_API_URL`), unless `REGISTRY_URLS` names another.
 */
export function codeHostRegistryUrls(codeHostApiUrl: string): Partial<Record<PackageManager, string>> {
  const base = codeHostApiUrl.endsWith('/') ? codeHostApiUrl : `${codeHostApiUrl}/`;
  return Object.fromEntries(CODE_HOST_PACKAGE_MANAGERS.map((pm) => [pm, base]));
}

/** The service's own code-host token as the credentials of those package managers' public registry (the code host). */
export function codeHostRegistryCredentials(token: string): Partial<Record<PackageManager, RegistryCredentials>> {
  return Object.fromEntries(CODE_HOST_PACKAGE_MANAGERS.map((pm) => [pm, { token }]));
}

/** Is `packageManager` one whose versions are a code host's tags and branch heads (`CODE_HOST_PACKAGE_MANAGERS`)? */
function isCodeHostPackageManager(packageManager: PackageManager): boolean {
  return (CODE_HOST_PACKAGE_MANAGERS as readonly PackageManager[]).includes(packageManager);
}

/** A non-reversible name of `credentials` for a client's key ('' without): a new token gets a new client. */
function fingerprintOf(credentials: RegistryCredentials | undefined): string {
  return credentials ? createHash('sha256').update(JSON.stringify(credentials)).digest('hex').slice(0, 16) : '';
}

/** Whether `error` is a registry failure (reported per dependency) rather than a fault of this process. */
export function isRegistryError(error: unknown): error is RegistryError {
  return error instanceof RegistryError;
}
