import type { PatchRegistryCredential, RegistryAuthType } from '@switchyard/contracts';
import { InvalidInput, type OutboundRefusal } from '@switchyard/service-kit';
import type { RegistryCredentialRow } from './registry-credential.table.ts';

/** The new state of `row` after `patch`, and its new secret if one was given (before sealing). */
export interface PatchedCredential {
  baseUrl: string;
  authType: RegistryAuthType;
  username: string | null;
  secret: string | undefined;
}

/**
 * Applies `patch` to the stored credential `row`, checking what the body schema cannot: a change of `auth-type` needs
 * the new type's members, a change of `base-url` needs the secret again (a stored secret is never sent to a host it was
 * not given for), and without `auth-type` the members must be of the stored type.
 * @throws InvalidInput naming each member at fault (`/token`, `/username`, `/password`)
 */
export function applyPatch(row: RegistryCredentialRow, patch: PatchRegistryCredential): PatchedCredential {
  const authType = patch['auth-type'] ?? row.auth_type;
  const typeChanged = authType !== row.auth_type;
  const baseUrl = patch['base-url'] ?? row.base_url;
  const urlChanged = baseUrl !== row.base_url;
  const errors: { pointer: string; detail: string }[] = [];
  const secretMember = authType === 'token' ? 'token' : 'password';
  const secret = authType === 'token' ? patch.token : patch.password;
  if (authType === 'token') {
    for (const member of ['username', 'password'] as const) {
      if (patch[member] !== undefined) errors.push({ pointer: `#/${member}`, detail: 'is only for auth-type basic' });
    }
  } else {
    if (patch.token !== undefined) errors.push({ pointer: '#/token', detail: 'is only for auth-type token' });
    if (typeChanged && patch.username === undefined) errors.push({ pointer: '#/username', detail: 'is required with auth-type basic' });
  }
  if (secret === undefined && typeChanged) {
    errors.push({ pointer: `#/${secretMember}`, detail: `is required with auth-type ${authType}` });
  } else if (secret === undefined && urlChanged) {
    errors.push({
      pointer: `#/${secretMember}`,
      detail: 'is required when base-url changes (a stored secret is never sent to another host)',
    });
  }
  if (errors.length > 0) {
    throw new InvalidInput(`Invalid request body: ${errors.map((e) => `${e.pointer.slice(2)}: ${e.detail}`).join('; ')}`, { errors });
  }
  const username = authType === 'basic' ? (patch.username ?? row.username) : null;
  return { baseUrl, authType, username, secret };
}

/**
 * A registry credential's `base-url` that the outbound guard refuses (OWASP API7:2023 Server Side Request Forgery): not
 * http(s), user info, a literal address the operator does not allow (loopback, private, link-local, …), or a name that
 * resolves to one. An {@link InvalidInput} on `#/base-url` whose message says why, e.g. `base-url is refused:
 * npm.evil.example resolves to 127.0.0.1, a loopback address, which the operator does not allow
 * (REGISTRY_ALLOWED_HOSTS)`; the HTTP layer answers it 422.
 */
export class RegistryBaseUrlRefused extends InvalidInput {
  readonly refusal: OutboundRefusal;

  constructor(refusal: OutboundRefusal) {
    super(`base-url is refused: ${refusal.message}`, { errors: [{ pointer: '#/base-url', detail: `is refused: ${refusal.message}` }] });
    this.name = 'RegistryBaseUrlRefused';
    this.refusal = refusal;
  }
}
