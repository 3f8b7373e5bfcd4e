import { html, type SafeHtml } from './html.ts';
import type { PullListItem, PullPageState, PullPageView, RepoPageView, RepoSummary } from './views.ts';

/**
 * The emulator's web pages, rendered from their views as whole HTML documents: no script, no external resource, one
 * inline style sheet (the pages' Content-Security-Policy allows inline styles and nothing else). Every value goes
 * through the {@link html} tag, so it is escaped.
 */

const STYLE = html`<style>
body { font: 15px/1.5 system-ui, sans-serif; margin: 0 auto; max-width: 56rem; padding: 1rem 1.5rem; color: #1f2328; }
h1 { font-size: 1.6rem; margin: 0.5rem 0; } h1 .number { color: #59636e; font-weight: normal; }
nav { font-size: 0.9rem; } code { font-size: 0.9em; background: #eff2f5; padding: 0.1em 0.3em; border-radius: 4px; }
.state { display: inline-block; padding: 0.15em 0.7em; border-radius: 1em; color: #fff; font-weight: 600; }
.state-open { background: #1f883d; } .state-closed { background: #cf222e; } .state-merged { background: #8250df; }
.badge { display: inline-block; padding: 0 0.5em; border: 1px solid #d1d9e0; border-radius: 1em; font-size: 0.8rem; color: #59636e; }
.body { white-space: pre-wrap; border: 1px solid #d1d9e0; border-radius: 6px; padding: 0.75rem 1rem; }
.muted { color: #59636e; } ul.files { font-family: ui-monospace, monospace; font-size: 0.9rem; }
</style>`;

/** Where the pages live: the path the emulator is mounted at (`''` at the root). */
export interface PageRoot {
  root: string;
}

const repoPath = ({ root }: PageRoot, repo: RepoSummary) => `${root}/${encodeURIComponent(repo.owner)}/${encodeURIComponent(repo.name)}`;

/** The path of a pull request's page, as its `html_url` has it when the web root is the emulator's. */
export const pullPath = (at: PageRoot, repo: RepoSummary, number: number) => `${repoPath(at, repo)}/pull/${number}`;

function page(title: string, main: SafeHtml): SafeHtml {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${title}</title>
${STYLE}
</head>
<body>
<main>
${main}
</main>
<footer><p class="muted">Served by the GitHub emulator.</p></footer>
</body>
</html>
`;
}

const timeOf = (iso: string) => html`<time datetime="${iso}">${iso.replace('T', ' ').replace(/Z$/, ' UTC')}</time>`;

const visibilityOf = (repo: RepoSummary) => html`<span class="badge">${repo.private ? 'Private' : 'Public'}</span>`;

const STATE_LABELS: Record<PullPageState, string> = { open: 'Open', closed: 'Closed', merged: 'Merged' };

function pullItem(at: PageRoot, repo: RepoSummary, pr: PullListItem): SafeHtml {
  return html`<li><a href="${pullPath(at, repo, pr.number)}">${pr.title}</a> <span class="muted">#${pr.number}</span>${
    pr.draft ? html` <span class="badge">Draft</span>` : null
  }<br><span class="muted"><code>${pr.head}</code> → <code>${pr.base}</code>, opened ${timeOf(pr.createdAt)} by ${pr.author}</span></li>`;
}

/** The repository page: full name, visibility, description, default branch, and its open pull requests linking to their pages. */
export function repoPage(at: PageRoot, view: RepoPageView): SafeHtml {
  const { repo } = view;
  const fullName = `${repo.owner}/${repo.name}`;
  const pulls =
    view.openPulls.length === 0
      ? html`<p class="muted">There are no open pull requests.</p>`
      : html`<ul class="pulls">${view.openPulls.map((pr) => pullItem(at, repo, pr))}</ul>`;
  return page(
    fullName,
    html`<h1>${fullName}</h1>
<p>${visibilityOf(repo)}${view.archived ? html` <span class="badge">Archived</span>` : null}${view.fork ? html` <span class="badge">Fork</span>` : null}</p>
<p class="description">${view.description ?? html`<span class="muted">No description provided.</span>`}</p>
<dl>
<dt>Default branch</dt><dd><code>${view.defaultBranch}</code></dd>
</dl>
<section aria-labelledby="open-pulls">
<h2 id="open-pulls">Open pull requests (${view.openPulls.length})</h2>
${pulls}
</section>`,
  );
}

/**
 * The pull request page: title and number, state (open, closed or merged), head and base branches, author and dates,
 * the body as plain text (Markdown is not rendered), the changed files, and a link back to the repository page.
 */
export function pullPage(at: PageRoot, view: PullPageView): SafeHtml {
  const { repo } = view;
  const fullName = `${repo.owner}/${repo.name}`;
  const closed =
    view.state === 'merged' && view.mergedAt !== null
      ? html`<dt>Merged</dt><dd>${timeOf(view.mergedAt)}${view.mergedBy === null ? null : html` by ${view.mergedBy}`}</dd>`
      : view.state === 'closed' && view.closedAt !== null
        ? html`<dt>Closed</dt><dd>${timeOf(view.closedAt)}</dd>`
        : null;
  const files =
    view.files === undefined
      ? html`<p class="muted">The changed files are not known.</p>`
      : view.files.length === 0
        ? html`<p class="muted">No files changed.</p>`
        : html`<ul class="files">${view.files.map((file) => html`<li><span class="muted">${file.status}</span> ${file.previousPath === undefined ? null : html`${file.previousPath} → `}${file.path}</li>`)}</ul>${
            view.filesNotListed > 0 ? html`<p class="muted">and ${view.filesNotListed} more.</p>` : null
          }`;
  return page(
    `${view.title} · Pull Request #${view.number} · ${fullName}`,
    html`<nav aria-label="Repository"><a href="${repoPath(at, repo)}">${fullName}</a> ${visibilityOf(repo)}</nav>
<h1><span class="title">${view.title}</span> <span class="number">#${view.number}</span></h1>
<p><span class="state state-${view.state}" data-state="${view.state}">${STATE_LABELS[view.state]}</span>${
      view.draft ? html` <span class="badge">Draft</span>` : null
    }</p>
<dl>
<dt>Branches</dt><dd><code class="head">${view.head}</code> → <code class="base">${view.base}</code> (head → base)</dd>
<dt>Author</dt><dd class="author">${view.author}</dd>
<dt>Opened</dt><dd>${timeOf(view.createdAt)}</dd>${closed}
</dl>
<section aria-labelledby="description">
<h2 id="description">Description</h2>
${view.body === null || view.body.trim() === '' ? html`<p class="muted">No description provided.</p>` : html`<div class="body">${view.body}</div>`}
</section>
<section aria-labelledby="files">
<h2 id="files">Files changed${view.files === undefined ? null : html` (${view.files.length + view.filesNotListed})`}</h2>
${files}
</section>`,
  );
}

/** The 404 page: `what` was not found (a repository or pull request the emulator does not have). */
export function notFoundPage(what: string): SafeHtml {
  return page('Page not found', html`<h1>404: not found</h1><p>${what}</p>`);
}
