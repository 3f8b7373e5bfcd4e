import { createHash, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { z } from 'zod';

/**
 * GitHub Apps of the seed (https://docs.github.com/apps/creating-github-apps/about-creating-github-apps/about-creating-github-apps):
 * who owns each, what it may do (`permissions`, `events`), the public key its JWTs are checked with and, for demo and
 * test Apps only, its private key.
 */

const Login = z.string().regex(/^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/, 'must be a GitHub login (letters, digits, hyphens; at most 39)');

/** The level of one App permission, as GitHub names them (`admin` only for a few, such as `repository_projects`). */
export const PermissionLevel = z.enum(['read', 'write', 'admin']);
export type PermissionLevel = z.output<typeof PermissionLevel>;

/** An App's (or an installation's, or a token's) permissions: GitHub's names (`contents`, `pull_requests`, …) → level. */
export const AppPermissions = z.record(
  z.string().regex(/^[a-z][a-z_]*$/, 'must be a permission name (`contents`, `pull_requests`, …)'),
  PermissionLevel,
);
export type AppPermissions = z.output<typeof AppPermissions>;

/**
 * The permissions of an installation whose App the seed does not describe (a seed written before Apps were modelled):
 * what a dependency-update App asks for, as `GET /user/installations` always answered.
 */
export const LEGACY_INSTALLATION_PERMISSIONS: Readonly<AppPermissions> = Object.freeze({
  contents: 'write',
  metadata: 'read',
  pull_requests: 'write',
});

const Pem = z.string().regex(/^-----BEGIN [A-Z ]+-----\r?\n[\s\S]+\r?\n-----END [A-Z ]+-----\s*$/, 'must be a PEM key');

/**
 * A GitHub App: `id` (the App ID, which JWTs name in `iss`), `slug` (the `<slug>[bot]` login of its bot user and the
 * path of its page), `name`, `owner` (a login of the seed), `permissions` and `events` it asks for (`metadata: read`
 * is always added, as GitHub does), `publicKey` (PEM, RSA of 2,048 bits or more: JWTs signed with its private key are
 * accepted) and optionally `privateKey` (PEM, matching `publicKey`): only for demo and test Apps, so the emulator can
 * hand it to a client (`appPrivateKeyFile`); a real App's private key never leaves its owner. `clientId` is also
 * accepted as `iss` (default `Iv1.` and 16 hex digits derived from the id); `botUserId` is the id of its bot user
 * (default 10,000,000 + the App id).
 */
export const SeedApp = z.strictObject({
  id: z.number().int().positive(),
  slug: z.string().regex(/^[a-z0-9][a-z0-9-]{0,33}$/, 'must be an app slug (lower-case letters, digits, hyphens)'),
  name: z.string().min(1),
  owner: Login,
  description: z.string().nullable().default(null),
  clientId: z
    .string()
    .regex(/^Iv[0-9A-Za-z.]{4,40}$/, 'must be a GitHub App client ID (`Iv1.…` or `Iv23…`)')
    .optional(),
  permissions: AppPermissions.default({ metadata: 'read' }).transform(
    (permissions): AppPermissions => ({ metadata: 'read', ...permissions }),
  ),
  events: z.array(z.string().regex(/^[a-z_]+$/, 'must be a webhook event name')).default([]),
  publicKey: Pem,
  privateKey: Pem.optional(),
  botUserId: z.number().int().positive().optional(),
  createdAt: z.iso.datetime({ offset: true }).optional(),
});
/** An App entry as written in a seed. */
export type SeedAppInput = z.input<typeof SeedApp>;
/** An App of a validated seed. */
export type EmulatedApp = z.output<typeof SeedApp>;

/** The id of an App's bot user: its `botUserId`, or 10,000,000 + its id. */
export const botUserIdOf = (app: Pick<EmulatedApp, 'id' | 'botUserId'>): number => app.botUserId ?? 10_000_000 + app.id;

/** The login of an App's bot user, `<slug>[bot]` (as GitHub names `dependabot[bot]`). */
export const botLoginOf = (app: Pick<EmulatedApp, 'slug'>): string => `${app.slug}[bot]`;

/** An App's client ID: its `clientId`, or `Iv1.` and the first 16 hex digits of the SHA-256 of its id. */
export function clientIdOf(app: Pick<EmulatedApp, 'id' | 'clientId'>): string {
  return app.clientId ?? `Iv1.${createHash('sha256').update(`github-emulator-app-${app.id}`).digest('hex').slice(0, 16)}`;
}

/** The public key of an App as a key object. @throws Error when the seed's PEM does not parse (parseSeed rules that out) */
export function appPublicKey(app: Pick<EmulatedApp, 'publicKey'>): KeyObject {
  return createPublicKey(app.publicKey);
}

const spkiOf = (key: KeyObject) => key.export({ type: 'spki', format: 'der' }).toString('base64');

/**
 * What is wrong with an App's keys, as `[field, message]` pairs: a public key that does not parse or is not RSA of at
 * least 2,048 bits (GitHub's App keys are), a private key that does not parse or does not match the public key.
 */
export function appKeyProblems(app: Pick<EmulatedApp, 'publicKey' | 'privateKey'>): [string, string][] {
  let publicKey: KeyObject;
  try {
    publicKey = createPublicKey(app.publicKey);
  } catch (error) {
    return [['publicKey', `not a public key: ${(error as Error).message}`]];
  }
  if (publicKey.asymmetricKeyType !== 'rsa' || (publicKey.asymmetricKeyDetails?.modulusLength ?? 0) < 2_048) {
    return [['publicKey', 'must be an RSA key of at least 2048 bits (GitHub Apps sign their JWTs with RS256)']];
  }
  if (app.privateKey === undefined) return [];
  try {
    if (spkiOf(createPublicKey(createPrivateKey(app.privateKey))) !== spkiOf(publicKey)) {
      return [['privateKey', 'does not match publicKey']];
    }
  } catch (error) {
    return [['privateKey', `not a private key: ${(error as Error).message}`]];
  }
  return [];
}
