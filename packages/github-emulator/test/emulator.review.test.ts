import type { Listening } from '@switchyard/service-kit';
import { request, type TestResponse } from '@switchyard/service-kit/testing';
import { applyPatch } from 'diff';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDemoSeed } from '../src/index.ts';
import { ALICE, auth, startEmulator } from './fixtures.ts';
import { type GitHubOpenApi, loadGitHubOpenApi, schemaErrors } from './openapi.ts';
import { type Api, apiAs, decoded, headOf } from './writes.ts';

const REPO = 'acme/web-storefront';
/** A PNG's signature and a few bytes: binary to git (NUL bytes among the first 8,000). */
const BINARY = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);

type TreeItem = { path: string; mode?: string; content?: string; sha?: string | null };

/** Commits `items` on `parent` through the git data API (blobs, a tree on the parent's, a commit); returns its id. */
async function commit(api: Api, parent: string, message: string, items: TreeItem[]): Promise<string> {
  const base = (await api.get(`/repos/${REPO}/git/commits/${parent}`)).body.tree.sha;
  const tree = await api.post(`/repos/${REPO}/git/trees`, {
    base_tree: base,
    tree: items.map((item) => ({ mode: '100644', type: 'blob', ...item })),
  });
  expect(tree.status, tree.text).toBe(201);
  const made = await api.post(`/repos/${REPO}/git/commits`, { message, tree: tree.body.sha, parents: [parent] });
  expect(made.status, made.text).toBe(201);
  return made.body.sha;
}

/** The same request with `Accept: application/vnd.github.<kind>`. */
const asMediaType = (url: string, path: string, kind: string): Promise<TestResponse> =>
  request(url, 'GET', path, { headers: { ...auth(ALICE), accept: `application/vnd.github.${kind}` } });

const lineCount = (text: string) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

/**
 * What clients review a pull request with: its files, commits, the comparison of its branches, its commits with their
 * files, blobs, the diff and patch media types, and the line counts of the pull request itself, on a pull request
 * made through the API. JSON answers validate against GitHub's OpenAPI description.
 */
