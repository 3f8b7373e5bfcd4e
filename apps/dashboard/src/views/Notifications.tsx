import { PACKAGE_MANAGERS } from '@switchyard/contracts/vocabulary';
import { getNotification, type ReleaseNotificationResource, sendNotification } from '../api/endpoints.ts';
import { ErrorMessage, fieldErrors, Glossary, LoadError, Loading, PageTitle, Status } from '../components/common.tsx';
import { SelectField, TextField } from '../components/fields.tsx';
import { Table } from '../components/Table.tsx';
import { Name, Text } from '../components/text.tsx';
import { count, when } from '../format.ts';
import { useForm, useResource } from '../hooks.ts';
import { useRepoNames } from '../repo-names.ts';
import { navigate } from '../router.tsx';
import { PullRequestLink } from './Jobs.tsx';

/** How often a notification being scanned is asked again, in milliseconds. */
const POLL_MS = 1_000;

/**
 * Sends a private release notification (`POST /release_notifications/private`): the organisations the token reaches
 * are scanned for update configs using the package, and the fan-out is then shown as it happens.
 */
export function NotificationForm() {
  const { values, set, error, busy, submitWith } = useForm({ name: '', version: '', 'package-manager': 'npm_and_yarn' });
  const submit = submitWith(async () => navigate(`/release-notifications/${await sendNotification(values)}`));

  return (
    <section class="narrow">
      <PageTitle title="Release notification">Send a release notification</PageTitle>
      <p>
        Tell the service a private package was released. Every update config of the organisations your token reaches that uses it is
        scanned, and pull-request jobs are recorded where the release is an update.
      </p>
      <form onSubmit={submit}>
        <TextField
          id="notification-name"
          label="Package name"
          hint="Maven: groupId:artifactId"
          required
          errors={fieldErrors(error, '/name')}
          value={values.name}
          onValue={(value) => set('name', value)}
        />
        <TextField
          id="notification-version"
          label="Version"
          required
          errors={fieldErrors(error, '/version')}
          value={values.version}
          onValue={(value) => set('version', value)}
        />
        <SelectField
          id="notification-manager"
          label="Package manager"
          errors={fieldErrors(error, '/package-manager')}
          options={PACKAGE_MANAGERS}
          value={values['package-manager']}
          onValue={(value) => set('package-manager', value)}
        />
        <ErrorMessage error={error} />
        <button type="submit" disabled={busy}>
          {busy ? 'Sending…' : 'Send notification'}
        </button>
      </form>
    </section>
  );
}

const scanning = (notification: ReleaseNotificationResource) => ['queued', 'scanning'].includes(notification.attributes.status);
const hasWaitingPulls = (notification: ReleaseNotificationResource) =>
  notification.attributes['pull-requests'].some((pull) => ['pending', 'running'].includes(pull.status));

/** A notification's fan-out as it happens: configs planned, repos scanned, jobs recorded, outcomes per repo, pull requests. */
export function NotificationDetail({ notificationId }: { notificationId: string }) {
  const notification = useResource(
    () => getNotification(notificationId),
    [notificationId],
    POLL_MS,
    (data) => scanning(data) || hasWaitingPulls(data),
  );
  const names = useRepoNames();
  const a = notification.data?.attributes;
  const title = a ? `${a.name} ${a.version}` : 'Release notification';
  const handled = a ? a['repos-scanned'] : 0;
  return (
    <section>
      <PageTitle title={title}>Release notification: {title}</PageTitle>
      <LoadError what="the release notification" error={notification.error} busy={notification.loading} onRetry={notification.reload} />
      {notification.loading && !a && !notification.error && <Loading what="the notification" />}
      {a && (
        <>
          <dl class="facts">
            <dt>Status</dt>
            <dd>
              <Status value={a.status} of="notification" />
              {a.reason && (
                <>
                  {' '}
                  <Text value={a.reason} />
                </>
              )}
            </dd>
            <dt>Package manager</dt>
            <dd>{a['package-manager']}</dd>
            <dt>Received</dt>
            <dd>{when(a['created-at'])}</dd>
            <dt>Finished</dt>
            <dd>{when(a['finished-at'])}</dd>
          </dl>
          <div class="progress">
            <label for="scan-progress">Repos scanned</label>
            <progress id="scan-progress" max={a['configs-total'] ?? 1} value={a['configs-total'] === null ? undefined : handled} />
            <p role="status" aria-live="polite" class="progress-text">
              {a['configs-total'] === null
                ? a.status === 'rejected'
                  ? 'Not scanned.'
                  : 'Planning…'
                : `${count(a['configs-total'], 'config')} planned, ${count(a['repos-scanned'], 'repo')} scanned, ${count(a['jobs-recorded'], 'job')} recorded, ${a['repos-skipped']} skipped, ${a['repos-failed']} failed${scanning(notification.data as ReleaseNotificationResource) ? '…' : '.'}`}
            </p>
          </div>
          {(a.outcomes.length > 0 || a['pull-requests'].length > 0) && (
            <>
              <Table
                caption="Outcomes per repo"
                columns={[{ label: 'Repo' }, { label: 'Outcome' }, { label: 'Reason or pull request' }]}
                rows={[
                  ...a['pull-requests'].map((pull) => ({
                    key: `job ${pull['pull-request-job-id']}`,
                    header: <Name value={names.get(pull['repo-id']) ?? `repo ${pull['repo-id']}`} />,
                    cells: [
                      <Status value="job-recorded" of="scan" />,
                      <>
                        job {pull['pull-request-job-id']} <Status value={pull.status} of="job" /> <PullRequestLink job={pull} />
                      </>,
                    ],
                  })),
                  ...a.outcomes.map((outcome) => ({
                    key: `config ${outcome['update-config-id']}`,
                    header: <Name value={names.get(outcome['repo-id']) ?? `repo ${outcome['repo-id']}`} />,
                    cells: [<Status value={outcome.outcome} of="scan" />, <Text value={outcome.reason} />],
                  })),
                ]}
              />
              <Glossary summary="What each outcome means" of="scan" />
            </>
          )}
        </>
      )}
    </section>
  );
}
