import type {
  AccountResource,
  PullRequestJobResource,
  PullRequestJobStatus,
  RegistryCredentialResource,
  ReleaseNotificationResource,
  RepoResource,
  UpdateConfigResource,
  UpdateRunResource,
} from '@switchyard/contracts';
import { ApiError, api, query } from './client.ts';

export type {
  AccountResource,
  PullRequestJobResource,
  RegistryCredentialResource,
  ReleaseNotificationResource,
  RepoResource,
  UpdateConfigResource,
  UpdateRunResource,
};

/** A page of a paged list: its items and the next page's number (null on the last page). */
export interface Page<T> {
  items: T[];
  next: number | null;
}

/**
 * The pages of a paged list, page 1 first, while the API names a next one, at most `maxPages`. After the loop, the last
 * page's `next` tells whether the list goes on past the pages read.
 */
export async function* readPages<P extends Page<unknown>>(load: (page: number) => Promise<P>, maxPages: number): AsyncGenerator<P> {
  for (let page: number | null = 1, read = 0; page !== null && read < maxPages; read++) {
    const answer = await load(page);
    yield answer;
    page = answer.next;
  }
}

/** `GET /accounts`: the token's user first, then its organisations. */
export async function listAccounts(token?: string): Promise<AccountResource[]> {
  return (await api<{ data: AccountResource[] }>('GET', '/accounts', undefined, { token })).data;
}

/** `PATCH /accounts/{id}`: changes some settings (the account's admins only); the changed account. */
export async function patchAccount(id: string, attributes: Partial<AccountResource['attributes']>): Promise<AccountResource> {
  return (await api<{ data: AccountResource }>('PATCH', `/accounts/${encodeURIComponent(id)}`, attributes)).data;
}

/** One page of `GET /repos` with the update configs the page's active repos have (`included`). */
export interface ReposPage extends Page<RepoResource> {
  configs: UpdateConfigResource[];
}

/** `GET /repos`: one page (100 inactive repos a page; active ones all on page 1). */
export async function listRepos(account: AccountResource, state: 'active' | 'inactive', page: number): Promise<ReposPage> {
  const path = `/repos${query({
    'account-id': account.id,
    'account-type': account.attributes['github-account-type'],
    'installation-state': state,
    page,
  })}`;
  const body = await api<{ data: RepoResource[]; included: UpdateConfigResource[]; meta: { pages: { next: number | null } } }>('GET', path);
  return { items: body.data, configs: body.included ?? [], next: body.meta.pages.next };
}

/** The attributes a config is created with (`POST /update_configs`). */
export type NewUpdateConfig = Record<string, string | boolean | number | null>;

/** `POST /update_configs`. */
export async function createConfig(attributes: NewUpdateConfig): Promise<UpdateConfigResource> {
  return (await api<{ data: UpdateConfigResource }>('POST', '/update_configs', attributes)).data;
}

/** `GET /update_configs/{id}`. */
export async function getConfig(id: string): Promise<UpdateConfigResource> {
  return (await api<{ data: UpdateConfigResource }>('GET', `/update_configs/${encodeURIComponent(id)}`)).data;
}

/** `PATCH /update_configs/{id}`. */
export async function patchConfig(id: string, attributes: NewUpdateConfig): Promise<UpdateConfigResource> {
  return (await api<{ data: UpdateConfigResource }>('PATCH', `/update_configs/${encodeURIComponent(id)}`, attributes)).data;
}

/** `DELETE /update_configs/{id}`. */
export async function deleteConfig(id: string): Promise<void> {
  await api('DELETE', `/update_configs/${encodeURIComponent(id)}`);
}

/** `DELETE /update_configs/:id/ignores/:ignoreId` (this service's extension): undoes an ignore a person made on the code host. */
export async function removeIgnore(configId: string, ignoreId: string): Promise<void> {
  await api('DELETE', `/update_configs/${encodeURIComponent(configId)}/ignores/${encodeURIComponent(ignoreId)}`);
}

/** How long a request about a config created a moment ago is asked again while the API answers 404, in milliseconds. */
const NEW_CONFIG_PATIENCE_MS = 15_000;

