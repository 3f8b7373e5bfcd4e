/**
 * Which requests generate content, for GitHub's content-creation secondary limit ("no more than 80 content-generating
 * requests per minute and no more than 500 content-generating requests per hour",
 * https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api#about-secondary-rate-limits). GitHub
 * does not list them; this is the project's one list, in GitHub's path templates (`{owner}` is one path segment,
 * `{path}` the rest of the path): the GitHub emulator enforces the limits on these, and the code-host adapter paces
 * these requests (`beforeContentCreation`).
 */

/**
 * The REST requests that count: each creates something others see or that is kept in history.
 * - pull requests: `POST /repos/{owner}/{repo}/pulls`;
 * - commits: `POST …/git/commits`, `PUT` and `DELETE …/contents/{path}` (each writes a commit), merging a pull request
 *   and updating its branch (a merge commit);
 * - refs: `POST …/git/refs` (a new branch or tag);
 * - comments: issue comments, pull request review comments and replies, reviews, commit comments;
 * - issues, labels (`POST …/labels`: a new label of the repository), milestones and releases.
 *
 * Not counted: blobs and trees (the parts of a commit, counted with it), moving or deleting a ref, edits (`PATCH`),
 * commit statuses, adding labels or assignees to an issue, review requests, and every read. Paths the emulator does
 * not serve (reviews, review comments, commit comments, releases) are listed as GitHub counts them.
 */
export const CONTENT_CREATING_ROUTES: readonly string[] = [
  'POST /repos/{owner}/{repo}/pulls',
  'POST /repos/{owner}/{repo}/git/commits',
  'PUT /repos/{owner}/{repo}/contents/{path}',
  'DELETE /repos/{owner}/{repo}/contents/{path}',
  'PUT /repos/{owner}/{repo}/pulls/{pull_number}/merge',
  'PUT /repos/{owner}/{repo}/pulls/{pull_number}/update-branch',
  'POST /repos/{owner}/{repo}/git/refs',
  'POST /repos/{owner}/{repo}/issues/{issue_number}/comments',
  'POST /repos/{owner}/{repo}/pulls/{pull_number}/comments',
  'POST /repos/{owner}/{repo}/pulls/{pull_number}/comments/{comment_id}/replies',
  'POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews',
  'POST /repos/{owner}/{repo}/commits/{commit_sha}/comments',
  'POST /repos/{owner}/{repo}/issues',
  'POST /repos/{owner}/{repo}/labels',
  'POST /repos/{owner}/{repo}/milestones',
  'POST /repos/{owner}/{repo}/releases',
];

/**
 * The GraphQL mutations that count (https://docs.github.com/graphql/reference/mutations): those creating a commit, a
 * pull request, a ref, a comment, a review or review comment, an issue, a label.
 */
export const CONTENT_CREATING_MUTATIONS: readonly string[] = [
  'createCommitOnBranch',
  'createPullRequest',
  'createRef',
  'addComment',
  'addPullRequestReview',
  'addPullRequestReviewComment',
  'addPullRequestReviewThread',
  'addPullRequestReviewThreadReply',
  'createIssue',
  'createLabel',
];

/** `METHOD` and an anchored pattern of each route of {@link CONTENT_CREATING_ROUTES}. */
const compiled = CONTENT_CREATING_ROUTES.map((route) => {
  const [method, template] = route.split(' ') as [string, string];
  const pattern = template
    .split('/')
    .map((segment) => (segment === '{path}' ? '.+' : /^\{\w+\}$/.test(segment) ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return { method, pattern: new RegExp(`^${pattern}/?$`) };
});

/**
 * Does the REST request `method path` generate content, i.e. match a route of {@link CONTENT_CREATING_ROUTES}?
 * `method` is upper case (`POST`), `path` the request's path below the API root, without the query
 * (`/repos/acme/cli/issues`; a trailing slash is allowed). GitHub's rule: "Create too much content on GitHub in a short
 * amount of time" (https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api#about-secondary-rate-limits).
 */
export function createsContent(method: string, path: string): boolean {
  return compiled.some((route) => route.method === method && route.pattern.test(path));
}

const mutationField = new RegExp(`\\b(?:${CONTENT_CREATING_MUTATIONS.join('|')})\\s*\\(`);

/**
 * Does a GraphQL document (`query` of a `POST /graphql` body) generate content: a `mutation` operation selecting one of
 * {@link CONTENT_CREATING_MUTATIONS}? Read from the text (comments and strings aside), not parsed; anything else is false.
 */
export function graphqlCreatesContent(query: unknown): boolean {
  if (typeof query !== 'string') return false;
  const text = query.replace(/"""[\s\S]*?"""|"(?:[^"\\\n]|\\.)*"|#[^\n]*/g, ' ');
  return /(?:^|[\s}])mutation\b/.test(text) && mutationField.test(text);
}
