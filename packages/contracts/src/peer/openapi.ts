import { jsonContent, jsonSchema } from '../openapi-helpers.ts';
import { DEFAULT_BUNDLES_TAKEN, MAX_BUNDLES_TAKEN, TakenWorkBundles } from './client-places.ts';
import { PeerDirectory } from './directory.ts';

/** A `text/plain` answer of the peer API (its errors are all plain text). */
const textResponse = (description: string) => ({ description, content: { 'text/plain': { schema: { type: 'string' } } } });

/**
 * Paths and component schemas of the peer API's JSON extensions, served by peer-svc (its README): the directory's
 * entries, and reading a client place's queue back. Digest-authenticated (RFC 7616) like the peer endpoints, whose errors it shares (`text/plain`).
 */
export function peerOpenApi(): { paths: Record<string, unknown>; schemas: Record<string, unknown> } {
  const tags = ['peer directory'];
  return {
    paths: {
      '/emissary/directory': {
        get: {
          tags,
          security: [{ peerDigest: [] }],
          summary: "The directory's entries (this project's extension)",
          description:
            'Every directory entry (place) this peer knows, its own and those learned from other directories, grouped by ' +
            'data id, each group cheapest first, with where each came from and how long ago it was last confirmed. The ' +
            'query string is ignored.',
          responses: {
            '200': { description: 'The directory', content: jsonContent('PeerDirectory') },
            '401': textResponse('No, wrong, stale or replayed Digest credentials (`WWW-Authenticate: Digest` challenges)'),
          },
        },
      },
      '/emissary/client-places/{name}/bundles': {
        get: {
          tags,
          security: [{ peerDigest: [] }],
          summary: "Take work bundles off a client place's queue (this project's extension)",
          description:
            'Removes up to `take` work bundles from the queue of the client place `name` (found as `WorkSpaceClientEnqueue` ' +
            'finds it: by name, then by the service location of a directory key) and answers them, oldest first. Taking ' +
            'removes them: the caller stands in for the pick-up client. HEAD is refused (405).',
          parameters: [
            {
              name: 'name',
              in: 'path',
              required: true,
              description: 'The client place, percent-encoded (`pickUpClientName` of the enqueue)',
              schema: { type: 'string' },
            },
            {
              name: 'take',
              in: 'query',
              description: 'How many bundles to take at most',
              schema: { type: 'integer', minimum: 1, maximum: MAX_BUNDLES_TAKEN, default: DEFAULT_BUNDLES_TAKEN },
            },
          ],
          responses: {
            '200': { description: 'The bundles taken (none when the queue is empty)', content: jsonContent('TakenWorkBundles') },
            '400': textResponse('`take` is not one integer from 1 to 100'),
            '401': textResponse('No, wrong, stale or replayed Digest credentials (`WWW-Authenticate: Digest` challenges)'),
            '404': textResponse('`No client place found using name <name>`'),
            '503': textResponse('The broker could not be read'),
          },
        },
      },
    },
    schemas: { TakenWorkBundles: jsonSchema(TakenWorkBundles), PeerDirectory: jsonSchema(PeerDirectory) },
  };
}
