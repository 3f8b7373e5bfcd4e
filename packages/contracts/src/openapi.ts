import { catalogOpenApi } from './catalog/openapi.ts';
import { dependencyOpenApi } from './dependency/openapi.ts';
import { jsonSchema } from './openapi-helpers.ts';
import { peerOpenApi } from './peer/openapi.ts';
import { ProblemDetails } from './problem.ts';

/**
 * The OpenAPI 3.1 description of every API the gateway serves, generated from the zod schemas of this
 * package (JSON Schema 2020-12, which OpenAPI 3.1 uses as it is). Served by the gateway at `/openapi.json`.
 */
export function openApiDocument(): Record<string, unknown> {
  const catalog = catalogOpenApi();
  const dependency = dependencyOpenApi();
  const peer = peerOpenApi();
  return {
    openapi: '3.1.0',
    info: {
      title: 'switchyard',
      version: '0.1.0',
      description: 'Book catalogue, dependency update service and peer directory endpoints, behind one gateway.',
    },
    paths: { ...catalog.paths, ...dependency.paths, ...peer.paths },
    components: {
      schemas: { ...catalog.schemas, ...dependency.schemas, ...peer.schemas, ProblemDetails: jsonSchema(ProblemDetails) },
      securitySchemes: {
        personalToken: {
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          description: '`Personal <token>` (or `Bearer <token>`): a code-host personal access token with the `repo` scope',
        },
        peerDigest: { type: 'http', scheme: 'digest', description: "HTTP Digest (RFC 7616) as one of peer-svc's users" },
      },
    },
  };
}
