import { REGISTRY_AUTH_TYPES, REGISTRY_CREDENTIAL_PACKAGE_MANAGERS } from '@switchyard/contracts/vocabulary';
import { useState } from 'preact/hooks';
import { useAccount } from '../accounts.ts';
import { createCredential, deleteCredential, listCredentials, patchCredential, type RegistryCredentialResource } from '../api/endpoints.ts';
import { ErrorMessage, fieldErrors, LoadError, Loading, PageTitle } from '../components/common.tsx';
import { SelectField, TextField } from '../components/fields.tsx';
import { Table } from '../components/Table.tsx';
import { Name } from '../components/text.tsx';
import { when } from '../format.ts';
import { useForm, useResource } from '../hooks.ts';
import { Link } from '../router.tsx';

/**
 * An account's private registry credentials (its admins only): what is registered is shown, never a secret; a token or
 * password is write-only (sent on creation or when replaced, and never shown again: the API never returns it).
 */
export function Credentials({ accountId }: { accountId: string }) {
  const { account } = useAccount(accountId);
  const credentials = useResource(() => listCredentials(accountId), [accountId]);
  const [error, setError] = useState<unknown>();
  const [replacing, setReplacing] = useState<string | undefined>();
  const [replaced, setReplaced] = useState<string | undefined>();
  const name = account?.attributes['github-login'] ?? accountId;

  const remove = async (credential: RegistryCredentialResource) => {
    if (!window.confirm(`Delete the ${credential.attributes['package-manager']} credential for ${credential.attributes['base-url']}?`))
      return;
    setError(undefined);
    try {
      await deleteCredential(credential.id);
      credentials.reload();
    } catch (failure) {
      setError(failure);
    }
  };

  return (
    <section>
      <p class="breadcrumbs">
        <Link href={`/accounts/${accountId}`}>{name}</Link>
      </p>
      <PageTitle title={`Registry credentials of ${name}`}>Registry credentials of {name}</PageTitle>
      <p>Update runs ask a registered private registry first, then the public one. Secrets are write-only: they are never shown again.</p>
      <LoadError what="the registry credentials" error={credentials.error} busy={credentials.loading} onRetry={credentials.reload} />
      <ErrorMessage error={error} />
      {credentials.loading && !credentials.data && !credentials.error && <Loading what="credentials" />}
      {credentials.data?.length === 0 && <p>No private registry is registered.</p>}
      {credentials.data && credentials.data.length > 0 && (
        <Table
          caption="Registry credentials"
          captionHidden
          columns={[
            { label: 'Package manager' },
            { label: 'Base URL' },
            { label: 'Authentication' },
            { label: 'Changed' },
            { label: 'Actions', hidden: true },
          ]}
          rows={credentials.data.map((credential) => ({
            key: credential.id,
            header: credential.attributes['package-manager'],
            cells: [
              <Name value={credential.attributes['base-url']} />,
              <>
                {credential.attributes['auth-type'] === 'basic' ? `basic, as ${credential.attributes.username}` : 'token'}{' '}
                <span class="muted">(secret hidden)</span>
              </>,
              when(credential.attributes['updated-at']),
              <>
                <div class="actions">
                  <button
                    type="button"
                    class="secondary"
                    aria-expanded={replacing === credential.id}
                    onClick={() => setReplacing(replacing === credential.id ? undefined : credential.id)}
                  >
                    Replace secret
                  </button>
                  <button type="button" class="danger" onClick={() => remove(credential)}>
                    Delete
                  </button>
                </div>
                {replacing === credential.id && (
                  <ReplaceSecretForm
                    credential={credential}
                    onReplaced={() => {
                      setReplacing(undefined);
                      setReplaced(credential.id);
                      credentials.reload();
                    }}
                  />
                )}
                {replaced === credential.id && (
                  <span role="status" class="ok">
                    Secret replaced.
                  </span>
                )}
              </>,
            ],
          }))}
        />
      )}
      <h2>Register a private registry</h2>
      <CredentialForm accountId={accountId} onCreated={credentials.reload} />
    </section>
  );
}

