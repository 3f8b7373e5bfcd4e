import { installationRole } from './apps/permissions.ts';
import type { ParsedSeed, RepoRole, TokenGrant } from './seed.ts';
import { type AppPermissions, botLoginOf, botUserIdOf, type EmulatedApp } from './seed-apps.ts';

/**
 * A user of the seed, or the bot user of one of its GitHub Apps (`<slug>[bot]`, `bot` set: GitHub's `type: "Bot"`),
 * who acts for the App's installation access tokens.
 */
export type EmulatedUser = ParsedSeed['users'][number] & {
  /** Set on an App's bot user: the App it acts for. */
  readonly bot?: { readonly appId: number; readonly slug: string };
};
/** An organisation of the seed. */
export type EmulatedOrg = ParsedSeed['organizations'][number];
/** A repository of the seed. */
export type EmulatedRepo = ParsedSeed['repos'][number];
/**
 * What an installation access token may do (https://docs.github.com/apps/creating-github-apps/authenticating-with-a-github-app/authenticating-as-a-github-app-installation):
 * its installation's repositories (narrowed by the token's, checked by `covers` against the installation as it is
 * now) with its `permissions`.
 */
export interface InstallationGrant {
  readonly kind: 'installation';
  readonly installationId: number;
  readonly appId: number;
  readonly token: string;
  readonly permissions: Readonly<AppPermissions>;
  /** Whether the token reaches `repo`: a repository of its installation (as installed now) and of the token's own, if narrowed. */
  covers(repo: EmulatedRepo): boolean;
}

/**
 * A token the emulator knows: its user (for an installation access token, the App's bot user) and what the token
 * itself may do (a personal token's grant, or an installation's).
 */
export interface EmulatedCredential {
  user: EmulatedUser;
  grant: TokenGrant | InstallationGrant;
}
/** An account (user or organisation) with its kind. */
export type EmulatedAccount = { kind: 'user'; user: EmulatedUser } | { kind: 'org'; org: EmulatedOrg };

/** How a user reaches a repo, for `/user/repos?affiliation=` (https://docs.github.com/rest/repos/repos#list-repositories-for-the-authenticated-user). */
export type Affiliation = 'owner' | 'collaborator' | 'organization_member';

const roleRank: Record<RepoRole, number> = { read: 1, triage: 2, write: 3, maintain: 4, admin: 5 };

/** The higher of two roles (an absent role ranks lowest). */
function higher(a: RepoRole | undefined, b: RepoRole | undefined): RepoRole | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return roleRank[a] >= roleRank[b] ? a : b;
}

/** The seed indexed for lookups (logins and names case-insensitively, as GitHub treats them), with its access rules. */
export interface World {
  readonly seed: ParsedSeed;
  userByToken(token: string): EmulatedUser | undefined;
  /** The user and grant of `token` (a user's main token or one of their extra `tokens`), or undefined. */
  credential(token: string): EmulatedCredential | undefined;
  account(login: string): EmulatedAccount | undefined;
  repoById(id: number): EmulatedRepo | undefined;
  repoByName(owner: string, name: string): EmulatedRepo | undefined;
  /** Every repo owned by `login`, in seed order. */
  reposOf(login: string): EmulatedRepo[];
  /** Every repo of the seed, in seed order. */
  repos(): readonly EmulatedRepo[];
  /** The organisations `user` is a member of, by id. */
  orgsOf(user: EmulatedUser): EmulatedOrg[];
  /** `user`'s role in the organisation `login` (case-insensitive), or undefined when not a member (or no such org). */
  orgRole(user: EmulatedUser, login: string): 'admin' | 'member' | undefined;
  /**
   * `user`'s role on `repo`, or undefined when they cannot see it. The highest of: admin for the owner of a user repo
   * and for org admins; the collaborator role; the org's `defaultRepoPermission` for members (unless `none`); and read
   * for any public repo (GitHub's rule: the most permissive grant wins).
   */
  roleOn(user: EmulatedUser, repo: EmulatedRepo): RepoRole | undefined;
  /**
   * The role a request made with `credential` has on `repo`, or undefined when it cannot see it: the user's
   * {@link World.roleOn}, then the token's grant: a classic token without the `repo` scope sees no private repository;
   * a fine-grained token with read-only contents is capped at read. An installation access token has the role of its
   * permissions on the repositories it covers (`installationRole` of `apps/permissions.ts`), read on other public
   * repositories, and sees no other private one.
   */
  roleThrough(credential: EmulatedCredential, repo: EmulatedRepo): RepoRole | undefined;
  /** How `user` reaches `repo` (owner, collaborator, organisation membership); empty when only through it being public. */
  affiliations(user: EmulatedUser, repo: EmulatedRepo): Set<Affiliation>;
  /** Can `user` reach installations on the account `login`: their own, or an organisation they are a member of? */
  reachesAccount(user: EmulatedUser, login: string): boolean;
  /** The seed's GitHub Apps, in seed order. */
  apps(): readonly EmulatedApp[];
  /** The App `id` of the seed, or undefined. */
  app(id: number): EmulatedApp | undefined;
  /** The bot user of App `appId` (`<slug>[bot]`), or undefined when the seed has no such App. */
  botOf(appId: number): EmulatedUser | undefined;
  /** A user of the seed or an App's bot user by id, or undefined. */
  userById(id: number): EmulatedUser | undefined;
}

