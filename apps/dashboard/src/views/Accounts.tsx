import { OPEN_PULL_REQUEST_LIMIT, WEEKDAYS } from '@switchyard/contracts/vocabulary';
import { useState } from 'preact/hooks';
import { refreshAccounts, updateCachedAccount, useAccounts } from '../accounts.ts';
import { type AccountResource, patchAccount } from '../api/endpoints.ts';
import { ErrorMessage, fieldErrors, LoadError, Loading, PageTitle } from '../components/common.tsx';
import { SelectField, TextField } from '../components/fields.tsx';
import { useForm } from '../hooks.ts';
import { Link } from '../router.tsx';

/** The token's accounts, each with its settings; an account's admins can change them (`PATCH /accounts/{id}`). */
export function Accounts() {
  const { accounts, error } = useAccounts();
  return (
    <section>
      <PageTitle title="Accounts">Accounts</PageTitle>
      <ol class="flow" aria-label="How it works">
        <li>Open an account's repos and create an update config for a repo.</li>
        <li>"Bump now" runs it at once (or its schedule does): watch each dependency being checked.</li>
        <li>The pull-request jobs it records become pull requests on the code host.</li>
        <li>A release notification scans every config that uses a package, across the account's repos.</li>
      </ol>
      <LoadError what="your accounts" error={error} onRetry={refreshAccounts} />
      {!accounts && !error && <Loading what="accounts" />}
      {accounts?.length === 0 && <p>This token reaches no account.</p>}
      <ul class="cards">
        {accounts?.map((account) => (
          <li key={account.id} class="card">
            <AccountCard account={account} />
          </li>
        ))}
      </ul>
    </section>
  );
}

const FLAGS = [
  ['automatically-rebase-prs', 'Rebase pull requests automatically'],
  ['create-merge-commits', 'Create merge commits'],
  ['limit-initial-update-runs', 'Limit the first update run of a config'],
  ['limit-open-pull-requests', `Limit open pull requests (${OPEN_PULL_REQUEST_LIMIT} per config)`],
] as const;

type Settings = Pick<AccountResource['attributes'], 'update-run-time' | 'weekly-update-run-day' | 'time-zone' | (typeof FLAGS)[number][0]>;

const settingsOf = (account: AccountResource): Settings => ({
  'update-run-time': account.attributes['update-run-time'],
  'weekly-update-run-day': account.attributes['weekly-update-run-day'],
  'time-zone': account.attributes['time-zone'],
  'automatically-rebase-prs': account.attributes['automatically-rebase-prs'],
  'create-merge-commits': account.attributes['create-merge-commits'],
  'limit-initial-update-runs': account.attributes['limit-initial-update-runs'],
  'limit-open-pull-requests': account.attributes['limit-open-pull-requests'],
});

/** One account: where to go from it, and its settings form. */
function AccountCard({ account }: { account: AccountResource }) {
  const a = account.attributes;
  const form = useForm<Settings>(() => settingsOf(account));
  const { values: settings, error, busy } = form;
  const [saved, setSaved] = useState(false);
  const id = (name: string) => `account-${account.id}-${name}`;
  const set = <K extends keyof Settings>(name: K, value: Settings[K]) => {
    setSaved(false);
    form.set(name, value);
  };
  const save = form.submitWith(async () => {
    const changed = await patchAccount(account.id, settings);
    updateCachedAccount(changed);
    form.setValues(() => settingsOf(changed));
    setSaved(true);
  });

  return (
    <article aria-labelledby={id('name')}>
      <h2 id={id('name')}>
        {a['github-login']}{' '}
        <span class="muted">
          ({a['github-account-type'] === 'org' ? 'organisation' : 'user'} {account.id})
        </span>
      </h2>
      <p class="links">
        <Link href={`/accounts/${account.id}`}>Overview</Link>
        <Link href={`/accounts/${account.id}/repos`}>Repos</Link>
        <Link href={`/pull-request-jobs`}>Pull-request jobs</Link>
        <Link href={`/accounts/${account.id}/credentials`}>Registry credentials</Link>
      </p>
      <form onSubmit={save} aria-label={`Settings of ${a['github-login']}`}>
        <fieldset>
          <legend>Settings (admins can change them)</legend>
          <div class="row">
            <TextField
              id={id('time')}
              label="Update run time"
              type="time"
              required
              errors={fieldErrors(error, '/update-run-time')}
              value={settings['update-run-time']}
              onValue={(value) => set('update-run-time', value)}
            />
            <SelectField
              id={id('day')}
              label="Weekly run day"
              errors={fieldErrors(error, '/weekly-update-run-day')}
              options={WEEKDAYS}
              value={settings['weekly-update-run-day']}
              onValue={(value) => set('weekly-update-run-day', value as Settings['weekly-update-run-day'])}
            />
            <TextField
              id={id('zone')}
              label="Time zone"
              hint="IANA name, e.g. Europe/Paris"
              required
              errors={fieldErrors(error, '/time-zone')}
              value={settings['time-zone']}
              onValue={(value) => set('time-zone', value)}
            />
          </div>
          {FLAGS.map(([name, label]) => (
            <div class="check" key={name}>
              <input id={id(name)} type="checkbox" checked={settings[name]} onChange={(event) => set(name, event.currentTarget.checked)} />
              <label for={id(name)}>{label}</label>
            </div>
          ))}
        </fieldset>
        <ErrorMessage error={error} />
        <div class="actions">
          <button type="submit" disabled={busy}>
            {busy ? 'Saving…' : 'Save settings'}
          </button>
          {saved && (
            <span role="status" class="ok">
              Saved.
            </span>
          )}
        </div>
      </form>
    </article>
  );
}
