import { describe, expect, it } from 'vitest';
import { installationFromWebhook } from '../src/installations/app-installation-webhook.policy.ts';

const account = { id: 2002, login: 'globex', type: 'Organization' };
const installation = (extra: Record<string, unknown> = {}) => ({ id: 5002, account, repository_selection: 'selected', ...extra });
const recorded = {
  id: 5002,
  accountId: 2002,
  accountLogin: 'globex',
  accountType: 'org' as const,
  repositorySelection: 'selected' as const,
  repositoryIds: [3201, 3202],
  suspended: false,
  removed: false,
  revision: 3,
};

/** GitHub's `installation` and `installation_repositories` payloads (https://docs.github.com/webhooks/webhook-events-and-payloads). */
describe('installationFromWebhook: what an installation delivery says the installation is now', () => {
  it('created: the account, its selection and the repositories listed (none for all)', () => {
    expect(
      installationFromWebhook('installation', { action: 'created', installation: installation(), repositories: [{ id: 3201 }] }, undefined),
    ).toEqual({
      id: 5002,
      accountId: 2002,
      accountLogin: 'globex',
      accountType: 'org',
      repositorySelection: 'selected',
      repositoryIds: [3201],
      suspended: false,
      removed: false,
    });
    const all = installationFromWebhook(
      'installation',
      {
        action: 'created',
        installation: { id: 7, account: { id: 1001, login: 'alice', type: 'User' }, repository_selection: 'all' },
        repositories: [{ id: 1 }],
      },
      undefined,
    );
    expect(all).toMatchObject({ accountType: 'user', repositorySelection: 'all', repositoryIds: null });
  });

  it('deleted, suspend, unsuspend: removed or suspended, the selection kept as recorded', () => {
    expect(installationFromWebhook('installation', { action: 'deleted', installation: installation() }, recorded)).toMatchObject({
      removed: true,
      repositoryIds: [3201, 3202],
    });
    expect(
      installationFromWebhook(
        'installation',
        { action: 'suspend', installation: installation({ suspended_at: '2026-11-29T10:00:00Z' }) },
        recorded,
      ),
    ).toMatchObject({ suspended: true });
    expect(
      installationFromWebhook('installation', { action: 'unsuspend', installation: installation() }, { ...recorded, suspended: true }),
    ).toMatchObject({ suspended: false });
  });

  it('installation_repositories: the recorded selection with the added and without the removed ones; all has none', () => {
    const removed = installationFromWebhook(
      'installation_repositories',
      {
        action: 'removed',
        installation: installation(),
        repository_selection: 'selected',
        repositories_removed: [{ id: 3202 }],
        repositories_added: [],
      },
      recorded,
    );
    expect(removed?.repositoryIds).toEqual([3201]);
    const added = installationFromWebhook(
      'installation_repositories',
      {
        action: 'added',
        installation: installation(),
        repository_selection: 'selected',
        repositories_added: [{ id: 3203 }],
        repositories_removed: [],
      },
      recorded,
    );
    expect(added?.repositoryIds).toEqual([3201, 3202, 3203]);
    const toAll = installationFromWebhook(
      'installation_repositories',
      { action: 'added', installation: installation(), repository_selection: 'all' },
      recorded,
    );
    expect(toAll).toMatchObject({ repositorySelection: 'all', repositoryIds: null });
  });

  it('ignores other events and actions, and payloads without an installation or its account', () => {
    expect(installationFromWebhook('push', { installation: installation() }, recorded)).toBeUndefined();
    expect(installationFromWebhook('installation', { action: 'renamed', installation: installation() }, recorded)).toBeUndefined();
    expect(installationFromWebhook('installation', { action: 'deleted', installation: { id: 5002 } }, recorded)).toBeUndefined();
    expect(installationFromWebhook('installation', { action: 'deleted' }, recorded)).toBeUndefined();
    expect(installationFromWebhook('installation', 'not an object', recorded)).toBeUndefined();
  });
});
