import { CodeHostError, type CodeHostInstallation } from '@switchyard/code-host';
import { AccountsDocument, type EventEnvelope } from '@switchyard/contracts';
import { request } from '@switchyard/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALICE, BIGCO, BOB, type ConfigHarness, startConfigHarness } from './harness.ts';

/** What the code host answers for app installations instead of the emulator, while set. */
let override: CodeHostInstallation[] | CodeHostError | undefined;

describe('config-svc: installation attributes of accounts from the code host', () => {
  let h: ConfigHarness;
  beforeAll(async () => {
    h = await startConfigHarness('config_installations', {
      // Nothing cached: every request asks the code host again, so a change there shows at once.
      env: { CODE_HOST_CACHE_TTL_MS: '0' },
      wrapCodeHost: (inner) => ({
        ...inner,
        listInstallations: async (token) => {
          if (override instanceof CodeHostError) throw override;
          return override ?? (await inner.listInstallations?.(token)) ?? [];
        },
      }),
    });
  });
  afterAll(() => h?.close());

  const accounts = async (token: string) => {
    const res = await request(h.url, 'GET', '/accounts', { headers: { authorization: `Personal ${token}` } });
    expect(res.status, res.text).toBe(200);
    return new Map(
      AccountsDocument.parse(res.body).data.map((a) => [
        a.attributes['github-login'],
        [a.attributes['current-installation-id'], a.attributes['access-granted-to-all-repos']] as const,
      ]),
    );
  };
  const eventsOf = (type: string, id: number) =>
    h.events
      .filter((e: EventEnvelope) => e.type === type && (e.data as { id: number }).id === id)
      .map((e) => e.data as Record<string, unknown>);

  it('takes the installation id and `repositorySelection === all` of each installed account; others keep the fallback', async () => {
    const alice = await accounts(ALICE);
    expect(alice.get('acme')).toEqual([5001, true]);
    expect(alice.get('globex')).toEqual([5002, false]);
    expect(alice.get('alice')).toEqual([5003, false]);
    // bigco has no installation: the number the service assigned, and all repos granted (the defaults).
    const [bigcoId, bigcoAll] = alice.get(BIGCO.login) ?? [];
    expect(Number.isInteger(bigcoId) && ![5001, 5002, 5003, 5004].includes(bigcoId as number)).toBe(true);
    expect(bigcoAll).toBe(true);
    const bob = await accounts(BOB);
    expect(bob.get('initech')).toEqual([5004, true]);
    expect(bob.get('bob')?.[1]).toBe(true);
    const created = await h.waitForEvent((e) => e.type === 'account.created' && (e.data as { id: number }).id === 2002);
    expect(created.data).toMatchObject({ revision: 1, settings: { currentInstallationId: 5002, accessGrantedToAllRepos: false } });
  });

  it('a changed installation bumps the revision and publishes account.updated; an unchanged one writes nothing', async () => {
    // Every account the test above read was created then, its account.created relayed a moment later: wait for each, so
    // that only what follows is counted.
    for (const token of [ALICE, BOB]) {
      const res = await request(h.url, 'GET', '/accounts', { headers: { authorization: `Personal ${token}` } });
      for (const account of AccountsDocument.parse(res.body).data) {
        await h.waitForEvent((e) => e.type === 'account.created' && String((e.data as { id: number }).id) === account.id);
      }
    }
    await accounts(ALICE);
    const before = h.events.length;
    await accounts(ALICE);
    expect(h.events.length).toBe(before);
    expect(eventsOf('account.updated', 2002)).toHaveLength(0);

    override = [
      { id: 6001, accountLogin: 'acme', accountId: 2001, repositorySelection: 'all' },
      { id: 5002, accountLogin: 'globex', accountId: 2002, repositorySelection: 'all' },
      { id: 5003, accountLogin: 'alice', accountId: 1001, repositorySelection: 'selected' },
    ];
    try {
      const alice = await accounts(ALICE);
      expect(alice.get('acme')).toEqual([6001, true]);
      expect(alice.get('globex')).toEqual([5002, true]);
      const acme = await h.waitForEvent((e) => e.type === 'account.updated' && (e.data as { id: number }).id === 2001);
      expect(acme.data).toMatchObject({ revision: 2, settings: { currentInstallationId: 6001, accessGrantedToAllRepos: true } });
      const globex = await h.waitForEvent((e) => e.type === 'account.updated' && (e.data as { id: number }).id === 2002);
      expect(globex.data).toMatchObject({ revision: 2, settings: { currentInstallationId: 5002, accessGrantedToAllRepos: true } });
      await accounts(ALICE);
      expect(eventsOf('account.updated', 1001)).toHaveLength(0);
      expect(eventsOf('account.updated', 2001)).toHaveLength(1);
      expect(eventsOf('account.updated', 2002)).toHaveLength(1);
    } finally {
      override = undefined;
    }
  });

  it('keeps the stored values when an installation disappears, has an id the column cannot hold, or the code host refuses to list them (403 to a PAT)', async () => {
    const stored = await accounts(ALICE);
    // That read put back the seed's installations the test above changed: wait for those two account.updated events (the
    // outbox relay publishes a moment later), so only what follows is counted.
    await h.waitForEvent(
      (e) =>
        e.type === 'account.updated' &&
        (e.data as { id: number; revision: number }).id === 2001 &&
        (e.data as { revision: number }).revision === 3,
    );
    await h.waitForEvent(
      (e) =>
        e.type === 'account.updated' &&
        (e.data as { id: number; revision: number }).id === 2002 &&
        (e.data as { revision: number }).revision === 3,
    );
    const before = h.events.length;
    const tooBig: CodeHostInstallation = { id: 3_000_000_000, accountLogin: 'acme', accountId: 2001, repositorySelection: 'selected' };
    for (const answer of [[], [tooBig], new CodeHostError('forbidden', 'GitHub GET /user/installations: 403', { status: 403 })]) {
      override = answer;
      try {
        expect(await accounts(ALICE)).toEqual(stored);
      } finally {
        override = undefined;
      }
    }
    expect(h.events.length).toBe(before);
  });
});
