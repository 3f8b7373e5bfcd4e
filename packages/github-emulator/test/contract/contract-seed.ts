import type { SeedInput } from '../../src/index.ts';

/**
 * The world of GitHub's recorded answers, seeded into the emulator so that the emulator's contract tests ask it the
 * same situations: octocat's public `Hello-World` (the description's examples' repository) with a collaborator who
 * maintains it and one who triages, octocat's `empty` repository (no commit at all), hubot's private `secret` (which
 * octocat cannot see), the organisation `github` (octocat its admin) and an advisory of an npm package.
 */

/** octocat's classic personal access token (`repo`, `read:org`). */
export const OCTOCAT = 'contract-token-octocat';
/** octocat's fine-grained token with contents read only: every write is refused with 403. */
export const OCTOCAT_READ_ONLY = 'contract-token-octocat-contents-read';
/** hubot's classic token: the maintainer of octocat/Hello-World, owner of hubot/secret. */
export const HUBOT = 'contract-token-hubot';

/** The repository ids. */
export const REPO_IDS = { helloWorld: 1296269, empty: 1296270, secret: 1296271, docs: 1296272 } as const;

/** The submodule commit `vendor/qunit` of Hello-World points at. */
export const QUNIT_COMMIT = 'a'.repeat(40);

/** The seed (see the module's description). */
export const CONTRACT_SEED: SeedInput = {
  users: [
    {
      id: 1,
      login: 'octocat',
      token: OCTOCAT,
      tokens: [{ token: OCTOCAT_READ_ONLY, grant: { kind: 'fine-grained', contents: 'read' } }],
      name: 'The Octocat',
    },
    { id: 2, login: 'hubot', token: HUBOT },
    { id: 3, login: 'monalisa', token: 'contract-token-monalisa' },
  ],
  organizations: [{ id: 10, login: 'github', members: [{ login: 'octocat', role: 'admin' }], defaultRepoPermission: 'read' }],
  repos: [
    {
      id: REPO_IDS.helloWorld,
      owner: 'octocat',
      name: 'Hello-World',
      private: false,
      fork: false,
      defaultBranch: 'master',
      language: null,
      collaborators: { hubot: 'maintain', monalisa: 'triage' },
      files: {
        master: {
          README: 'Hello World!\n',
          'package.json': '{"name":"hello-world"}\n',
          'lib/octokit.rb': 'module Octokit\nend\n',
          'lib/octokit/client.rb': 'class Client\nend\n',
          'big/huge.txt': { size: 1_100_000, pattern: 'x' },
          'bin/blob.bin': '\u0000\u0001\u0002',
          '.gitmodules': '[submodule "vendor/qunit"]\n\tpath = vendor/qunit\n\turl = git://github.com/jquery/qunit.git\n',
          'vendor/qunit': { gitlink: QUNIT_COMMIT },
        },
      },
    },
    { id: REPO_IDS.empty, owner: 'octocat', name: 'empty', private: true, fork: false, defaultBranch: 'main', language: null },
    {
      id: REPO_IDS.secret,
      owner: 'hubot',
      name: 'secret',
      private: true,
      fork: false,
      defaultBranch: 'main',
      language: null,
      files: { main: { 'a.txt': 'a\n' } },
    },
    {
      id: REPO_IDS.docs,
      owner: 'github',
      name: 'docs',
      private: true,
      fork: false,
      defaultBranch: 'main',
      language: 'Ruby',
      files: { main: { 'index.md': '# Docs\n' } },
    },
  ],
  advisories: [
    {
      ghsaId: 'GHSA-cfgh-2345-jmpq',
      cveId: 'CVE-2050-00000',
      summary: 'Heartbleed security advisory',
      severity: 'high',
      publishedAt: '2023-03-23T02:30:56Z',
      updatedAt: '2023-03-24T02:30:56Z',
      vulnerabilities: [{ ecosystem: 'npm', package: 'a-package', vulnerableVersionRange: '<= 1.0.2', firstPatchedVersion: '1.0.3' }],
    },
  ],
};
