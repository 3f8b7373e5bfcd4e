import { describe, expect, it } from 'vitest';
import { gitHubDescription } from '../../../github-emulator/test/contract/github-description.ts';
import { type OperationRef, type RecordedAnswer, rateLimits, recorded } from './fixtures/index.ts';

/** Every recorded answer with the operation whose response schemas it follows. */
function everyAnswer(): { call: string; name: string; operation: OperationRef; answer: RecordedAnswer }[] {
  return Object.entries(recorded).flatMap(([call, entry]) =>
    Object.entries(entry.answers as Record<string, RecordedAnswer>).map(([name, answer]) => ({
      call,
      name,
      operation: ('schemaOperation' in entry ? entry.schemaOperation : entry.operation) as OperationRef,
      answer,
    })),
  );
}

const BASIC_ERROR: OperationRef = { method: 'get', path: '/user' };

/**
 * Where the description's own examples break its own response schemas (the examples are older than the schemas). The
 * fixtures keep the examples as they are; these are the known differences, so that a new one shows.
 */
const EXAMPLES_AGAINST_THEIR_SCHEMA = [
  "collaboratorPermission.admin: /user must have required property 'role_name'",
  "collaboratorPermission.maintainer: /user must have required property 'role_name'",
  "collaboratorPermission.triager: /user must have required property 'role_name'",
  "createPull.created: /requested_teams/0 must have required property 'type'",
  "getPull.ok: /requested_teams/0 must have required property 'type'",
  "getRepository.ok: (root) must have required property 'language'",
  "getRepository.ok: /source must have required property 'language'",
  'listAdvisories.ok: /0 must NOT have additional properties',
  'listAdvisories.ok: /0/epss/percentile must be number',
  "listPulls.ok: /0/requested_teams/0 must have required property 'type'",
  "updatePull.ok: /requested_teams/0 must have required property 'type'",
  "updatePull.closed: /requested_teams/0 must have required property 'type'",
];

/**
 * The recorded answers are GitHub's own shapes: each JSON body validates against the response schema GitHub's
 * description gives its operation and status, and an error the description does not give a schema for is a
 * `basic-error` (`message`, `documentation_url`). What the description leaves undocumented is listed, so a change of
 * the description shows here.
 */
describe('recorded GitHub answers', () => {
  const description = gitHubDescription();

  it('validate against the response schema of their operation and status in GitHub description', () => {
    const unschematised: string[] = [];
    const invalid: string[] = [];
    for (const { call, name, operation, answer } of everyAnswer()) {
      const where = `${call}.${name} (${operation.method.toUpperCase()} ${operation.path} ${answer.status})`;
      expect(answer.source, where).not.toBe('');
      if (answer.body === undefined) continue;
      if (operation.path === '/graphql') continue;
      const content = description.operation(operation).responses[String(answer.status)]?.content?.['application/json'];
      if (content?.schema) {
        for (const error of description.responseErrors(operation, answer.status, answer.body)) {
          invalid.push(`${call}.${name}: ${error.replace(/ \{.*\}$/, '')}`);
        }
      } else {
        unschematised.push(`${call}.${name} ${answer.status}`);
        expect(description.responseErrors(BASIC_ERROR, 401, answer.body), where).toEqual([]);
      }
    }
    expect(invalid).toEqual(EXAMPLES_AGAINST_THEIR_SCHEMA);
    // Errors GitHub answers that its description does not give a body schema for (or does not list at all).
    expect(unschematised.sort()).toEqual([
      'createRef.privateNotVisible 404',
      'deleteRef.referenceMissing 422',
      'listOrgRepos.noSuchOrg 404',
      'requestReviewers.notCollaborator 422',
    ]);
  });

  it('the description documents every REST call the adapter makes but GET /repositories/{repository_id}', () => {
    const undocumented = Object.values(recorded)
      .map((entry) => entry.operation as OperationRef)
      .filter((operation) => operation.path !== '/graphql' && !description.documents(operation))
      .map((operation) => `${operation.method.toUpperCase()} ${operation.path}`);
    expect(undocumented).toEqual(['GET /repositories/{repository_id}']);
  });

  it('the request check rejects what the description does not document (so passing it means something)', () => {
    const createRef: OperationRef = { method: 'post', path: '/repos/{owner}/{repo}/git/refs' };
    const sent = { method: 'POST', path: '/repos/octocat/Hello-World/git/refs', query: {}, body: { ref: 'refs/heads/a', sha: 'abc' } };
    expect(description.requestErrors(createRef, sent)).toEqual([]);
    expect(description.requestErrors(createRef, { ...sent, method: 'PUT' })).toEqual(['method PUT, not POST']);
    expect(description.requestErrors(createRef, { ...sent, path: '/repos/octocat/git/refs' })).toEqual([
      'path /repos/octocat/git/refs does not fill /repos/{owner}/{repo}/git/refs',
    ]);
    expect(description.requestErrors(createRef, { ...sent, body: { ref: 'refs/heads/a' } }).join()).toMatch(
      /must have required property 'sha'/,
    );
    expect(description.requestErrors(createRef, { ...sent, body: { ...sent.body, force: true } })).toEqual([
      'body property force is not documented',
    ]);
    expect(description.requestErrors(createRef, { ...sent, query: { per_page: '100' } })).toEqual([
      'query parameter per_page is not documented',
    ]);
    const listPulls: OperationRef = { method: 'get', path: '/repos/{owner}/{repo}/pulls' };
    const list = { method: 'GET', path: '/repos/octocat/Hello-World/pulls', query: { state: 'merged', per_page: 'x' }, body: undefined };
    expect(description.requestErrors(listPulls, list).join('\n')).toMatch(
      /query parameter state: .*must be equal to one of the allowed values[\s\S]*per_page: .*must be integer/,
    );
    expect(description.requestErrors(listPulls, { ...list, query: {}, body: {} })).toEqual(['a body, but the operation takes none']);
  });

  it('rate-limit answers say what GitHub says: remaining 0 for a primary limit, the words "secondary rate limit" else', () => {
    for (const answer of [rateLimits.primary, rateLimits.primaryTooManyRequests]) {
      expect(answer.headers['x-ratelimit-remaining']).toBe('0');
      expect((answer.body as { message: string }).message).toMatch(/^API rate limit exceeded/);
    }
    for (const answer of [rateLimits.secondary, rateLimits.secondaryWithoutRetryAfter, rateLimits.secondaryTooManyRequests]) {
      expect(answer.headers['x-ratelimit-remaining']).not.toBe('0');
      expect((answer.body as { message: string }).message).toMatch(/secondary rate limit/);
    }
    expect(description.responseErrors(BASIC_ERROR, 403, rateLimits.secondary.body)).toEqual([]);
  });
});
