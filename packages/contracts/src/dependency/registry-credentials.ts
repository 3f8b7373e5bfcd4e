import { z } from 'zod';
import { defineEvent } from '../events.ts';
import { GitHubId } from './requests.ts';
import { REGISTRY_AUTH_TYPES, REGISTRY_CREDENTIAL_PACKAGE_MANAGERS } from './vocabulary.ts';

export { REGISTRY_AUTH_TYPES, REGISTRY_CREDENTIAL_PACKAGE_MANAGERS } from './vocabulary.ts';

/**
 * `registry-credentials`: this service's extension of the dependency update API. An account registers, per package
 * manager, a private registry (base URL plus a token, or a username and password); update runs ask it first, then the
 * public registry. Bodies are flat dasherized objects like the rest of the API's (`POST /update_configs`,
 * `PATCH /accounts/:id`); the secret members `token` and `password` are write-only: no answer and no event carries them
 * in plain text (events carry them sealed, `sealedSecret`).
 */

export const RegistryCredentialPackageManager = z.enum(REGISTRY_CREDENTIAL_PACKAGE_MANAGERS);
export type RegistryCredentialPackageManager = z.infer<typeof RegistryCredentialPackageManager>;

export const RegistryAuthType = z.enum(REGISTRY_AUTH_TYPES);
export type RegistryAuthType = z.infer<typeof RegistryAuthType>;

const hasControlCharacter = (value: string) => [...value].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);

const oneOf = <T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: (issue) => (issue.input === undefined ? 'is required' : `must be one of ${values.join(', ')}`) });

const text = (kind: string) => z.string({ error: (issue) => (issue.input === undefined ? 'is required' : `must be ${kind}`) });

/**
 * A registry's base URL: `http://` or `https://`, at most 2,048 characters, without credentials (`user:pass@`), query
 * or fragment, spaces or control characters. Kept as given.
 */
