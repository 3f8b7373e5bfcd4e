import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request, type TestResponse } from '@switchyard/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitHubEmulator, type EmulatorFault, loadDemoSeed } from '../src/index.ts';
import { escapeHtml, html, htmlText } from '../src/web/html.ts';
import { RESERVED_WEB_OWNERS } from '../src/web/routes.ts';
import { ALICE, auth, BOB, silentLogger } from './fixtures.ts';
import { type Api, apiAs, commitThroughApi, headOf } from './writes.ts';

const REPO = 'acme/web-storefront';

/** The emulator on a loopback port whose web root (`htmlBaseUrl`) is its own origin, as the demo launcher runs it. */
async function startOnOwnOrigin(faults: EmulatorFault[]): Promise<{ url: string; server: Server }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  server.on('request', createGitHubEmulator({ seed: loadDemoSeed(), logger: silentLogger, htmlBaseUrl: url, faults }));
  return { url, server };
}

/** Follows an absolute link (an `html_url`) as a browser would: a plain GET, no token. */
async function follow(link: string): Promise<TestResponse> {
  return request(link, 'GET', link, { headers: { accept: 'text/html' } });
}

/** Opens a pull request in {@link REPO} from a new branch `branch` of main with `files` changed. */
async function openPull(
  api: Api,
  branch: string,
  files: Record<string, string | null>,
  fields: { title: string; body?: string | null; draft?: boolean },
): Promise<TestResponse> {
  const commit = await commitThroughApi(api, REPO, await headOf(api, REPO, 'main'), files, fields.title);
  const ref = await api.post(`/repos/${REPO}/git/refs`, { ref: `refs/heads/${branch}`, sha: commit });
  expect(ref.status).toBe(201);
  const pull = await api.post(`/repos/${REPO}/pulls`, { head: branch, base: 'main', ...fields });
  expect(pull.status).toBe(201);
  return pull;
}

function expectHtmlPage(res: TestResponse, status: number): void {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
  const csp = res.headers.get('content-security-policy') ?? '';
  expect(csp).toMatch(/^default-src 'none'; style-src 'unsafe-inline'/);
  expect(csp).not.toMatch(/script-src/);
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('cache-control')).toBe('no-store');
  expect(res.headers.get('x-ratelimit-used')).toBeNull();
  expect(res.headers.get('x-github-media-type')).toBeNull();
  expect(res.text).toMatch(/^<!doctype html>\n<html lang="en">/);
  expect(res.text).toMatch(/<title>[^<]+<\/title>/);
  expect(res.text).not.toMatch(/<script/i);
}

describe('html escaping', () => {
  it('escapes every interpolated value, keeps nested templates, joins arrays and leaves out null', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
    const inner = html`<b>${'<i>'}</b>`;
    expect(htmlText(html`<p title="${'"x"'}">${inner}${['<', 1]}${null}${undefined}</p>`)).toBe(
      '<p title="&quot;x&quot;"><b>&lt;i&gt;</b>&lt;1</p>',
    );
    // A look-alike of a template's result is text, not HTML.
    expect(htmlText(html`${{ toString: () => '<x>' } as unknown as string}`)).toBe('&lt;x&gt;');
  });
});

