import { refreshAccounts } from '../accounts.ts';
import { listAccounts } from '../api/endpoints.ts';
import { ErrorMessage, PageTitle } from '../components/common.tsx';
import { TextField } from '../components/fields.tsx';
import { useForm } from '../hooks.ts';
import { navigate } from '../router.tsx';
import { storeToken } from '../session.ts';

/**
 * Log in with a code host token: it is checked with `GET /accounts` and, when the API takes it, kept in this tab's
 * session storage. A refused token is not kept, and the API's own message is shown.
 */
export function Login() {
  const { values, set, error, busy, submitWith } = useForm({ token: '' });
  const token = values.token.trim();
  const submit = submitWith(async () => {
    await listAccounts(token);
    storeToken(token);
    refreshAccounts();
    navigate('/accounts', true);
  });

  return (
    <section class="narrow">
      <PageTitle title="Log in">Log in</PageTitle>
      <p>
        Use your code host token (a GitHub personal access token, or <code>demo-token-alice</code> with the demo data). The dashboard calls
        this service's public API with it, as <code>Authorization: Personal …</code>.
      </p>
      <p class="notice">
        Your token stays in this browser tab's session storage and is sent nowhere but to this API. It is never put in an address, and it is
        forgotten when you close the tab or log out.
      </p>
      <form onSubmit={submit}>
        <TextField id="token" label="Token" type="password" required value={values.token} onValue={(value) => set('token', value)} />
        <ErrorMessage error={error} />
        <button type="submit" disabled={busy || token === ''}>
          {busy ? 'Checking…' : 'Log in'}
        </button>
      </form>
    </section>
  );
}