/**
 * The bot user of `app`: `<slug>[bot]`, id {@link botUserIdOf}, created with the App, with no token of its own (it acts
 * only through installation access tokens), and `bot` set so that it is shown as GitHub's `type: "Bot"`.
 */
export function botUserOf(app: EmulatedApp): EmulatedUser {
  return {
    id: botUserIdOf(app),
    login: botLoginOf(app),
    token: `unusable-bot-token-${app.id}`,
    grant: { kind: 'fine-grained', contents: 'read' },
    tokens: [],
    ...(app.createdAt === undefined ? {} : { createdAt: app.createdAt }),
    bot: { appId: app.id, slug: app.slug },
  };
}

/** Indexes a validated seed. The seed is read, never changed. */
export function createWorld(seed: ParsedSeed): World {
  const lower = (value: string) => value.toLowerCase();
  const credentials = new Map<string, EmulatedCredential>(
    seed.users.flatMap((user) => [
      [user.token, { user, grant: user.grant }] as const,
      ...user.tokens.map(({ token, grant }) => [token, { user, grant }] as const),
    ]),
  );
  const accounts = new Map<string, EmulatedAccount>([
    ...seed.users.map((user): [string, EmulatedAccount] => [lower(user.login), { kind: 'user', user }]),
    ...seed.organizations.map((org): [string, EmulatedAccount] => [lower(org.login), { kind: 'org', org }]),
  ]);
  const reposById = new Map(seed.repos.map((repo) => [repo.id, repo]));
  const reposByName = new Map(seed.repos.map((repo) => [lower(`${repo.owner}/${repo.name}`), repo]));
  const reposByOwner = new Map<string, EmulatedRepo[]>();
  for (const repo of seed.repos) {
    const list = reposByOwner.get(lower(repo.owner)) ?? [];
    list.push(repo);
    reposByOwner.set(lower(repo.owner), list);
  }
  const collaborators = new Map(
    seed.repos.map((repo) => [repo.id, new Map(Object.entries(repo.collaborators).map(([login, role]) => [lower(login), role]))]),
  );
  const memberships = new Map<string, Map<string, 'admin' | 'member'>>(
    seed.organizations.map((org) => [lower(org.login), new Map(org.members.map((m) => [lower(m.login), m.role]))]),
  );

  function membershipGrant(user: EmulatedUser, repo: EmulatedRepo): RepoRole | undefined {
    const account = accounts.get(lower(repo.owner));
    if (account?.kind !== 'org') return undefined;
    const role = memberships.get(lower(account.org.login))?.get(lower(user.login));
    if (role === undefined) return undefined;
    if (role === 'admin') return 'admin';
    return account.org.defaultRepoPermission === 'none' ? undefined : account.org.defaultRepoPermission;
  }

  function roleOn(user: EmulatedUser, repo: EmulatedRepo): RepoRole | undefined {
    if (lower(repo.owner) === lower(user.login)) return 'admin';
    const granted = higher(collaborators.get(repo.id)?.get(lower(user.login)), membershipGrant(user, repo));
    return higher(granted, repo.private ? undefined : 'read');
  }

  const reachable = (user: EmulatedUser, login: string) =>
    lower(login) === lower(user.login) || memberships.get(lower(login))?.has(lower(user.login)) === true;
  const appsById = new Map(seed.apps.map((app) => [app.id, app]));
  const bots = new Map(seed.apps.map((app) => [app.id, botUserOf(app)]));
  const usersById = new Map<number, EmulatedUser>([...seed.users, ...bots.values()].map((user) => [user.id, user]));

  return {
    seed,
    userByToken: (token) => credentials.get(token)?.user,
    credential: (token) => credentials.get(token),
    account: (login) => accounts.get(lower(login)),
    repoById: (id) => reposById.get(id),
    repoByName: (owner, name) => reposByName.get(lower(`${owner}/${name}`)),
    reposOf: (login) => reposByOwner.get(lower(login)) ?? [],
    repos: () => seed.repos,
    orgsOf: (user) =>
      seed.organizations.filter((org) => memberships.get(lower(org.login))?.has(lower(user.login))).sort((a, b) => a.id - b.id),
    orgRole: (user, login) => memberships.get(lower(login))?.get(lower(user.login)),
    roleOn,
    roleThrough({ user, grant }, repo) {
      if (grant.kind === 'installation') {
        if (grant.covers(repo)) return installationRole(grant.permissions);
        return repo.private ? undefined : 'read';
      }
      const role = roleOn(user, repo);
      if (role === undefined) return undefined;
      if (grant.kind === 'classic') return repo.private && !grant.scopes.includes('repo') ? undefined : role;
      return grant.contents === 'read' ? 'read' : role;
    },
    affiliations(user, repo) {
      const found = new Set<Affiliation>();
      if (lower(repo.owner) === lower(user.login)) found.add('owner');
      if (collaborators.get(repo.id)?.has(lower(user.login))) found.add('collaborator');
      if (membershipGrant(user, repo) !== undefined) found.add('organization_member');
      return found;
    },
    reachesAccount: reachable,
    apps: () => seed.apps,
    app: (id) => appsById.get(id),
    botOf: (appId) => bots.get(appId),
    userById: (id) => usersById.get(id),
  };
}
