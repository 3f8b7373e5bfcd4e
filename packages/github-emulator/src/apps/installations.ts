import { randomBytes } from 'node:crypto';
import { createdAt } from '../representations.ts';
import type { ParsedSeed } from '../seed.ts';
import { type AppPermissions, LEGACY_INSTALLATION_PERMISSIONS } from '../seed-apps.ts';
import { DEFAULT_APP } from '../seed-installations.ts';

/**
 * The GitHub App installations of a world as they are now (the seed's, then installed, uninstalled, suspended and
 * re-selected through the admin hooks) and the installation access tokens minted for them
 * (https://docs.github.com/apps/creating-github-apps/authenticating-with-a-github-app/generating-an-installation-access-token-for-a-github-app).
 * Kept with the world (`persistence/`).
 */

/** One installation of an App on an account. */
export interface InstallationRecord {
  id: number;
  appId: number;
  appSlug: string;
  /** The login of the account it is on, as the seed spells it. */
  account: string;
  repositorySelection: 'all' | 'selected';
  /** The ids of its selected repositories, in the order added (empty for `all`). */
  repositoryIds: number[];
  /** What the account granted. */
  permissions: AppPermissions;
  events: string[];
  /** ISO 8601 in whole seconds. */
  createdAt: string;
  updatedAt: string;
  suspendedAt: string | null;
  /** The id of the user who suspended it. */
  suspendedBy: number | null;
}

/** An installation access token (`ghs_…`). */
export interface InstallationTokenRecord {
  token: string;
  installationId: number;
  /** ISO 8601 in whole seconds. */
  createdAt: string;
  expiresAt: string;
  /** What the token may do: its installation's permissions, or fewer when it was asked for fewer. */
  permissions: AppPermissions;
  /** The repositories it was narrowed to (ids), or null: every repository of its installation. */
  repositoryIds: number[] | null;
}

/** The installations and tokens of a world, as saved. */
export interface AppsStateInit {
  nextInstallationId: number;
  installations: InstallationRecord[];
  tokens: InstallationTokenRecord[];
}

/** How long an installation access token lives on GitHub: one hour. */
export const INSTALLATION_TOKEN_TTL_MS = 3_600_000;

/** One day after `iso`, GitHub's way of writing it (whole seconds). */
const dayAfter = (iso: string) => new Date(Date.parse(iso) + 86_400_000).toISOString().replace('.000Z', 'Z');

/**
 * The installations of a fresh world: the seed's, with their App's slug, the permissions and events they grant (their
 * own, else their App's, else {@link LEGACY_INSTALLATION_PERMISSIONS} for an App the seed does not describe), and their
 * selected repositories by id; no tokens.
 */
export function appsFromSeed(seed: ParsedSeed): AppsStateInit {
  const apps = new Map(seed.apps.map((app) => [app.id, app]));
  const repoIds = new Map(seed.repos.map((repo) => [`${repo.owner}/${repo.name}`.toLowerCase(), repo.id]));
  const installations = seed.installations.map((entry): InstallationRecord => {
    const app = apps.get(entry.appId);
    const created = createdAt(entry);
    return {
      id: entry.id,
      appId: entry.appId,
      appSlug: app?.slug ?? entry.appSlug ?? DEFAULT_APP.slug,
      account: entry.account,
      repositorySelection: entry.repositorySelection,
      repositoryIds: entry.repositories.flatMap((name) => repoIds.get(`${entry.account}/${name}`.toLowerCase()) ?? []),
      permissions: { ...(entry.permissions ?? app?.permissions ?? LEGACY_INSTALLATION_PERMISSIONS) },
      events: [...(entry.events ?? app?.events ?? [])],
      createdAt: created,
      updatedAt: dayAfter(created),
      suspendedAt: null,
      suspendedBy: null,
    };
  });
  const highest = installations.reduce((max, installation) => Math.max(max, installation.id), 0);
  return { nextInstallationId: highest + 1, installations, tokens: [] };
}

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A new installation access token: `ghs_` and 36 random letters and digits, the shape of GitHub's. */
export function newInstallationToken(): string {
  const bytes = randomBytes(36);
  return `ghs_${[...bytes].map((byte) => ALPHANUMERIC[byte % ALPHANUMERIC.length]).join('')}`;
}