describe('GitHub emulator: web pages', () => {
  const faults: EmulatorFault[] = [];
  let url: string;
  let server: Server;
  let api: Api;
  let page: (path: string, method?: string) => Promise<TestResponse>;
  beforeAll(async () => {
    ({ url, server } = await startOnOwnOrigin(faults));
    api = apiAs(url, ALICE);
    page = (path, method = 'GET') => request(url, method, path, { headers: { accept: 'text/html' } });
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it("a pull request's html_url leads to its page: title, number, state, branches, author, date, body, files", async () => {
    const pull = await openPull(
      api,
      'web-page',
      { 'docs/guide.md': '# Guide\n', 'src/index.ts': 'export const a = 1;\n', 'package-lock.json': null },
      { title: 'Bump lodash to 4.17.21', body: 'Fixes CVE-2021-23337.\nSecond line.' },
    );
    const { number, html_url: link, created_at: createdAt } = pull.body;
    expect(link).toBe(`${url}/${REPO}/pull/${number}`);
    const res = await follow(link);
    expectHtmlPage(res, 200);
    expect(res.text).toContain(`<title>Bump lodash to 4.17.21 · Pull Request #${number} · ${REPO}</title>`);
    expect(res.text).toMatch(
      new RegExp(`<h1><span class="title">Bump lodash to 4\\.17\\.21</span> <span class="number">#${number}</span></h1>`),
    );
    expect(res.text).toContain('data-state="open">Open</span>');
    expect(res.text).toContain('<code class="head">web-page</code> → <code class="base">main</code>');
    expect(res.text).toContain('<dd class="author">alice</dd>');
    expect(res.text).toContain(`<time datetime="${createdAt}">`);
    expect(res.text).toContain('<div class="body">Fixes CVE-2021-23337.\nSecond line.</div>');
    expect(res.text).toContain('<h2 id="files">Files changed (3)</h2>');
    expect(res.text).toContain('<li><span class="muted">added</span> docs/guide.md</li>');
    expect(res.text).toContain('<li><span class="muted">removed</span> package-lock.json</li>');
    expect(res.text).toContain('<li><span class="muted">modified</span> src/index.ts</li>');
    expect(res.text).toContain(`<a href="/${REPO}">${REPO}</a>`);
    // The same count as the API's.
    expect((await api.get(`/repos/${REPO}/pulls/${number}`)).body.changed_files).toBe(3);
    expect((await page(`/${REPO}/pull/${number}`, 'HEAD')).status).toBe(200);
  });

  it('shows a merged pull request as merged (by whom) and a closed one as closed', async () => {
    const merged = await openPull(api, 'to-merge', { 'docs/merged.md': 'm\n' }, { title: 'To merge', body: null });
    expect((await api.put(`/repos/${REPO}/pulls/${merged.body.number}/merge`, { merge_method: 'squash' })).status).toBe(200);
    const mergedPage = await follow(merged.body.html_url);
    expectHtmlPage(mergedPage, 200);
    expect(mergedPage.text).toContain('data-state="merged">Merged</span>');
    expect(mergedPage.text).toMatch(/<dt>Merged<\/dt><dd><time datetime="[^"]+">[^<]+<\/time> by alice<\/dd>/);
    expect(mergedPage.text).toContain('<p class="muted">No description provided.</p>');
    expect(mergedPage.text).toContain('<li><span class="muted">added</span> docs/merged.md</li>');

    const closed = await openPull(api, 'to-close', { 'docs/closed.md': 'c\n' }, { title: 'To close', draft: true });
    expect((await follow(closed.body.html_url)).text).toContain('<span class="badge">Draft</span>');
    expect((await api.patch(`/repos/${REPO}/pulls/${closed.body.number}`, { state: 'closed' })).status).toBe(200);
    const closedPage = await follow(closed.body.html_url);
    expectHtmlPage(closedPage, 200);
    expect(closedPage.text).toContain('data-state="closed">Closed</span>');
    expect(closedPage.text).toMatch(/<dt>Closed<\/dt><dd><time /);
  });

  it('escapes what users wrote: a <script> in the title and markup in the body are text', async () => {
    const title = `<script>alert("x")</script> & 'quoted'`;
    const pull = await openPull(
      api,
      'escaping',
      { 'docs/x.md': 'x\n' },
      { title, body: '<img src=x onerror="alert(1)"> <a href="javascript:1">' },
    );
    const res = await follow(pull.body.html_url);
    expectHtmlPage(res, 200);
    expect(res.text).toContain('<span class="title">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quoted&#39;</span>');
    expect(res.text).toContain('<title>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quoted&#39; · Pull Request');
    expect(res.text).toContain('&lt;img src=x onerror=&quot;alert(1)&quot;&gt; &lt;a href=&quot;javascript:1&quot;&gt;');
    expect(res.text).not.toContain('<img');
    expect(res.text).not.toContain('href="javascript');
    const repoPage = await page(`/${REPO}`);
    expect(repoPage.text).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(repoPage.text).not.toMatch(/<script/i);
  });

  it("the repository's html_url leads to its page, which lists its open pull requests with links to theirs", async () => {
    const open = await openPull(api, 'listed', { 'docs/listed.md': 'l\n' }, { title: 'Listed pull request' });
    const closed = await openPull(api, 'not-listed', { 'docs/not-listed.md': 'n\n' }, { title: 'Closed, not listed' });
    await api.patch(`/repos/${REPO}/pulls/${closed.body.number}`, { state: 'closed' });
    const repo = await api.get(`/repos/${REPO}`);
    expect(repo.body.html_url).toBe(`${url}/${REPO}`);
    const res = await follow(repo.body.html_url);
    expectHtmlPage(res, 200);
    expect(res.text).toContain(`<title>${REPO}</title>`);
    expect(res.text).toContain(`<h1>${REPO}</h1>`);
    expect(res.text).toContain('<span class="badge">Private</span>');
    expect(res.text).toContain('<p class="description">The shop</p>');
    expect(res.text).toContain('<dt>Default branch</dt><dd><code>main</code></dd>');
    const links = [...res.text.matchAll(/<li><a href="([^"]+)">([^<]+)<\/a>/g)].map((m) => [m[1], m[2]]);
    expect(links).toContainEqual([`/${REPO}/pull/${open.body.number}`, 'Listed pull request']);
    expect(links.map(([, title]) => title)).not.toContain('Closed, not listed');
    const open_ = await api.get(`/repos/${REPO}/pulls?state=open&per_page=100`);
    expect(res.text).toContain(`Open pull requests (${open_.body.length})`);
    expect(links).toHaveLength(open_.body.length);
    // Every link is a page.
    for (const [href] of links) expect((await page(href ?? '')).status).toBe(200);

    const empty = await page('/alice/dotfiles');
    expectHtmlPage(empty, 200);
    expect(empty.text).toContain('<span class="badge">Public</span>');
    expect(empty.text).toContain('There are no open pull requests.');
  });

  it('answers without a token, private repositories too, and counts nothing against the rate limit', async () => {
    const used = Number((await api.get('/user')).headers.get('x-ratelimit-used'));
    expect((await page('/acme/billing-api')).status).toBe(200);
    expect((await page(`/${REPO}/pull/1`)).status).toBe(200);
    expect((await request(url, 'GET', '/bob/bob-scripts', { headers: auth(BOB) })).status).toBe(200);
    expect(Number((await api.get('/user')).headers.get('x-ratelimit-used'))).toBe(used + 1);
  });

  it('answers 404 with a small HTML page for an unknown repository or pull request', async () => {
    for (const path of ['/acme/no-such-repo', '/nobody/nothing', '/acme/no-such-repo/pull/1', `/${REPO}/pull/9999`, `/${REPO}/pull/abc`]) {
      const res = await page(path);
      expectHtmlPage(res, 404);
      expect(res.text).toContain('<h1>404: not found</h1>');
    }
    const escaped = await page('/acme/%3Cb%3E/pull/1');
    expectHtmlPage(escaped, 404);
    expect(escaped.text).toContain('There is no repository acme/&lt;b&gt;.');
  });

  it('leaves every API route to the API: JSON answers where a web path could collide, JSON 404 for unknown API paths', async () => {
    const json = (res: TestResponse, status: number) => {
      expect(res.status).toBe(status);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    };
    json(await api.get('/user/repos'), 200);
    json(await api.get('/user/orgs'), 200);
    json(await api.get('/user/installations'), 200);
    json(await api.get('/repositories/3101'), 200);
    json(await api.get('/advisories/GHSA-35jh-r3h4-6jhm'), 200);
    json(await api.get(`/repos/${REPO}`), 200);
    json(await request(url, 'GET', '/_emulator/requests'), 200);
    json(await request(url, 'GET', '/user/repos'), 401);
    // Unknown paths under the API's namespaces stay GitHub's JSON 404, though they have a web page's shape.
    json(await api.get('/repos/acme'), 404);
    json(await api.get('/user/nothing'), 404);
    json(await api.get('/orgs/acme/pull/1'), 404);
    json(await request(url, 'POST', `/${REPO}`, { body: {} }), 404);
  });

  it('has no API route whose first path segment an owner of a web page could have', async () => {
    const app = createGitHubEmulator({ seed: loadDemoSeed(), logger: silentLogger });
    const routes = (app as unknown as { router: { stack: { route?: { path: string } }[] } }).router.stack.flatMap((layer) =>
      layer.route ? [layer.route.path] : [],
    );
    const web = ['/:owner/:repo', '/:owner/:repo/pull/:number'];
    expect(routes.slice(-2)).toEqual(web);
    for (const path of routes.filter((p) => !web.includes(p))) {
      expect(RESERVED_WEB_OWNERS.has(path.split('/')[1] ?? ''), path).toBe(true);
    }
  });

  it('plays no fault on a web page: the fault waits for the next API request', async () => {
    faults.push({ kind: 'status', status: 502 });
    expect((await page(`/${REPO}`)).status).toBe(200);
    expect(faults).toHaveLength(1);
    expect((await api.get('/user')).status).toBe(502);
    expect(faults).toHaveLength(0);
  });
});