export const RegistryBaseUrl = text('an http:// or https:// URL')
  .max(2_048, 'must be at most 2048 characters')
  .superRefine((value, ctx) => {
    const fail = (message: string) => ctx.addIssue({ code: 'custom', message });
    if (/\s/.test(value) || hasControlCharacter(value)) return fail('must not contain spaces or control characters');
    if (!URL.canParse(value) || !/^https?:\/\/[^/?#]/i.test(value)) return fail('must be an http:// or https:// URL');
    const url = new URL(value);
    if (url.username !== '' || url.password !== '' || /^https?:\/\/[^/?#]*@/i.test(value)) {
      return fail('must not contain credentials: give them as token, or as username and password');
    }
    if (value.includes('?') || value.includes('#')) return fail('must not have a query or a fragment');
  });

/** A token or password: 1 to 4,096 characters, no control characters (it ends up in an HTTP header). */
export const RegistrySecret = text('a string')
  .min(1, 'must not be empty')
  .max(4_096, 'must be at most 4096 characters')
  .refine((value) => !hasControlCharacter(value), 'must not contain control characters');

/** A basic-auth username: 1 to 255 characters, no `:` (RFC 7617 section 2) and no control characters. */
export const RegistryUsername = text('a string')
  .min(1, 'must not be empty')
  .max(255, 'must be at most 255 characters')
  .refine((value) => !value.includes(':') && !hasControlCharacter(value), 'must not contain a colon or control characters');

/** The members each auth type needs, and those it must not have. */
const SECRET_MEMBERS = { token: ['token'], basic: ['username', 'password'] } as const;

/**
 * Checks that the credential members fit `auth-type`: `token` with `token` only, `basic` with `username` and
 * `password` only. `required` false (a PATCH keeping its auth type) checks only that nothing of the other type is given.
 */
function checkSecretMembers(
  body: {
    'auth-type'?: RegistryAuthType | undefined;
    token?: string | undefined;
    username?: string | undefined;
    password?: string | undefined;
  },
  authType: RegistryAuthType,
  required: boolean,
  ctx: z.RefinementCtx,
): void {
  const other: RegistryAuthType = authType === 'token' ? 'basic' : 'token';
  for (const member of SECRET_MEMBERS[other]) {
    if (body[member] !== undefined) ctx.addIssue({ code: 'custom', path: [member], message: `is only for auth-type ${other}` });
  }
  if (!required) return;
  for (const member of SECRET_MEMBERS[authType]) {
    if (body[member] === undefined) ctx.addIssue({ code: 'custom', path: [member], message: `is required with auth-type ${authType}` });
  }
}

/**
 * Body of `POST /registry_credentials` (flat, like the API's other bodies): `account-id` (a number or a string of
 * digits), `package-manager`, `base-url`, `auth-type`, and `token` (auth-type `token`) or `username` and `password`
 * (auth-type `basic`). Unknown members are ignored; a secret member of the other auth type is refused.
 */
export const CreateRegistryCredential = z
  .object(
    {
      'account-id': GitHubId,
      'package-manager': oneOf(REGISTRY_CREDENTIAL_PACKAGE_MANAGERS),
      'base-url': RegistryBaseUrl,
      'auth-type': oneOf(REGISTRY_AUTH_TYPES),
      token: RegistrySecret.optional(),
      username: RegistryUsername.optional(),
      password: RegistrySecret.optional(),
    },
    { error: 'must be a JSON object' },
  )
  .superRefine((body, ctx) => checkSecretMembers(body, body['auth-type'], true, ctx));
export type CreateRegistryCredential = z.output<typeof CreateRegistryCredential>;

/**
 * Body of `PATCH /registry_credentials/:id`: any of `base-url`, `auth-type`, `token`, `username`, `password`. A change of
 * `auth-type` needs the new type's secret members; a change of `base-url` needs the secret again (checked by the service:
 * a stored secret is never sent to a host it was not given for); members of the other auth type are refused here, the
 * rest against the stored credential. `package-manager` cannot change (the credential's
 * identity: delete it and create another); `account-id` and unknown members are ignored.
 */
export const PatchRegistryCredential = z
  .object(
    {
      'package-manager': z
        .unknown()
        .refine((value) => value === undefined, 'cannot be changed; delete the credential and create another')
        .optional(),
      'base-url': RegistryBaseUrl.optional(),
      'auth-type': oneOf(REGISTRY_AUTH_TYPES).optional(),
      token: RegistrySecret.optional(),
      username: RegistryUsername.optional(),
      password: RegistrySecret.optional(),
    },
    { error: 'must be a JSON object' },
  )
  .superRefine((body, ctx) => {
    const authType = body['auth-type'];
    if (authType !== undefined) checkSecretMembers(body, authType, false, ctx);
    else if (body.token !== undefined && (body.username !== undefined || body.password !== undefined)) {
      ctx.addIssue({ code: 'custom', path: ['token'], message: 'cannot be given with username or password' });
    }
  });
export type PatchRegistryCredential = z.output<typeof PatchRegistryCredential>;

/** Query of `GET /registry_credentials`: `account-id`, required, the code host's numeric account id. Others are ignored. */
export const RegistryCredentialsQuery = z.object({
  'account-id': z
    .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be given once') })
    .regex(/^\d{1,16}$/, 'must be a numeric account id')
    .transform(Number)
    .pipe(z.number().min(1, 'must be a positive account id').max(Number.MAX_SAFE_INTEGER, 'is too large')),
});
export type RegistryCredentialsQuery = z.output<typeof RegistryCredentialsQuery>;

/** The `:id` of `/registry_credentials/:id`: a positive integer as a string. */
export const RegistryCredentialId = z
  .string()
  .regex(/^\d{1,10}$/, 'must be a numeric registry credential id')
  .transform(Number)
  .pipe(z.number().int().min(1, 'must be a positive id').max(2_147_483_647, 'is too large'));

/** `registry-credentials` resource: what is registered, never the secret (`username` is `null` for auth-type `token`). */
export const RegistryCredentialResource = z.object({
  id: z.string(),
  type: z.literal('registry-credentials'),
  attributes: z.object({
    'package-manager': RegistryCredentialPackageManager,
    'base-url': z.string(),
    'auth-type': RegistryAuthType,
    username: z.string().nullable(),
    /** RFC 3339 timestamps. */
    'created-at': z.iso.datetime({ offset: true }),
    'updated-at': z.iso.datetime({ offset: true }),
  }),
  relationships: z.object({ account: z.object({ data: z.object({ id: z.string(), type: z.literal('accounts') }) }) }),
});
export type RegistryCredentialResource = z.infer<typeof RegistryCredentialResource>;

/** `POST /registry_credentials`, `GET`/`PATCH /registry_credentials/:id`. */
export const RegistryCredentialDocument = z.object({ data: RegistryCredentialResource });
/** `GET /registry_credentials?account-id=`. */
export const RegistryCredentialsDocument = z.object({ data: z.array(RegistryCredentialResource) });

/**
 * `registry_credential.saved` / `.deleted` (the last state before deletion): the full state of a credential, its secret
 * only sealed (`sealedSecret`, `v1.<iv>.<ciphertext>` of `sealSecret` in `@switchyard/service-kit`, AES-256-GCM under
 * `SECRETS_KEY`, associated data {@link registryCredentialAad}); a consumer that holds the key opens it.
 */
export const RegistryCredentialState = z.object({
  id: z.int(),
  accountId: z.int(),
  packageManager: RegistryCredentialPackageManager,
  baseUrl: z.string(),
  authType: RegistryAuthType,
  username: z.string().nullable(),
  sealedSecret: z.string().regex(/^v\d+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/, 'must be a sealed secret'),
  revision: z.int(),
});
export type RegistryCredentialState = z.infer<typeof RegistryCredentialState>;

/**
 * The associated data a credential's secret is sealed with: `registry-credential:<account id>:<package manager>`, so a
 * sealed value copied to another account's or package manager's row does not open.
 */
export function registryCredentialAad(accountId: number, packageManager: RegistryCredentialPackageManager): string {
  return `registry-credential:${accountId}:${packageManager}`;
}

/** `registry_credential.saved`: a credential created or changed (revision 1 when created). */
export const RegistryCredentialSavedEvent = defineEvent('registry_credential.saved', RegistryCredentialState);
/** `registry_credential.deleted`: the credential's last state before deletion. */
export const RegistryCredentialDeletedEvent = defineEvent('registry_credential.deleted', RegistryCredentialState);
