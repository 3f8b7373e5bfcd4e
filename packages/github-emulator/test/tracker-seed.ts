import type { SeedInput } from '../src/index.ts';

/**
 * Tokens of the tracker seed's users, by their role on `octo-org/app`: `olivia` (admin: an admin of the owning
 * organisation), `mona` (maintain), `wes` (write; `wesReadOnly` is his fine-grained token with read-only contents),
 * `tess` (triage), `rita` (read) and `otto` (no access: an outsider).
 */
export const TOKENS = {
  olivia: 'tok-olivia',
  mona: 'tok-mona',
  wes: 'tok-wes',
  wesReadOnly: 'tok-wes-read-only',
  tess: 'tok-tess',
  rita: 'tok-rita',
  otto: 'tok-otto',
} as const;

/** The private repository every role above applies to. */
export const APP = 'octo-org/app';
/** A public repository of the same organisation (`wes` writes to it; anyone reads it). */
export const SITE = 'octo-org/site';
/** A private repository without a commit (`wes` writes to it). */
export const EMPTY = 'octo-org/empty';
/** An archived private repository (`wes` would write to it). */
export const ARCHIVED = 'octo-org/old';

/**
 * A small world for issues, comments, files, review requests and permissions: organisation `octo-org` (members see
 * nothing by default; `olivia` is its admin) with the repositories {@link APP}, {@link SITE}, {@link EMPTY} and
 * {@link ARCHIVED}.
 */
export function trackerSeed(): SeedInput {
  const user = (id: number, login: string, name: string) => ({
    id,
    login,
    token: `tok-${login}`,
    name,
    email: `${login}@example.com`,
  });
  return {
    users: [
      user(1, 'olivia', 'Olivia Owner'),
      user(2, 'mona', 'Mona Maintainer'),
      { ...user(3, 'wes', 'Wes Writer'), tokens: [{ token: TOKENS.wesReadOnly, grant: { kind: 'fine-grained', contents: 'read' } }] },
      user(4, 'tess', 'Tess Triager'),
      user(5, 'rita', 'Rita Reader'),
      user(6, 'otto', 'Otto Outsider'),
    ],
    organizations: [{ id: 100, login: 'octo-org', members: [{ login: 'olivia', role: 'admin' }], defaultRepoPermission: 'none' }],
    repos: [
      {
        id: 1000,
        owner: 'octo-org',
        name: 'app',
        private: true,
        fork: false,
        defaultBranch: 'main',
        language: 'TypeScript',
        collaborators: { mona: 'maintain', wes: 'write', tess: 'triage', rita: 'read' },
        files: {
          main: { 'README.md': '# App\n', 'package.json': '{ "name": "app" }\n', 'docs/guide.md': 'Guide\n' },
          develop: { 'README.md': '# App (develop)\n' },
        },
      },
      {
        id: 1001,
        owner: 'octo-org',
        name: 'site',
        private: false,
        fork: false,
        defaultBranch: 'main',
        language: 'HTML',
        collaborators: { wes: 'write' },
        files: { main: { 'index.html': '<h1>Site</h1>\n' } },
      },
      {
        id: 1002,
        owner: 'octo-org',
        name: 'empty',
        private: true,
        fork: false,
        defaultBranch: 'main',
        language: null,
        collaborators: { wes: 'write' },
      },
      {
        id: 1003,
        owner: 'octo-org',
        name: 'old',
        private: true,
        fork: false,
        archived: true,
        defaultBranch: 'main',
        language: null,
        collaborators: { wes: 'write' },
        files: { main: { 'README.md': '# Old\n' } },
      },
    ],
  };
}