describe('GitHub emulator: reviewing a pull request', () => {
  let openapi: GitHubOpenApi;
  let server: Listening;
  let api: Api;
  let main: string;
  let first: string;
  let second: string;
  let number: number;
  let lockLines: number;
  let blobs: { logo: string; guide: string };

  beforeAll(async () => {
    openapi = loadGitHubOpenApi();
    ({ server } = await startEmulator(loadDemoSeed()));
    api = apiAs(server.url, ALICE);
    main = await headOf(api, REPO, 'main');
    lockLines = lineCount(decoded(await api.get(`/repos/${REPO}/contents/package-lock.json`)));
    first = await commit(api, main, 'Add the greeting\n\nIt greets whoever imports it.\n', [
      { path: 'src/index.ts', content: "export {};\nexport const greeting = 'hello';\n" },
      { path: 'docs/guide.md', content: '# Guide\n\nRead me.\n' },
      { path: 'scripts/run.sh', content: '#!/bin/sh\necho run\n' },
      { path: 'package-lock.json', sha: null },
    ]);
    const logo = await api.post(`/repos/${REPO}/git/blobs`, { content: BINARY.toString('base64'), encoding: 'base64' });
    const guide = (await api.get(`/repos/${REPO}/contents/docs/guide.md?ref=${first}`)).body.sha;
    blobs = { logo: logo.body.sha, guide };
    const run = (await api.get(`/repos/${REPO}/contents/scripts/run.sh?ref=${first}`)).body.sha;
    second = await commit(api, first, 'Rename the guide, say hi', [
      { path: 'docs/guide.md', sha: null },
      { path: 'docs/GUIDE.md', sha: guide },
      { path: 'src/index.ts', content: "export {};\nexport const greeting = 'hi';\n" },
      { path: 'scripts/run.sh', mode: '100755', sha: run },
      { path: 'assets/logo.png', sha: logo.body.sha },
    ]);
    await api.post(`/repos/${REPO}/git/refs`, { ref: 'refs/heads/greeting', sha: second });
    const pr = await api.post(`/repos/${REPO}/pulls`, { title: 'Greeting', head: 'greeting', base: 'main' });
    expect(pr.status, pr.text).toBe(201);
    number = pr.body.number;
  }, 60_000);
  afterAll(() => server.close());

  function expectValid(res: TestResponse, openapiPath: string): void {
    expect(res.status, res.text).toBe(200);
    expect(schemaErrors(openapi.validator(openapiPath, '200'), res.body)).toEqual([]);
  }

  it('a pull request counts its commits, changed files and the lines added and removed', async () => {
    const pr = await api.get(`/repos/${REPO}/pulls/${number}`);
    expectValid(pr, '/repos/{owner}/{repo}/pulls/{pull_number}');
    // From the merge base (main): logo.png, GUIDE.md (3 lines), run.sh (2 lines) added, the lock file removed, index.ts +1.
    expect(pr.body).toMatchObject({ commits: 2, changed_files: 5, additions: 1 + 3 + 2, deletions: lockLines });
  });

  it('GET /pulls/{n}/files lists each file with its status, counts, patch and URLs, paginated', async () => {
    const res = await api.get(`/repos/${REPO}/pulls/${number}/files`);
    expectValid(res, '/repos/{owner}/{repo}/pulls/{pull_number}/files');
    const byName = Object.fromEntries(res.body.map((file: { filename: string }) => [file.filename, file]));
    expect(Object.keys(byName)).toEqual(['assets/logo.png', 'docs/GUIDE.md', 'package-lock.json', 'scripts/run.sh', 'src/index.ts']);
    const html = `https://github.com/${REPO}`;
    expect(byName['src/index.ts']).toEqual({
      sha: expect.stringMatching(/^[0-9a-f]{40}$/),
      filename: 'src/index.ts',
      status: 'modified',
      additions: 1,
      deletions: 0,
      changes: 1,
      blob_url: `${html}/blob/${second}/src/index.ts`,
      raw_url: `${html}/raw/${second}/src/index.ts`,
      contents_url: `${server.url}/repos/${REPO}/contents/src/index.ts?ref=${second}`,
      patch: "@@ -1 +1,2 @@\n export {};\n+export const greeting = 'hi';",
    });
    // The patch applies: the base's file plus the patch is the head's.
    const before = decoded(await api.get(`/repos/${REPO}/contents/src/index.ts?ref=${main}`));
    const after = decoded(await api.get(`/repos/${REPO}/contents/src/index.ts?ref=${second}`));
    expect(applyPatch(before, `--- a/src/index.ts\n+++ b/src/index.ts\n${byName['src/index.ts'].patch}\n`)).toBe(after);
    expect(byName['docs/GUIDE.md']).toMatchObject({ status: 'added', additions: 3, sha: blobs.guide });
    expect(byName['docs/GUIDE.md'].patch).toBe('@@ -0,0 +1,3 @@\n+# Guide\n+\n+Read me.');
    expect(byName['assets/logo.png']).toMatchObject({ status: 'added', additions: 0, deletions: 0, changes: 0, sha: blobs.logo });
    expect(byName['assets/logo.png']).not.toHaveProperty('patch');
    // A removed file: its last blob, at the merge base's commit, where it still is.
    expect(byName['package-lock.json']).toMatchObject({ status: 'removed', additions: 0, deletions: lockLines, changes: lockLines });
    expect(byName['package-lock.json'].blob_url).toBe(`${html}/blob/${main}/package-lock.json`);
    const page = await api.get(`/repos/${REPO}/pulls/${number}/files?per_page=2&page=2`);
    expect(page.body.map((file: { filename: string }) => file.filename)).toEqual(['package-lock.json', 'scripts/run.sh']);
    expect(page.headers.get('link')).toMatch(/page=3>; rel="next"/);
    expect((await api.get(`/repos/${REPO}/pulls/999/files`)).status).toBe(404);
  });

  it('GET /pulls/{n}/commits lists its commits, oldest first', async () => {
    const res = await api.get(`/repos/${REPO}/pulls/${number}/commits`);
    expectValid(res, '/repos/{owner}/{repo}/pulls/{pull_number}/commits');
    expect(res.body.map((c: { sha: string }) => c.sha)).toEqual([first, second]);
    expect(res.body[0]).toMatchObject({
      commit: { message: 'Add the greeting\n\nIt greets whoever imports it.\n' },
      parents: [{ sha: main }],
    });
  });

  it('GET /commits/{ref} answers the commit with its files and stats against its parent, by full or short id', async () => {
    const res = await api.get(`/repos/${REPO}/commits/${second}`);
    expectValid(res, '/repos/{owner}/{repo}/commits/{ref}');
    expect(res.body.stats).toEqual({ total: 2, additions: 1, deletions: 1 });
    expect(res.body.files.map((f: { filename: string; status: string }) => `${f.status} ${f.filename}`)).toEqual([
      'added assets/logo.png',
      'renamed docs/GUIDE.md',
      'changed scripts/run.sh',
      'modified src/index.ts',
    ]);
    const [, renamed, chmod, modified] = res.body.files;
    expect(renamed).toMatchObject({ previous_filename: 'docs/guide.md', changes: 0, sha: blobs.guide });
    expect(renamed).not.toHaveProperty('patch');
    // A change of mode only: GitHub answers a null sha.
    expect(chmod).toMatchObject({ sha: null, changes: 0 });
    expect(modified.patch).toBe("@@ -1,2 +1,2 @@\n export {};\n-export const greeting = 'hello';\n+export const greeting = 'hi';");
    expect((await api.get(`/repos/${REPO}/commits/${second.slice(0, 7)}`)).body.sha).toBe(second);
    expect((await api.get(`/repos/${REPO}/commits/greeting`)).body.sha).toBe(second);
    const missing = await api.get(`/repos/${REPO}/commits/${'0'.repeat(40)}`);
    expect([missing.status, missing.body.message]).toEqual([422, `No commit found for SHA: ${'0'.repeat(40)}`]);
    // The status routes under /commits/{ref} still answer.
    expect((await api.get(`/repos/${REPO}/commits/${second}/status`)).body).toMatchObject({ sha: second, state: 'pending' });
  });

  it('GET /compare/{base}...{head} answers status, ahead_by, behind_by, commits and files', async () => {
    const ahead = await api.get(`/repos/${REPO}/compare/main...greeting`);
    expectValid(ahead, '/repos/{owner}/{repo}/compare/{basehead}');
    expect(ahead.body).toMatchObject({
      status: 'ahead',
      ahead_by: 2,
      behind_by: 0,
      total_commits: 2,
      base_commit: { sha: main },
      merge_base_commit: { sha: main },
      url: `${server.url}/repos/${REPO}/compare/main...greeting`,
    });
    expect(ahead.body.commits.map((c: { sha: string }) => c.sha)).toEqual([first, second]);
    expect(ahead.body.files).toHaveLength(5);
    const same = await api.get(`/repos/${REPO}/compare/greeting...acme:greeting`);
    expect(same.body).toMatchObject({ status: 'identical', ahead_by: 0, behind_by: 0, total_commits: 0, commits: [], files: [] });
    const behind = await api.get(`/repos/${REPO}/compare/${second}...${main.slice(0, 10)}`);
    expect(behind.body).toMatchObject({ status: 'behind', ahead_by: 0, behind_by: 2 });
    // Page by page: the commits of the page, the files on the first page only.
    const page2 = await api.get(`/repos/${REPO}/compare/main...greeting?per_page=1&page=2`);
    expectValid(page2, '/repos/{owner}/{repo}/compare/{basehead}');
    expect([page2.body.commits.map((c: { sha: string }) => c.sha), page2.body.files]).toEqual([[second], []]);
    expect(page2.headers.get('link')).toMatch(/rel="prev"/);
    expect((await api.get(`/repos/${REPO}/compare/main...no-such-branch`)).status).toBe(404);
    expect((await api.get(`/repos/${REPO}/compare/main..greeting`)).status).toBe(404);
    expect((await api.get(`/repos/${REPO}/compare/main...someone-else:greeting`)).status).toBe(404);
  });

  it('GET /git/blobs/{sha} answers base64 content with its size, or the bytes with the raw media type', async () => {
    const guide = await api.get(`/repos/${REPO}/git/blobs/${blobs.guide}`);
    expectValid(guide, '/repos/{owner}/{repo}/git/blobs/{file_sha}');
    expect(guide.body).toMatchObject({
      sha: blobs.guide,
      size: 18,
      encoding: 'base64',
      url: `${server.url}/repos/${REPO}/git/blobs/${blobs.guide}`,
    });
    expect(Buffer.from(guide.body.content, 'base64').toString('utf8')).toBe('# Guide\n\nRead me.\n');
    const logo = await api.get(`/repos/${REPO}/git/blobs/${blobs.logo}`);
    expect(Buffer.from(logo.body.content, 'base64').equals(BINARY)).toBe(true);
    expect(logo.body.size).toBe(BINARY.length);
    const raw = await asMediaType(server.url, `/repos/${REPO}/git/blobs/${blobs.guide}`, 'raw');
    expect([raw.status, raw.text]).toEqual([200, '# Guide\n\nRead me.\n']);
    expect((await api.get(`/repos/${REPO}/git/blobs/${'0'.repeat(40)}`)).status).toBe(404);
  });

  it('the diff media type answers a unified diff as git prints it', async () => {
    const res = await asMediaType(server.url, `/repos/${REPO}/commits/${second}`, 'diff');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.github.diff; charset=utf-8');
    const index = await api.get(`/repos/${REPO}/contents/src/index.ts?ref=${first}`);
    const indexAfter = await api.get(`/repos/${REPO}/contents/src/index.ts?ref=${second}`);
    expect(res.text).toBe(
      [
        'diff --git a/assets/logo.png b/assets/logo.png',
        'new file mode 100644',
        `index 0000000..${blobs.logo.slice(0, 7)}`,
        'Binary files /dev/null and b/assets/logo.png differ',
        'diff --git a/docs/guide.md b/docs/GUIDE.md',
        'similarity index 100%',
        'rename from docs/guide.md',
        'rename to docs/GUIDE.md',
        'diff --git a/scripts/run.sh b/scripts/run.sh',
        'old mode 100644',
        'new mode 100755',
        'diff --git a/src/index.ts b/src/index.ts',
        `index ${index.body.sha.slice(0, 7)}..${indexAfter.body.sha.slice(0, 7)} 100644`,
        '--- a/src/index.ts',
        '+++ b/src/index.ts',
        '@@ -1,2 +1,2 @@',
        ' export {};',
        "-export const greeting = 'hello';",
        "+export const greeting = 'hi';",
        '',
      ].join('\n'),
    );
    // A pull request's diff is from the merge base to its head: the comparison's.
    const pull = await asMediaType(server.url, `/repos/${REPO}/pulls/${number}`, 'diff');
    const compared = await asMediaType(server.url, `/repos/${REPO}/compare/main...greeting`, 'v3.diff');
    expect(pull.text).toBe(compared.text);
    expect(pull.text.match(/^diff --git /gm)).toHaveLength(5);
    expect(pull.text).toContain(
      `deleted file mode 100644\nindex ${(await api.get(`/repos/${REPO}/contents/package-lock.json`)).body.sha.slice(0, 7)}..0000000\n--- a/package-lock.json\n+++ /dev/null\n@@ -1,${lockLines} +0,0 @@\n`,
    );
    expect(pull.text).toContain('--- /dev/null\n+++ b/docs/GUIDE.md\n@@ -0,0 +1,3 @@\n+# Guide\n+\n+Read me.\n');
  });

  it('the patch media type answers each commit as git format-patch writes it', async () => {
    const res = await asMediaType(server.url, `/repos/${REPO}/pulls/${number}`, 'patch');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.github.patch; charset=utf-8');
    const mails = res.text.split(/^(?=From [0-9a-f]{40} Mon Sep 17 00:00:00 2001$)/m);
    expect(mails).toHaveLength(2);
    const [one, two] = mails as [string, string];
    expect(one.split('\n').slice(0, 8)).toEqual([
      `From ${first} Mon Sep 17 00:00:00 2001`,
      'From: Alice Example <alice@example.com>',
      expect.stringMatching(/^Date: (Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{1,2} [A-Z][a-z]{2} \d{4} \d\d:\d\d:\d\d \+0000$/),
      'Subject: [PATCH 1/2] Add the greeting',
      '',
      'It greets whoever imports it.',
      '---',
      expect.stringMatching(/^ docs\/guide\.md +\| +3 \+\+\+$/),
    ]);
    expect(one).toContain(
      ` 4 files changed, 6 insertions(+), ${lockLines} deletions(-)\n create mode 100644 docs/guide.md\n delete mode 100644 package-lock.json\n create mode 100644 scripts/run.sh\n\ndiff --git a/docs/guide.md b/docs/guide.md\n`,
    );
    expect(two.split('\n').slice(3, 6)).toEqual(['Subject: [PATCH 2/2] Rename the guide, say hi', '', '---']);
    expect(two).toContain(
      [
        // Names as wide as the longest, counts as wide as "Bin" (git's diffstat).
        ' assets/logo.png             | Bin 0 -> 16 bytes',
        ' docs/{guide.md => GUIDE.md} |   0',
        ' scripts/run.sh              |   0',
        ' src/index.ts                |   2 +-',
        ' 4 files changed, 1 insertion(+), 1 deletion(-)',
        ' create mode 100644 assets/logo.png',
        ' rename docs/{guide.md => GUIDE.md} (100%)',
        ' mode change 100644 => 100755 scripts/run.sh',
        '',
        'diff --git a/assets/logo.png b/assets/logo.png',
      ].join('\n'),
    );
    expect(two.endsWith("+export const greeting = 'hi';\n-- \ngithub-emulator\n\n")).toBe(true);
    // A single commit is `[PATCH]`; its patch is the diff's body after the mail's header and stat.
    const single = await asMediaType(server.url, `/repos/${REPO}/commits/${second}`, 'patch');
    const diff = await asMediaType(server.url, `/repos/${REPO}/commits/${second}`, 'diff');
    expect(single.text).toContain('Subject: [PATCH] Rename the guide, say hi\n');
    expect(single.text).toContain(`\n\n${diff.text}-- \n`);
  });
});
