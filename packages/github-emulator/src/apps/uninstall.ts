import type { Request } from 'express';
import { type RouteContext, urlsOf } from '../route-helpers.ts';
import type { EmulatedUser } from '../world.ts';
import type { InstallationRecord } from './installations.ts';
import { installationPayload } from './payloads.ts';

/**
 * Uninstalls `record` as GitHub does when an account removes an App or the App deletes its installation
 * (https://docs.github.com/rest/apps/apps#delete-an-installation-for-the-authenticated-app): the installation is gone
 * (its id answers 404), its access tokens are refused from then on (401 `Bad credentials`), and an `installation`
 * webhook `deleted` goes out with the installation as it was, the repositories it covered and `sender`. Shared by
 * `DELETE /app/installations/{id}` (`routes.ts`) and the test hook `DELETE /_emulator/apps/installations/{id}`.
 */
export function uninstallInstallation(req: Request, context: RouteContext, record: InstallationRecord, sender: EmulatedUser): void {
  context.state.apps.uninstall(record.id);
  const urls = urlsOf(req, context);
  context.webhooks.send('installation', () => installationPayload(urls, context.world, 'deleted', record, sender));
}
