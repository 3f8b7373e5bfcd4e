import { jsonContent, jsonSchema } from '../openapi-helpers.ts';
import { RepoUpgradeResource } from './config-files.ts';
import { DependencyApiErrors } from './errors.ts';
import {
  CreateRegistryCredential,
  PatchRegistryCredential,
  RegistryCredentialDocument,
  RegistryCredentialsDocument,
} from './registry-credentials.ts';
import { PULL_REQUEST_JOB_STATUSES, PullRequestJobResource, ReleaseNotificationBody, ReleaseNotificationResource } from './release.ts';
import { CreateUpdateConfig, PatchAccount, PatchUpdateConfig } from './requests.ts';
import { AccountDocument, AccountsDocument, ReposDocument, UpdateConfigDocument } from './resources.ts';
import { UpdateRunDocument, UpdateRunsDocument } from './update-runs.ts';

/** Paths and component schemas of the dependency update API (https://github.com/dependabot/api-docs), served by config-svc and release-svc. */
export function dependencyOpenApi(): { paths: Record<string, unknown>; schemas: Record<string, unknown> } {
  const tags = ['dependency update service'];
  const security = [{ personalToken: [] }];
  const errors = (description: string) => ({ description, content: jsonContent('DependencyApiErrors') });
  const auth = {
    '401': errors('The code host rejected the token, or the header is not `Personal <token>` / `Bearer <token>`'),
    '403': errors('No `Authorization` header, or not enough permission on the repo'),
  };
  const idParam = { name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^[0-9]+$' } };
  /**
   * GET, PATCH and DELETE of one resource by its numeric id. `document` and `patchBody` name components; `found`,
   * `changed` and `notFound` describe GET's and PATCH's 200 and every 404; `patchErrors` are PATCH's other answers by
   * status (a 400 is listed before the authentication answers, the others after the 404, as everywhere in this document).
   */
  const oneResource = (resource: {
    document: string;
    patchBody: string;
    summaries: { get: string; patch: string; delete: string };
    found: string;
    changed: string;
    notFound: string;
    patchErrors: { '400': string } & Record<string, string>;
    /** DELETE's answers besides 204, the authentication answers and the 404, by status. */
    deleteErrors?: Record<string, string>;
  }) => {
    const { '400': invalid, ...later } = resource.patchErrors;
    const notFound = { '404': errors(resource.notFound) };
    const operation = (summary: string) => ({ tags, security, summary, parameters: [idParam] });
    return {
      get: {
        ...operation(resource.summaries.get),
        responses: { '200': { description: resource.found, content: jsonContent(resource.document) }, ...auth, ...notFound },
      },
      patch: {
        ...operation(resource.summaries.patch),
        requestBody: { required: true, content: jsonContent(resource.patchBody) },
        responses: {
          '200': { description: resource.changed, content: jsonContent(resource.document) },
          '400': errors(invalid),
          ...auth,
          ...notFound,
          ...Object.fromEntries(Object.entries(later).map(([status, description]) => [status, errors(description)])),
        },
      },
      delete: {
        ...operation(resource.summaries.delete),
        responses: {
          '204': { description: 'Deleted' },
          ...auth,
          ...notFound,
          ...Object.fromEntries(Object.entries(resource.deleteErrors ?? {}).map(([status, description]) => [status, errors(description)])),
        },
      },
    };
  };
  return {
    paths: {
      '/accounts': {
        get: {
          tags,
          security,
          summary: 'Accounts the token reaches: its user first, then its organisations',
          responses: { '200': { description: 'Accounts', content: jsonContent('AccountsDocument') }, ...auth },
        },
      },
      '/accounts/{id}': {
        patch: {
          tags,
          security,
          summary: "Change an account's settings (this service's extension): its admins only",
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^[0-9]+$' } }],
          requestBody: { required: true, content: jsonContent('PatchAccount') },
          responses: {
            '200': { description: 'The changed account', content: jsonContent('AccountDocument') },
            '400': errors('Invalid body'),
            ...auth,
            '404': errors('No such account reachable with this token'),
          },
        },
      },
      '/repos': {
        get: {
          tags,
          security,
          summary: 'Repos of an account, active (with update configs) or inactive (100 a page)',
          parameters: [
            { name: 'account-id', in: 'query', required: true, schema: { type: 'string', pattern: '^[0-9]+$' } },
            { name: 'account-type', in: 'query', required: true, schema: { type: 'string', enum: ['org', 'user'] } },
            { name: 'installation-state', in: 'query', required: true, schema: { type: 'string', enum: ['active', 'inactive'] } },
            { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1, default: 1 } },
          ],
          responses: {
            '200': { description: 'A page of repos; `meta.pages.next` is null on the last page', content: jsonContent('ReposDocument') },
            '400': errors('Invalid query'),
            ...auth,
            '404': errors('No such account reachable with this token'),
          },
        },
      },
      '/update_configs': {
        post: {
          tags,
          security,
          summary: 'Create an update config',
          requestBody: { required: true, content: jsonContent('CreateUpdateConfig') },
          responses: {
            '201': { description: 'Created', content: jsonContent('UpdateConfigDocument') },
            '400': errors('Invalid body, a repo of another account, or the config already exists'),
            ...auth,
            '404': errors('Account or repo not reachable with this token'),
            '409': errors(
              'The repo has a config file (`.github/dependabot.yml`, `.dependabot/config.yml`): its update configs come from there (the file named)',
            ),
            '422': errors("The directory holds none of the package manager's files on the config's branch (the file looked for named)"),
          },
        },
      },
      '/update_configs/{id}': oneResource({
        document: 'UpdateConfigDocument',
        patchBody: 'PatchUpdateConfig',
        summaries: { get: 'One update config', patch: 'Change some attributes of an update config', delete: 'Delete an update config' },
        found: 'The config',
        changed: 'The changed config',
        notFound: 'No such config',
        patchErrors: {
          '400': 'Invalid body, or the change collides with another config',
          '409': "The config comes from the repo's config file, which alone may change it (the file named)",
          '422': "The new target branch holds none of the package manager's files in the config's directory",
        },
        deleteErrors: { '409': "The config comes from the repo's config file, which alone may change it (the file named)" },
      }),
      '/registry_credentials': {
        get: {
          tags,
          security,
          summary: "An account's private registry credentials (this service's extension): its admins only; secrets never shown",
          parameters: [{ name: 'account-id', in: 'query', required: true, schema: { type: 'string', pattern: '^[0-9]+$' } }],
          responses: {
            '200': { description: 'The credentials, by package manager', content: jsonContent('RegistryCredentialsDocument') },
            '400': errors('Invalid query'),
            ...auth,
            '404': errors('No such account reachable with this token'),
          },
        },
        post: {
          tags,
          security,
          summary: 'Register a private registry for one package manager of an account: base URL and token, or username and password',
          requestBody: { required: true, content: jsonContent('CreateRegistryCredential') },
          responses: {
            '201': {
              description: 'Created (`Location` names it); the secret is not returned',
              content: jsonContent('RegistryCredentialDocument'),
            },
            '400': errors('Invalid body: each invalid member named'),
            ...auth,
            '404': errors('No such account reachable with this token'),
            '409': errors('The account already has a credential for this package manager'),
            '422': errors(
              'The base URL is at an address the operator does not allow (loopback, private, link-local, …, or a name resolving to one; `REGISTRY_ALLOWED_HOSTS`), the reason on `/base-url`',
            ),
            '503': errors('The service has no `SECRETS_KEY`, so it cannot store secrets; nothing was stored'),
          },
        },
      },
      '/registry_credentials/{id}': oneResource({
        document: 'RegistryCredentialDocument',
        patchBody: 'PatchRegistryCredential',
        summaries: {
          get: 'One registry credential, without its secret',
          patch: "Change a credential's base URL, auth type or secret (a new base URL needs the secret again)",
          delete: 'Delete a registry credential',
        },
        found: 'The credential',
        changed: 'The changed credential',
        notFound: 'No such credential reachable with this token',
        patchErrors: {
          '400': 'Invalid body',
          '422': 'The new base URL is at an address the operator does not allow (`REGISTRY_ALLOWED_HOSTS`), the reason on `/base-url`',
          '503': 'The service has no `SECRETS_KEY`, so it cannot store secrets; nothing was changed',
        },
      }),
      '/update_configs/{id}/trigger_update_job': {
        post: {
          tags,
          security,
          summary: '"Bump now": start an update run of the config at once (the original\'s undocumented endpoint)',
          parameters: [idParam],
          responses: {
            '202': { description: 'The queued run; `Location` is its URL', content: jsonContent('UpdateRunDocument') },
            '400': errors('Invalid id'),
            ...auth,
            '404': errors('No such config visible with this token'),
          },
        },
      },
      '/update_runs': {
        get: {
          tags,
          security,
          summary: "A config's update runs, newest first, 25 a page (this service's extension)",
          parameters: [
            { name: 'update-config-id', in: 'query', required: true, schema: { type: 'string', pattern: '^[0-9]+$' } },
            { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1, default: 1 } },
          ],
          responses: {
            '200': {
              description: 'A page of runs; `meta.pages.next` is null on the last page',
              content: jsonContent('UpdateRunsDocument'),
            },
            '400': errors('Invalid query'),
            ...auth,
            '404': errors('No such config visible with this token'),
          },
        },
      },
      '/repos/{id}/upgrade': {
        post: {
          tags,
          security,
          summary:
            'Ask for the "Upgrade to GitHub-native Dependabot" pull request of a repo (this service\'s extension): its `.github/dependabot.yml` written from the repo\'s configs and ignores, its `.dependabot/config.yml` deleted',
          parameters: [idParam],
          responses: {
            '202': {
              description: 'Asked (`pending`); a worker opens it. `Location` is where it stands',
              content: jsonContent('RepoUpgradeDocument'),
            },
            '400': errors('Invalid id'),
            ...auth,
            '404': errors('No repo with update configs visible with this token'),
          },
        },
        get: {
          tags,
          security,
          summary: 'Where the upgrade pull request asked for a repo stands: `pending`, `opened` (its number and URL) or `failed` (why)',
          parameters: [idParam],
          responses: {
            '200': { description: 'The upgrade', content: jsonContent('RepoUpgradeDocument') },
            '400': errors('Invalid id'),
            ...auth,
            '404': errors('No upgrade was asked for a repo visible with this token'),
          },
        },
      },
      '/badges/status': {
        get: {
          tags,
          summary:
            "Dependabot Preview's status badge of a public repo, without authentication: an SVG (`Dependabot: up to date`, `N updates pending`, `failing`, `enabled`, `inactive`), or `{status, colour}` to a client that asks for JSON",
          parameters: [
            { name: 'host', in: 'query', required: true, schema: { type: 'string', enum: ['github'] } },
            { name: 'repo', in: 'query', schema: { type: 'string', example: 'acme/acme-cli' } },
            { name: 'identifier', in: 'query', schema: { type: 'string', pattern: '^[0-9]+$' } },
          ],
          responses: {
            '200': {
              description: 'The badge',
              content: {
                'image/svg+xml': { schema: { type: 'string' } },
                'application/json': {
                  schema: { type: 'object', properties: { status: { type: 'string' }, colour: { type: 'string' } } },
                },
              },
            },
            '304': { description: 'Not modified (`If-None-Match`)' },
            '400': errors('No `repo` nor `identifier`, another host, or a malformed value'),
            '404': errors('No public repo is known by that name or id (private repos are not shown)'),
          },
        },
      },
      '/update_runs/{id}': {
        get: {
          tags,
          security,
          summary: 'One update run: its trigger, status, progress, each dependency checked and the jobs it recorded',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
          responses: {
            '200': { description: 'The run', content: jsonContent('UpdateRunDocument') },
            '400': errors('Invalid id'),
            ...auth,
            '404': errors('No such run visible with this token'),
          },
        },
      },
      '/release_notifications/private': {
        post: {
          tags,
          security,
          summary: 'Tell the service a private dependency was released; its organisations are scanned later',
          parameters: [{ name: 'Prefer', in: 'header', required: false, schema: { type: 'string', enum: ['return=representation'] } }],
          requestBody: { required: true, content: jsonContent('ReleaseNotificationBody') },
          responses: {
            '204': { description: 'Received (as the original answered), also when recorded `rejected` with a reason and not scanned' },
            '202': { description: 'Accepted, with `Prefer: return=representation`', content: jsonContent('ReleaseNotificationDocument') },
            '400': errors('Invalid body'),
            ...auth,
          },
        },
      },
      '/release_notifications/{id}': {
        get: {
          tags,
          security,
          summary: "A notification's scan: status, counts, skipped and failed repos with the reason",
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
          responses: {
            '200': { description: 'The notification', content: jsonContent('ReleaseNotificationDocument') },
            ...auth,
            '404': errors('No such notification'),
          },
        },
      },
      '/pull_request_jobs': {
        get: {
          tags,
          security,
          summary: 'Recorded pull-request jobs on repos the token reaches, newest first, 100 a page',
          parameters: [
            { name: 'repo-id', in: 'query', schema: { type: 'string', pattern: '^[0-9]+$' } },
            { name: 'dependency-name', in: 'query', schema: { type: 'string' } },
            { name: 'notification-id', in: 'query', schema: { type: 'string', format: 'uuid' } },
            { name: 'status', in: 'query', schema: { type: 'string', enum: [...PULL_REQUEST_JOB_STATUSES] } },
            { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1, default: 1 } },
          ],
          responses: {
            '200': {
              description: 'A page of jobs',
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    properties: {
                      data: { type: 'array', items: { $ref: '#/components/schemas/PullRequestJob' } },
                      meta: {
                        type: 'object',
                        properties: { pages: { type: 'object', properties: { next: { type: ['integer', 'null'] } } } },
                      },
                    },
                  },
                },
              },
            },
            '400': errors('Invalid query'),
            ...auth,
          },
        },
      },
    },
    schemas: {
      ReleaseNotificationBody: jsonSchema(ReleaseNotificationBody),
      ReleaseNotificationDocument: { type: 'object', properties: { data: jsonSchema(ReleaseNotificationResource) } },
      PullRequestJob: jsonSchema(PullRequestJobResource),
      UpdateRunDocument: jsonSchema(UpdateRunDocument),
      RepoUpgradeDocument: { type: 'object', properties: { data: jsonSchema(RepoUpgradeResource) } },
      UpdateRunsDocument: jsonSchema(UpdateRunsDocument),
      AccountsDocument: jsonSchema(AccountsDocument),
      AccountDocument: jsonSchema(AccountDocument),
      PatchAccount: jsonSchema(PatchAccount),
      ReposDocument: jsonSchema(ReposDocument),
      UpdateConfigDocument: jsonSchema(UpdateConfigDocument),
      CreateUpdateConfig: jsonSchema(CreateUpdateConfig),
      PatchUpdateConfig: jsonSchema(PatchUpdateConfig),
      DependencyApiErrors: jsonSchema(DependencyApiErrors),
      RegistryCredentialsDocument: jsonSchema(RegistryCredentialsDocument),
      RegistryCredentialDocument: jsonSchema(RegistryCredentialDocument),
      CreateRegistryCredential: jsonSchema(CreateRegistryCredential),
      PatchRegistryCredential: jsonSchema(PatchRegistryCredential),
    },
  };
}
