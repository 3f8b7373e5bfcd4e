import { useEffect, useState } from 'preact/hooks';
import { refreshAccounts, useAccount } from '../accounts.ts';
import { createConfig, deleteConfig, patchConfig, removeIgnore, type UpdateConfigResource } from '../api/endpoints.ts';
import { BumpNowButton } from '../components/BumpNowButton.tsx';
import { ConfigFilePanel } from '../components/ConfigFilePanel.tsx';
import { ConfigForm } from '../components/ConfigForm.tsx';
import { ErrorMessage, LoadError, Loading, PageTitle } from '../components/common.tsx';
import { GroupList } from '../components/GroupList.tsx';
import { IgnoreList } from '../components/IgnoreList.tsx';
import { when } from '../format.ts';
import { useResource } from '../hooks.ts';
import { refreshRepoNames } from '../repo-names.ts';
import { findRepo } from '../repos.ts';
import { Link } from '../router.tsx';

/** A repo's update configs: each with its schedule and `next-run-at`, to edit, delete, run now; and a form for a new one. */
export function RepoConfigs({ accountId, repoId }: { accountId: string; repoId: string }) {
  const { account, error: accountError } = useAccount(accountId);
  const found = useResource(async () => (account ? findRepo(account, repoId) : undefined), [account?.id, repoId]);
  const [configs, setConfigs] = useState<UpdateConfigResource[]>([]);
  const [editing, setEditing] = useState<string | undefined>();
  const [error, setError] = useState<unknown>();
  useEffect(() => setConfigs(found.data?.configs ?? []), [found.data]);

  const repo = found.data?.repo;
  const name = repo?.attributes.name ?? `repo ${repoId}`;

  const create = async (attributes: Record<string, string | boolean | number | null>) => {
    if (!account) return;
    const created = await createConfig({
      ...attributes,
      'repo-id': Number(repoId),
      'account-id': account.id,
      'account-type': account.attributes['github-account-type'],
    });
    setConfigs((previous) => [...previous, created]);
    refreshRepoNames();
  };
  const remove = async (config: UpdateConfigResource) => {
    if (!window.confirm(`Delete the ${config.attributes['package-manager']} config of ${config.attributes.directory}?`)) return;
    setError(undefined);
    try {
      await deleteConfig(config.id);
      setConfigs((previous) => previous.filter((each) => each.id !== config.id));
    } catch (failure) {
      setError(failure);
    }
  };

  const unignore = async (config: UpdateConfigResource, ignoreId: string) => {
    setError(undefined);
    try {
      await removeIgnore(config.id, ignoreId);
      const ignores = config.attributes.ignores.filter((each) => each.id !== ignoreId);
      setConfigs((previous) =>
        previous.map((each) => (each.id === config.id ? { ...each, attributes: { ...each.attributes, ignores } } : each)),
      );
    } catch (failure) {
      setError(failure);
    }
  };

  return (
    <section>
      <p class="breadcrumbs">
        <Link href={`/accounts/${accountId}/repos`}>Repos of {account?.attributes['github-login'] ?? accountId}</Link>
      </p>
      <PageTitle title={name}>{name}</PageTitle>
      <LoadError what="the account" error={accountError} onRetry={refreshAccounts} />
      <LoadError what="the repo and its update configs" error={found.error} busy={found.loading} onRetry={found.reload} />
      {found.loading && !found.data && !found.error && <Loading what="the repo" />}
      {!found.loading && account && !repo && !found.error && <p>The account has no repo {repoId}.</p>}
      {repo && (
        <>
          <p class="muted">
            {repo.attributes.private ? 'Private' : 'Public'} · default branch {repo.attributes['default-branch']} ·{' '}
            <a href={repo.attributes['github-url']} rel="noreferrer">
              on the code host
            </a>
          </p>
          {repo.attributes['config-file'] && <ConfigFilePanel file={repo.attributes['config-file']} />}
          <h2>Update configs</h2>
          <ErrorMessage error={error} />
          {configs.length === 0 && <p>No update config yet: the repo is inactive.</p>}
          <ul class="cards">
            {configs.map((config) => (
              <li key={config.id} class="card">
                <article aria-labelledby={`config-${config.id}`}>
                  <h3 id={`config-${config.id}`}>
                    {config.attributes['package-manager']} in {config.attributes.directory}
                  </h3>
                  <dl class="facts">
                    <dt>Schedule</dt>
                    <dd>{config.attributes['update-schedule']}</dd>
                    <dt>Next run</dt>
                    <dd>
                      {config.attributes['update-schedule'] === 'live'
                        ? 'when a new version is seen'
                        : when(config.attributes['next-run-at'])}
                    </dd>
                    <dt>Target branch</dt>
                    <dd>{config.attributes['target-branch'] ?? 'default branch'}</dd>
                    <dt>Source</dt>
                    <dd>{config.attributes.source === 'api' ? 'this dashboard or the API' : config.attributes.source}</dd>
                    <dt>Automerge</dt>
                    <dd>
                      runtime {config.attributes['automerge-rule-runtime-deps']}, development{' '}
                      {config.attributes['automerge-rule-development-deps']}
                    </dd>
                  </dl>
                  <GroupList groups={config.attributes.groups ?? []} />
                  <IgnoreList ignores={config.attributes.ignores ?? []} onRemove={(ignore) => ignore.id && unignore(config, ignore.id)} />
                  {editing === config.id ? (
                    <ConfigForm
                      idPrefix={`edit-${config.id}`}
                      config={config}
                      onCancel={() => setEditing(undefined)}
                      onSubmit={async (attributes) => {
                        const changed = await patchConfig(config.id, attributes);
                        setConfigs((previous) => previous.map((each) => (each.id === changed.id ? changed : each)));
                        setEditing(undefined);
                      }}
                    />
                  ) : (
                    <div class="actions">
                      <BumpNowButton configId={config.id} />
                      <Link class="button secondary" href={`/update-configs/${config.id}/runs?repo=${repoId}&account=${accountId}`}>
                        Update runs
                      </Link>
                      {config.attributes.source === 'api' && (
                        <>
                          <button type="button" class="secondary" onClick={() => setEditing(config.id)}>
                            Edit
                          </button>
                          <button type="button" class="danger" onClick={() => remove(config)}>
                            Delete
                          </button>
                        </>
                      )}
                    </div>
                  )}
                </article>
              </li>
            ))}
          </ul>
          {!repo.attributes['using-config-file'] && (
            <>
              <h2>New update config</h2>
              <ConfigForm idPrefix="new-config" onSubmit={create} />
            </>
          )}
        </>
      )}
    </section>
  );
}
