import { fileSize } from '../files.ts';
import type { Urls } from '../representations.ts';
import type { EmulatedRepo } from '../world.ts';
import type { GitCommit, GitSignature, GitTree } from './objects.ts';
import type { GitRepository } from './repository-store.ts';
import { verificationOf } from './signatures.ts';

/**
 * Builders of GitHub's git data objects (https://docs.github.com/rest/git): `git-ref`, `git-commit`, `git-tree`,
 * `short-blob`, and the `commit` / `branch-with-protection` / `short-branch` objects of the branches API, with every
 * field GitHub's OpenAPI description requires. URLs point at the emulator (`apiBase`) and the web (`htmlBase`).
 */

/** A node id in GitHub's legacy format: base64 of `0<type length>:<Type><key>`. */
export function objectNodeId(type: string, key: string | number): string {
  return Buffer.from(`0${type.length}:${type}${key}`).toString('base64');
}

const repoApi = (urls: Urls, repo: EmulatedRepo) => `${urls.apiBase}/repos/${repo.owner}/${repo.name}`;
const repoHtml = (urls: Urls, repo: EmulatedRepo) => `${urls.htmlBase}/${repo.owner}/${repo.name}`;

/** GitHub's `git-ref` of a full ref name (`refs/heads/main`) pointing at commit `sha`. */
export function gitRef(urls: Urls, repo: EmulatedRepo, name: string, sha: string) {
  const api = repoApi(urls, repo);
  return {
    ref: name,
    node_id: objectNodeId('Ref', `${repo.id}:${name}`),
    url: `${api}/git/${name}`,
    object: { type: 'commit', sha, url: `${api}/git/commits/${sha}` },
  };
}

const signature = (s: GitSignature) => ({ name: s.name, email: s.email, date: s.date });

/** GitHub's `git-commit` (https://docs.github.com/rest/git/commits#get-a-commit-object). */
export function gitCommit(urls: Urls, repo: EmulatedRepo, commit: GitCommit) {
  const api = repoApi(urls, repo);
  const html = repoHtml(urls, repo);
  return {
    sha: commit.sha,
    node_id: objectNodeId('Commit', commit.sha),
    url: `${api}/git/commits/${commit.sha}`,
    html_url: `${html}/commit/${commit.sha}`,
    author: signature(commit.author),
    committer: signature(commit.committer),
    tree: { sha: commit.tree, url: `${api}/git/trees/${commit.tree}` },
    message: commit.message,
    parents: commit.parents.map((sha) => ({ sha, url: `${api}/git/commits/${sha}`, html_url: `${html}/commit/${sha}` })),
    verification: verificationOf(commit),
  };
}

/**
 * GitHub's `git-tree` of one tree (https://docs.github.com/rest/git/trees#get-a-tree): its own entries, or with
 * `recursive` every entry below it, each sub-tree followed by its contents (pre-order, git's order within a tree) and
 * `path` the full path from this tree. Blobs carry their `size`; a submodule (a gitlink: mode `160000`, type `commit`,
 * `sha` the submodule's commit) has neither `size` nor `url`, as on GitHub. `truncated` is always false.
 */
export function gitTree(urls: Urls, repo: EmulatedRepo, tree: GitTree, git: GitRepository, recursive = false) {
  const api = repoApi(urls, repo);
  const entries: { path: string; mode: string; type: string; sha: string; size?: number; url?: string }[] = [];
  const walk = (entriesOf: GitTree, prefix: string) => {
    for (const entry of entriesOf.entries) {
      const blob = entry.type === 'blob' ? git.blob(entry.sha) : undefined;
      entries.push({
        path: `${prefix}${entry.name}`,
        mode: entry.mode,
        type: entry.type,
        sha: entry.sha,
        ...(blob ? { size: fileSize(blob.content) } : {}),
        ...(entry.type === 'commit' ? {} : { url: `${api}/git/${entry.type === 'tree' ? 'trees' : 'blobs'}/${entry.sha}` }),
      });
      const sub = recursive && entry.type === 'tree' ? git.tree(entry.sha) : undefined;
      if (sub) walk(sub, `${prefix}${entry.name}/`);
    }
  };
  walk(tree, '');
  return { sha: tree.sha, url: `${api}/git/trees/${tree.sha}`, tree: entries, truncated: false };
}

/**
 * GitHub's `tag` of the tags list (https://docs.github.com/rest/repos/repos#list-repository-tags): the name, its
 * commit, and the archive URLs of the tag.
 */
export function repoTag(urls: Urls, repo: EmulatedRepo, name: string, sha: string) {
  const api = repoApi(urls, repo);
  const encoded = name.split('/').map(encodeURIComponent).join('/');
  return {
    name,
    commit: { sha, url: `${api}/commits/${sha}` },
    zipball_url: `${api}/zipball/refs/tags/${encoded}`,
    tarball_url: `${api}/tarball/refs/tags/${encoded}`,
    node_id: objectNodeId('Ref', `${repo.id}:refs/tags/${name}`),
  };
}

/** GitHub's `short-blob`: the id and URL of a created blob. */
export function shortBlob(urls: Urls, repo: EmulatedRepo, sha: string) {
  return { url: `${repoApi(urls, repo)}/git/blobs/${sha}`, sha };
}

/** GitHub's `commit` object of the commits and branches APIs (no `files` or `stats`; `author`/`committer` accounts null). */
export function repoCommit(urls: Urls, repo: EmulatedRepo, commit: GitCommit) {
  const api = repoApi(urls, repo);
  const html = repoHtml(urls, repo);
  return {
    url: `${api}/commits/${commit.sha}`,
    sha: commit.sha,
    node_id: objectNodeId('Commit', commit.sha),
    html_url: `${html}/commit/${commit.sha}`,
    comments_url: `${api}/commits/${commit.sha}/comments`,
    commit: {
      url: `${api}/git/commits/${commit.sha}`,
      author: signature(commit.author),
      committer: signature(commit.committer),
      message: commit.message,
      comment_count: 0,
      tree: { sha: commit.tree, url: `${api}/git/trees/${commit.tree}` },
      verification: verificationOf(commit),
    },
    author: null,
    committer: null,
    parents: commit.parents.map((sha) => ({ sha, url: `${api}/commits/${sha}`, html_url: `${html}/commit/${sha}` })),
  };
}

/** GitHub's `branch-with-protection` (https://docs.github.com/rest/branches/branches#get-a-branch): never protected here. */
export function branchWithProtection(urls: Urls, repo: EmulatedRepo, name: string, commit: GitCommit) {
  const api = repoApi(urls, repo);
  const encoded = name.split('/').map(encodeURIComponent).join('/');
  return {
    name,
    commit: repoCommit(urls, repo, commit),
    _links: { self: `${api}/branches/${encoded}`, html: `${repoHtml(urls, repo)}/tree/${encoded}` },
    protected: false,
    protection: { enabled: false, required_status_checks: { enforcement_level: 'off', contexts: [] as string[], checks: [] as unknown[] } },
    protection_url: `${api}/branches/${encoded}/protection`,
  };
}

/** GitHub's `short-branch`, as `GET /repos/{owner}/{repo}/branches` lists it. */
export function shortBranch(urls: Urls, repo: EmulatedRepo, name: string, sha: string) {
  const api = repoApi(urls, repo);
  return {
    name,
    commit: { sha, url: `${api}/commits/${sha}` },
    protected: false,
    protection_url: `${api}/branches/${name.split('/').map(encodeURIComponent).join('/')}/protection`,
  };
}