/**
 * A new secret for a credential (`PATCH /registry_credentials/{id}`): a token, or a password for basic auth. The field
 * is cleared once sent, whatever the answer.
 */
function ReplaceSecretForm({ credential, onReplaced }: { credential: RegistryCredentialResource; onReplaced: () => void }) {
  const member = credential.attributes['auth-type'] === 'basic' ? 'password' : 'token';
  const { values, setValues, set, error, busy, submitWith } = useForm({ secret: '' });
  const submit = submitWith(async () => {
    const secret = values.secret;
    setValues(() => ({ secret: '' }));
    await patchCredential(credential.id, { [member]: secret });
    onReplaced();
  });
  return (
    <form onSubmit={submit} aria-label={`New ${member} for ${credential.attributes['base-url']}`}>
      <TextField
        id={`credential-${credential.id}-secret`}
        label={member === 'token' ? 'New token' : 'New password'}
        type="password"
        required
        autocomplete="new-password"
        errors={fieldErrors(error, `/${member}`)}
        value={values.secret}
        onValue={(value) => set('secret', value)}
      />
      <ErrorMessage error={error} />
      <button type="submit" disabled={busy}>
        {busy ? 'Saving…' : 'Save the new secret'}
      </button>
    </form>
  );
}

/** The form of a new credential; the secret field is cleared once sent. */
function CredentialForm({ accountId, onCreated }: { accountId: string; onCreated: () => void }) {
  const empty = { 'package-manager': 'npm_and_yarn', 'base-url': '', 'auth-type': 'token', token: '', username: '', password: '' };
  const { values, setValues, set, error, busy, submitWith } = useForm(empty);
  const submit = submitWith(async () => {
    const secret: Record<string, string> =
      values['auth-type'] === 'token' ? { token: values.token } : { username: values.username, password: values.password };
    // The secret leaves the form whatever the answer: a refused one is typed again.
    setValues((previous) => ({ ...previous, token: '', password: '' }));
    await createCredential({
      'account-id': accountId,
      'package-manager': values['package-manager'],
      'base-url': values['base-url'],
      'auth-type': values['auth-type'],
      ...secret,
    });
    setValues(() => empty);
    onCreated();
  });

  const text = (name: 'base-url' | 'token' | 'username' | 'password', label: string, type: 'url' | 'text' | 'password', hint?: string) => (
    <TextField
      id={`credential-${name}`}
      label={label}
      hint={hint}
      type={type}
      required
      autocomplete={type === 'password' ? 'new-password' : 'off'}
      errors={fieldErrors(error, `/${name}`)}
      value={values[name]}
      onValue={(value) => set(name, value)}
    />
  );

  return (
    <form onSubmit={submit} aria-label="New registry credential">
      <div class="row">
        <SelectField
          id="credential-package-manager"
          label="Package manager"
          errors={fieldErrors(error, '/package-manager')}
          options={REGISTRY_CREDENTIAL_PACKAGE_MANAGERS}
          value={values['package-manager']}
          onValue={(value) => set('package-manager', value)}
        />
        {text('base-url', 'Base URL', 'url', 'e.g. https://npm.example.com/')}
        <SelectField
          id="credential-auth-type"
          label="Authentication"
          errors={fieldErrors(error, '/auth-type')}
          options={REGISTRY_AUTH_TYPES}
          value={values['auth-type']}
          onValue={(value) => set('auth-type', value)}
        />
      </div>
      <div class="row">
        {values['auth-type'] === 'token' ? (
          text('token', 'Token', 'password', 'Write-only: never shown again')
        ) : (
          <>
            {text('username', 'Username', 'text')}
            {text('password', 'Password', 'password', 'Write-only: never shown again')}
          </>
        )}
      </div>
      <ErrorMessage error={error} />
      <button type="submit" disabled={busy}>
        {busy ? 'Saving…' : 'Register'}
      </button>
    </form>
  );
}
