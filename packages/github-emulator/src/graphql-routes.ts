import type { Express } from 'express';
import { APP_MESSAGES } from './apps/messages.ts';
import { grants } from './apps/permissions.ts';
import { filePrefix, fileSize } from './files.ts';
import type { GitBlob } from './git/objects.ts';
import { badCredentials, GitHubApiError, sendError, tokenOf } from './github-http.ts';
import { type BlobField, GraphQLQueryError, parseReadFilesQuery, type ReadFilesQuery } from './graphql-query.ts';
import { rateLimitHeaders } from './rate-limit.ts';
import { LARGEST_INLINE_FILE_BYTES } from './representations.ts';
import { type RouteContext, rateLimitKeyOf, resolveCredential, visible } from './route-helpers.ts';

/** `documentation_url` of GraphQL error bodies. */
const GRAPHQL_DOCS = 'https://docs.github.com/graphql';

/** Git's rule for "binary": a NUL byte among the first 8,000 bytes. */
const BINARY_SNIFF_BYTES = 8_000;

/**
 * GitHub's `Blob` object with the `fields` asked: `byteSize`, `oid`, `isBinary` (a NUL in the first 8,000 bytes),
 * `isTruncated` and `text` (null for a binary blob). `text` is cut at {@link LARGEST_INLINE_FILE_BYTES} (1 MB, as the
 * contents API inlines) with `isTruncated: true`; GitHub truncates big blobs' text too and says so in `isTruncated`.
 */
function blobObject(blob: GitBlob, fields: readonly BlobField[]): Record<string, unknown> {
  const size = fileSize(blob.content);
  const truncated = size > LARGEST_INLINE_FILE_BYTES;
  const head = filePrefix(blob.content, truncated ? LARGEST_INLINE_FILE_BYTES : size);
  const binary = head.subarray(0, BINARY_SNIFF_BYTES).includes(0);
  const values: Record<BlobField, unknown> = {
    byteSize: size,
    oid: blob.sha,
    isBinary: binary,
    isTruncated: truncated,
    text: binary ? null : head.toString('utf8'),
  };
  return Object.fromEntries(fields.map((field) => [field, values[field]]));
}

/**
 * Mounts `POST /graphql`, GitHub's GraphQL endpoint, answering only the `ReadFiles` shape (`graphql-query.ts`): the
 * blobs of one repository by revision expression (`<ref>:<path>`, `HEAD` being the default branch). As GitHub does:
 * 401 `Bad credentials` without a valid token; a repository the token cannot see is `repository: null` with a
 * `NOT_FOUND` error; an expression naming nothing is `null`, one naming a tree or commit `{}` (the `Blob` fragment does
 * not apply); the query costs one point of the user's GraphQL rate limit (`x-ratelimit-resource: graphql`, the seed's
 * limit; an installation access token's per installation), over which the answer is a `RATE_LIMITED` error with
 * `x-ratelimit-remaining: 0`. An installation access token reads the repositories it covers with `contents` read (else a
 * `FORBIDDEN` error, `Resource not accessible by integration`) and other public ones. A query of another shape is
 * answered with an error naming what was not understood.
 */
export function mountGraphQLRoutes(app: Express, context: RouteContext): void {
  app.post('/graphql', (req, res) => {
    const resolved = resolveCredential(context, tokenOf(req));
    if (resolved instanceof GitHubApiError) {
      sendError(res, new GitHubApiError(resolved.status, resolved.message, GRAPHQL_DOCS));
      return;
    }
    const credential = resolved;
    if (!credential) {
      res.set(rateLimitHeaders(context.anonymousLimiter.take(`ip:${req.ip}`)));
      const error = badCredentials();
      sendError(res, new GitHubApiError(error.status, error.message, GRAPHQL_DOCS));
      return;
    }
    const limit = rateLimitKeyOf(credential);
    const state = context.graphqlLimiter.take(limit.key);
    res.set(rateLimitHeaders(state, 'graphql'));
    const send = (body: unknown) => res.status(200).type('application/json; charset=utf-8').send(JSON.stringify(body));
    if (state.exceeded) {
      send({ errors: [{ type: 'RATE_LIMITED', message: limit.exceeded }] });
      return;
    }
    const body = (req.body ?? {}) as { query?: unknown; variables?: unknown };
    let query: ReadFilesQuery;
    try {
      query = parseReadFilesQuery(body.query, body.variables);
    } catch (error) {
      if (!(error instanceof GraphQLQueryError)) throw error;
      send({ errors: [{ message: error.message }] });
      return;
    }
    const found = visible(context.world, credential, context.world.repoByName(query.owner, query.name));
    if (!found) {
      send({
        data: { repository: null },
        errors: [
          {
            type: 'NOT_FOUND',
            path: ['repository'],
            message: `Could not resolve to a Repository with the name '${query.owner}/${query.name}'.`,
          },
        ],
      });
      return;
    }
    const { grant } = credential;
    if (grant.kind === 'installation' && grant.covers(found.repo) && !grants(grant.permissions, { names: ['contents'], level: 'read' })) {
      send({
        data: { repository: null },
        errors: [{ type: 'FORBIDDEN', path: ['repository'], message: APP_MESSAGES.notAccessibleByIntegration }],
      });
      return;
    }
    const { git } = context.state.of(found.repo);
    const repository: Record<string, unknown> = {};
    for (const { key, expression } of query.objects) {
      const colon = expression.indexOf(':');
      const rev = colon < 0 ? expression : expression.slice(0, colon);
      const commitSha = git.resolve(rev === '' || rev === 'HEAD' ? found.repo.defaultBranch : rev);
      const commit = commitSha === undefined ? undefined : git.commit(commitSha);
      if (!commit) {
        repository[key] = null;
        continue;
      }
      if (colon < 0) {
        repository[key] = {};
        continue;
      }
      const entry = git.entryAt(commit.tree, expression.slice(colon + 1).replace(/^\/+|\/+$/g, ''));
      const blob = entry?.type === 'blob' ? git.blob(entry.sha) : undefined;
      repository[key] = blob ? blobObject(blob, query.fields) : entry?.type === 'tree' ? {} : null;
    }
    send({ data: { repository } });
  });
}
