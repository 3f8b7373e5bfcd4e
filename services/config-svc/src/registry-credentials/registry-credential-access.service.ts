import type { Caller, CodeHostAccount, CodeHostView } from '@switchyard/code-host';
import { Forbidden, NotFound } from '@switchyard/service-kit';

/**
 * The account `accountId`, which the caller must reach and administer to manage (or see) its registry credentials, by
 * the rule of `PATCH /accounts/:id`: a user account by its own user; an organisation by the admins the code host names
 * at the time of the request (`GET /user/memberships/orgs/{org}`, `role: admin`,
 * https://docs.github.com/en/rest/orgs/members#get-an-organization-membership-for-the-authenticated-user; never cached,
 * so a revoked admin loses access at once).
 * @throws NotFound when the caller does not reach the account (whether or not it exists); Forbidden when they do not
 *   administer it; what the code host view throws (RateLimited, Unauthenticated, CodeHostUnavailable)
 */
export async function administeredAccount(view: CodeHostView, caller: Caller, accountId: number): Promise<CodeHostAccount> {
  const account = caller.accounts.find((a) => a.id === accountId);
  if (!account) throw new NotFound(`No account ${accountId} is reachable with this access token`);
  if (account.type === 'user' && account.id !== caller.user.id) {
    throw new Forbidden(`Only ${account.login} may manage the registry credentials of the user account ${account.login}`);
  }
  if (account.type === 'org' && (await view.organisationRole(caller, account)) !== 'admin') {
    throw new Forbidden(`Only admins of the organisation ${account.login} may manage its registry credentials`);
  }
  return account;
}
