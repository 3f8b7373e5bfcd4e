import { installationCovers } from './apps/access.ts';
import { simpleInstallation } from './apps/representations.ts';
import type { EmulatorState } from './repo-state.ts';
import type { WebhookEvent, WebhookSender } from './webhooks.ts';
import type { EmulatedRepo } from './world.ts';

/**
 * The repository events the emulator sends (`push`, `pull_request`, `status`, `issues`, `issue_comment`;
 * https://docs.github.com/webhooks/webhook-events-and-payloads), not those of an App's installations themselves.
 */
export type RepositoryEvent = Exclude<WebhookEvent, 'installation' | 'installation_repositories'>;

/**
 * Sends a repository's webhook `event` for `repo` as GitHub delivers it to the Apps installed there
 * (https://docs.github.com/apps/creating-github-apps/registering-a-github-app/using-webhooks-with-github-apps): once
 * for each installation covering `repo` now (all of its account's repositories, or the selected ones), with GitHub's
 * `installation` key (`{ id, node_id }`, `simple-installation`) added to the payload `build` makes; none for a
 * suspended installation ("When a GitHub App is suspended, the app's access to the GitHub API or webhook events is
 * blocked for that account", https://docs.github.com/rest/apps/apps#suspend-an-app-installation); and once without the
 * key when no installation covers it (a repository webhook's delivery). The emulator has one webhook URL for all, so a
 * repository covered by two Apps' installations gets two deliveries; an installation's `events` do not filter them.
 * `build` runs at most once, at once (see {@link WebhookSender.send}).
 */
export function sendRepositoryEvent(
  context: { webhooks: WebhookSender; state: EmulatorState },
  repo: EmulatedRepo,
  event: RepositoryEvent,
  build: () => object,
): void {
  const covering = context.state.apps.installations().filter((record) => installationCovers(record, repo));
  if (covering.length === 0) {
    context.webhooks.send(event, build);
    return;
  }
  let payload: object | undefined;
  for (const record of covering) {
    if (record.suspendedAt !== null) continue;
    context.webhooks.send(event, () => {
      payload ??= build();
      return { ...payload, installation: simpleInstallation(record) };
    });
  }
}