/**
 * The installations and tokens of one world, in memory. Reads give the records themselves: change them only through
 * the methods, which keep `updatedAt` and the tokens in step.
 */
export class AppsState {
  private readonly byId = new Map<number, InstallationRecord>();
  private readonly tokens = new Map<string, InstallationTokenRecord>();
  private nextId: number;

  constructor(init: AppsStateInit) {
    for (const installation of init.installations) this.byId.set(installation.id, installation);
    for (const token of init.tokens) this.tokens.set(token.token, token);
    this.nextId = init.nextInstallationId;
  }

  /** Every installation, by id. */
  installations(): InstallationRecord[] {
    return [...this.byId.values()].sort((a, b) => a.id - b.id);
  }

  /** The installation `id`, or undefined (never, or uninstalled). */
  installation(id: number): InstallationRecord | undefined {
    return this.byId.get(id);
  }

  /** The installation of App `appId` on the account `login` (case-insensitive), or undefined. */
  installationOn(appId: number, login: string): InstallationRecord | undefined {
    return this.installations().find((i) => i.appId === appId && i.account.toLowerCase() === login.toLowerCase());
  }

  /** Adds an installation (the next id) made at `at`. */
  install(
    entry: Omit<InstallationRecord, 'id' | 'createdAt' | 'updatedAt' | 'suspendedAt' | 'suspendedBy'>,
    at: string,
  ): InstallationRecord {
    const record: InstallationRecord = { ...entry, id: this.nextId, createdAt: at, updatedAt: at, suspendedAt: null, suspendedBy: null };
    this.nextId += 1;
    this.byId.set(record.id, record);
    return record;
  }

  /** Removes an installation and revokes its tokens; returns it as it was, or undefined when there is none. */
  uninstall(id: number): InstallationRecord | undefined {
    const record = this.byId.get(id);
    if (!record) return undefined;
    this.byId.delete(id);
    for (const [token, entry] of this.tokens) if (entry.installationId === id) this.tokens.delete(token);
    return record;
  }

  /** Suspends (`by` a user id) or unsuspends an installation at `at`. */
  setSuspended(record: InstallationRecord, by: number | null, at: string): void {
    record.suspendedAt = by === null ? null : at;
    record.suspendedBy = by;
    record.updatedAt = at;
  }

  /** Adds and removes selected repositories (ids) of a `selected` installation at `at`. */
  changeRepositories(record: InstallationRecord, added: readonly number[], removed: readonly number[], at: string): void {
    const gone = new Set(removed);
    record.repositoryIds = [
      ...record.repositoryIds.filter((id) => !gone.has(id)),
      ...added.filter((id) => !record.repositoryIds.includes(id)),
    ];
    record.updatedAt = at;
  }

  /** Sets what the account grants (after the App asked for more: `new_permissions_accepted`) at `at`. */
  acceptPermissions(record: InstallationRecord, permissions: AppPermissions, events: readonly string[], at: string): void {
    record.permissions = { ...permissions };
    record.events = [...events];
    record.updatedAt = at;
  }

  /** Keeps a new token, and forgets those expired by `nowMs` (they are refused as unknown ones are). */
  addToken(record: InstallationTokenRecord, nowMs: number): void {
    for (const [token, entry] of this.tokens) if (Date.parse(entry.expiresAt) <= nowMs) this.tokens.delete(token);
    this.tokens.set(record.token, record);
  }

  /** The record of `token` (expired or not), or undefined when it was never minted, was revoked or its installation is gone. */
  token(token: string): InstallationTokenRecord | undefined {
    return this.tokens.get(token);
  }

  /** Revokes `token` (`DELETE /installation/token`). */
  revoke(token: string): void {
    this.tokens.delete(token);
  }

  /** The state to save: every installation, and the tokens not expired at `nowMs`. */
  snapshot(nowMs: number): AppsStateInit {
    return {
      nextInstallationId: this.nextId,
      installations: this.installations(),
      tokens: [...this.tokens.values()].filter((token) => Date.parse(token.expiresAt) > nowMs),
    };
  }
}
