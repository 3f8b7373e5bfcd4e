import {
  type Caller,
  type CodeHost,
  type CodeHostAccount,
  type CodeHostRepo,
  CodeHostView,
  type RepoPermission,
} from '@switchyard/code-host';
import { CreateUpdateConfig, ReposQuery } from '@switchyard/contracts';
import { DomainError, Forbidden, InvalidInput, NotFound } from '@switchyard/service-kit';
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { ConfigDatabase } from '../src/db/schema.ts';
import { syncAndListRepos } from '../src/repo-listing/repo-listing.service.ts';
import { createUpdateConfig } from '../src/update-configs/update-config.service.ts';

// The checks before anything is stored, without HTTP or a database: each refusal is a domain error with the
// detail the API answers with (the integration tests show the statuses and envelopes on the wire).

const ALICE: CodeHostAccount = { id: 1001, login: 'alice', type: 'user' };
const ACME: CodeHostAccount = { id: 2001, login: 'acme', type: 'org' };
const GLOBEX: CodeHostAccount = { id: 2002, login: 'globex', type: 'org' };
const caller: Caller = {
  token: 't',
  tokenHash: 'h',
  user: ALICE,
  accounts: [ALICE, ACME, GLOBEX],
  capability: { kind: 'scopes', scopes: ['repo'] },
};

const repo = (id: number, owner: CodeHostAccount, permission: RepoPermission): CodeHostRepo => ({
  id,
  name: `repo-${id}`,
  fullName: `${owner.login}/repo-${id}`,
  owner,
  private: false,
  fork: false,
  archived: false,
  htmlUrl: `https://github.com/${owner.login}/repo-${id}`,
  language: null,
  defaultBranch: 'main',
  permission,
});
const REPOS = [repo(3101, ACME, 'write'), repo(3201, GLOBEX, 'write'), repo(3203, GLOBEX, 'read')];

const codeHost: CodeHost = {
  currentUser: async () => ({ account: ALICE, capability: caller.capability }),
  organisations: async () => [ACME, GLOBEX],
  organisationRole: async (_token, org) => (org.id === ACME.id ? 'admin' : 'member'),
  listRepos: async (_token, account) => REPOS.filter((r) => r.owner.id === account.id),
  getRepo: async (_token, id) => REPOS.find((r) => r.id === id),
  readFile: async () => undefined,
};
const view = new CodeHostView(codeHost, { ttlMs: 60_000 });

/** A database that is never reached: every refusal below comes before the first query. */
const db = new Kysely<ConfigDatabase>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

const input = (repoId: number, accountId: number, accountType: 'user' | 'org' = 'org') =>
  CreateUpdateConfig.parse({
    'repo-id': repoId,
    'account-id': accountId,
    'account-type': accountType,
    directory: '/',
    'update-schedule': 'daily',
    'package-manager': 'npm_and_yarn',
  });

async function refusal(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof DomainError)) throw new Error(`expected a domain error, got ${String(error)}`);
  return error;
}

describe('createUpdateConfig refuses before storing anything', () => {
  it('an account the caller does not reach: NotFound', async () => {
    const error = await refusal(createUpdateConfig(db, view, caller, input(3101, 2003)));
    expect(error).toBeInstanceOf(NotFound);
    expect(error.message).toBe('No org account 2003 is reachable with this access token');
  });

  it('a repo the caller cannot see: NotFound', async () => {
    const error = await refusal(createUpdateConfig(db, view, caller, input(9999, 2001)));
    expect(error).toBeInstanceOf(NotFound);
    expect(error.message).toBe('No repo 9999 is visible with this access token');
  });

  it('a repo of another account: InvalidInput naming /repo-id', async () => {
    const error = await refusal(createUpdateConfig(db, view, caller, input(3201, 2001)));
    expect(error).toBeInstanceOf(InvalidInput);
    expect(error.message).toBe('Repo 3201 does not belong to account 2001');
    expect(error.errors).toEqual([{ pointer: '#/repo-id', detail: 'does not belong to account 2001' }]);
  });

  it('read permission only: Forbidden', async () => {
    const error = await refusal(createUpdateConfig(db, view, caller, input(3203, 2002)));
    expect(error).toBeInstanceOf(Forbidden);
    expect(error.message).toBe('Changing update configs of globex/repo-3203 needs write or admin permission on it');
  });
});

describe('syncAndListRepos', () => {
  it('refuses an account the caller does not reach with NotFound, whatever the account is', async () => {
    const query = ReposQuery.parse({ 'account-id': '2001', 'account-type': 'user', 'installation-state': 'inactive' });
    const error = await refusal(syncAndListRepos(db, view, caller, query));
    expect(error).toBeInstanceOf(NotFound);
    expect(error.message).toBe('No user account 2001 is reachable with this access token');
  });
});