/**
 * `request()`, asked again every second for up to 15 s while the API answers 404: a config created a moment ago
 * reaches the service that runs updates by an event, so that service does not know it for a moment.
 * @throws ApiError the API's refusal (a 404 after that wait, a 403, a 409 …)
 */
export async function patientlyForNewConfig<T>(request: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + NEW_CONFIG_PATIENCE_MS;
  for (;;) {
    try {
      return await request();
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 404 || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  }
}

/**
 * `POST /update_configs/{id}/trigger_update_job` ("bump now"): the run it started, asked again for up to 15 s while the
 * config is new to the service that runs updates ({@link patientlyForNewConfig}).
 * @throws ApiError the API's refusal (a 404 after that wait, a 403, a 409 …)
 */
export async function bumpNow(configId: string): Promise<UpdateRunResource> {
  return patientlyForNewConfig(
    async () => (await api<{ data: UpdateRunResource }>('POST', `/update_configs/${encodeURIComponent(configId)}/trigger_update_job`)).data,
  );
}

/** `GET /update_runs?update-config-id=`: one page, newest first (25 a page). */
export async function listRuns(configId: string, page = 1): Promise<Page<UpdateRunResource>> {
  const body = await api<{ data: UpdateRunResource[]; meta: { pages: { next: number | null } } }>(
    'GET',
    `/update_runs${query({ 'update-config-id': configId, page })}`,
  );
  return { items: body.data, next: body.meta.pages.next };
}

/** `GET /update_runs/{id}`. */
export async function getRun(id: string): Promise<UpdateRunResource> {
  return (await api<{ data: UpdateRunResource }>('GET', `/update_runs/${encodeURIComponent(id)}`)).data;
}

/** Filters of `GET /pull_request_jobs`. */
export interface JobFilters {
  status?: PullRequestJobStatus | undefined;
  'repo-id'?: string | undefined;
  'dependency-name'?: string | undefined;
  'notification-id'?: string | undefined;
}

/** `GET /pull_request_jobs`: one page, newest first (100 a page). */
export async function listJobs(filters: JobFilters, page = 1): Promise<Page<PullRequestJobResource>> {
  const body = await api<{ data: PullRequestJobResource[]; meta?: { pages?: { next?: number | null } } }>(
    'GET',
    `/pull_request_jobs${query({ ...filters, page })}`,
  );
  return { items: body.data, next: body.meta?.pages?.next ?? null };
}

/**
 * `POST /release_notifications/private` with `Prefer: return=representation` (RFC 7240; without it the API answers a
 * bare 204, as the original did): the new notification's id.
 */
export async function sendNotification(body: { name: string; version: string; 'package-manager': string }): Promise<string> {
  const answer = await api<{ data: ReleaseNotificationResource }>('POST', '/release_notifications/private', body, {
    headers: { prefer: 'return=representation' },
  });
  return answer.data.id;
}

/** `GET /release_notifications/{id}`. */
export async function getNotification(id: string): Promise<ReleaseNotificationResource> {
  return (await api<{ data: ReleaseNotificationResource }>('GET', `/release_notifications/${encodeURIComponent(id)}`)).data;
}

/** `GET /registry_credentials?account-id=` (the account's admins). */
export async function listCredentials(accountId: string): Promise<RegistryCredentialResource[]> {
  return (await api<{ data: RegistryCredentialResource[] }>('GET', `/registry_credentials${query({ 'account-id': accountId })}`)).data;
}

/** `POST /registry_credentials`: the secret goes in, never comes back. */
export async function createCredential(body: Record<string, string>): Promise<RegistryCredentialResource> {
  return (await api<{ data: RegistryCredentialResource }>('POST', '/registry_credentials', body)).data;
}

/** `PATCH /registry_credentials/{id}`. */
export async function patchCredential(id: string, body: Record<string, string>): Promise<RegistryCredentialResource> {
  return (await api<{ data: RegistryCredentialResource }>('PATCH', `/registry_credentials/${encodeURIComponent(id)}`, body)).data;
}

/** `DELETE /registry_credentials/{id}`. */
export async function deleteCredential(id: string): Promise<void> {
  await api('DELETE', `/registry_credentials/${encodeURIComponent(id)}`);
}
