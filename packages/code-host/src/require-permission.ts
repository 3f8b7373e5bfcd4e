import { Forbidden } from '@switchyard/service-kit';
import type { Caller } from './code-host-view.ts';
import { missingWriteScope, permissionAtLeast } from './permission.ts';
import type { CodeHostRepo } from './port.ts';

/**
 * Checks that the caller may do what `needed` asks on `repo`: the permission the code host reports for it through the
 * caller's token (the user's role, capped by a fine-grained token's own permissions), and, to write, the token's OAuth
 * scope (`repo`; `public_repo` for a public repo) when it is a classic token, whatever the user's role.
 * @param what the action in words, completing "… needs read permission", e.g. `Changing update configs of acme/web`
 * @throws Forbidden naming what is missing: the permission on the repo, or the token's scope
 */
export function requireRepoPermission(caller: Caller, repo: CodeHostRepo, needed: 'read' | 'write', what: string): void {
  if (!permissionAtLeast(repo.permission, needed)) {
    if (needed === 'read') throw new Forbidden(`${what} needs read permission on it`);
    throw new Forbidden(
      caller.capability.kind === 'per-repo'
        ? `${what} needs write or admin permission on it; with this access token the permission is ${repo.permission} (a fine-grained token needs the Contents: write permission)`
        : `${what} needs write or admin permission on it`,
    );
  }
  const scope = needed === 'write' ? missingWriteScope(caller.capability, repo) : undefined;
  if (scope)
    throw new Forbidden(`This access token lacks the '${scope}' scope, which ${what.charAt(0).toLowerCase()}${what.slice(1)} needs`);
}
