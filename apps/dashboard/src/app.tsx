import { useEffect } from 'preact/hooks';
import { refreshAccounts } from './accounts.ts';
import { Link, match, navigate, useLocation } from './router.tsx';
import { forgetToken, storedToken } from './session.ts';
import { AccountOverview } from './views/AccountOverview.tsx';
import { Accounts } from './views/Accounts.tsx';
import { Credentials } from './views/Credentials.tsx';
import { Jobs } from './views/Jobs.tsx';
import { Login } from './views/Login.tsx';
import { NotificationDetail, NotificationForm } from './views/Notifications.tsx';
import { RepoConfigs } from './views/RepoConfigs.tsx';
import { Repos } from './views/Repos.tsx';
import { RunDetail, Runs } from './views/Runs.tsx';

/** The views by path (app paths, under `/ui`), the first match wins. */
const ROUTES: [string, (params: Record<string, string>) => preact.JSX.Element][] = [
  ['/accounts', () => <Accounts />],
  ['/accounts/:id', ({ id = '' }) => <AccountOverview accountId={id} />],
  ['/accounts/:id/repos', ({ id = '' }) => <Repos accountId={id} />],
  ['/accounts/:id/repos/:repo', ({ id = '', repo = '' }) => <RepoConfigs accountId={id} repoId={repo} />],
  ['/accounts/:id/credentials', ({ id = '' }) => <Credentials accountId={id} />],
  ['/update-configs/:id/runs', ({ id = '' }) => <Runs configId={id} />],
  ['/update-runs/:id', ({ id = '' }) => <RunDetail runId={id} />],
  ['/pull-request-jobs', () => <Jobs />],
  ['/release-notifications', () => <NotificationForm />],
  ['/release-notifications/:id', ({ id = '' }) => <NotificationDetail notificationId={id} />],
];

/** The page: a skip link, the header's navigation, and the view the address names (the login form without a token). */
export function App() {
  const { path } = useLocation();
  const token = storedToken();
  const loggedIn = token !== undefined;

  useEffect(() => {
    if (!loggedIn && path !== '/login') navigate('/login', true);
    else if (loggedIn && (path === '/' || path === '/login')) navigate('/accounts', true);
  }, [loggedIn, path]);

  const logOut = () => {
    forgetToken();
    refreshAccounts();
    navigate('/login');
  };

  let view = <Login />;
  if (loggedIn) {
    view = <NotFound />;
    for (const [pattern, render] of ROUTES) {
      const params = match(pattern, path);
      if (params) {
        view = render(params);
        break;
      }
    }
  }

  return (
    <>
      <a class="skip-link" href="#main">
        Skip to the content
      </a>
      <header class="top">
        <p class="brand">switchyard · dependency updates</p>
        {loggedIn && (
          <nav aria-label="Main">
            <ul>
              <li>
                <Link href="/accounts" aria-current={path.startsWith('/accounts') ? 'page' : undefined}>
                  Accounts
                </Link>
              </li>
              <li>
                <Link href="/pull-request-jobs" aria-current={path.startsWith('/pull-request-jobs') ? 'page' : undefined}>
                  Pull-request jobs
                </Link>
              </li>
              <li>
                <Link href="/release-notifications" aria-current={path.startsWith('/release-notifications') ? 'page' : undefined}>
                  Release notifications
                </Link>
              </li>
              <li>
                <button type="button" class="link" onClick={logOut}>
                  Log out
                </button>
              </li>
            </ul>
          </nav>
        )}
      </header>
      <main id="main" tabIndex={-1}>
        {view}
      </main>
    </>
  );
}

function NotFound() {
  return (
    <section>
      <h1>Not found</h1>
      <p>
        This dashboard has no such page. <Link href="/accounts">Go to the accounts</Link>.
      </p>
    </section>
  );
}
