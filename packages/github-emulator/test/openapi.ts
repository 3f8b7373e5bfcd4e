import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv, type ValidateFunction } from 'ajv';
import formats from 'ajv-formats';

/** A JSON schema node of GitHub's OpenAPI 3.0 description (dereferenced: no `$ref`). */
type SchemaNode = Record<string, unknown>;

/**
 * Turns an OpenAPI 3.0 schema into JSON Schema for ajv: `nullable: true` becomes a `type` union with `null` (or an
 * `anyOf` with `{type: "null"}` when the node has no type, e.g. a nullable `allOf`), recursively through
 * `properties`, `items`, `additionalProperties`, `allOf`/`anyOf`/`oneOf` and `not`; `example(s)` are dropped.
 */
export function toJsonSchema(node: unknown): unknown {
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return node;
  const { nullable, example: _example, examples: _examples, ...rest } = node as SchemaNode;
  const out: SchemaNode = { ...rest };
  if (rest.properties) {
    out.properties = Object.fromEntries(Object.entries(rest.properties as SchemaNode).map(([name, child]) => [name, toJsonSchema(child)]));
  }
  if (rest.items) out.items = toJsonSchema(rest.items);
  if (typeof rest.additionalProperties === 'object') out.additionalProperties = toJsonSchema(rest.additionalProperties);
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    if (Array.isArray(rest[key])) out[key] = (rest[key] as unknown[]).map(toJsonSchema);
  }
  if (rest.not) out.not = toJsonSchema(rest.not);
  if (nullable !== true) return out;
  if (typeof out.type === 'string') {
    out.type = [out.type, 'null'];
    // Some nullable enums (the webhook payloads') list null already.
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    return out;
  }
  return { anyOf: [out, { type: 'null' }] };
}

/** GitHub's published OpenAPI description (api.github.com, dereferenced), loaded once per test file that calls this. */
export interface GitHubOpenApi {
  /** A validator for the `status` response of `<method> path` (default GET; media type `application/json`). */
  validator(path: string, status: string, method?: HttpMethod): ValidateFunction;
  /** The raw (OpenAPI) response schema, e.g. to list its documented property names. */
  schema(path: string, status: string, method?: HttpMethod): SchemaNode;
  /**
   * A validator for the payload of a webhook event and action as GitHub's description (`x-webhooks`) names it:
   * `issue-comment-created`, `issues-opened`, `push`, `pull-request-review-requested`, …
   */
  webhookValidator(name: string): ValidateFunction;
}

/** The operations of a path in the OpenAPI description. */
export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** Loads GitHub's OpenAPI description (`@octokit/openapi`) and compiles validators from it on demand, each once. */
export function loadGitHubOpenApi(): GitHubOpenApi {
  const require = createRequire(import.meta.url);
  const file = require.resolve('@octokit/openapi/generated/api.github.com.deref.json');
  const spec = JSON.parse(readFileSync(file, 'utf8')) as {
    paths: Record<string, Partial<Record<HttpMethod, { responses: Record<string, { content?: Record<string, { schema: SchemaNode }> }> }>>>;
    'x-webhooks': Record<string, { post?: { requestBody?: { content?: Record<string, { schema: SchemaNode }> } } }>;
  };
  const ajv = new Ajv({ strict: false, allErrors: true, logger: false });
  // ajv-formats is CommonJS: its default export is the plugin itself or a namespace holding it as `default`.
  const addFormats = ((formats as unknown as { default?: typeof formats }).default ?? formats) as unknown as (a: Ajv) => void;
  addFormats(ajv);
  const cache = new Map<string, ValidateFunction>();
  const schema = (path: string, status: string, method: HttpMethod = 'get'): SchemaNode => {
    const found = spec.paths[path]?.[method]?.responses[status]?.content?.['application/json']?.schema;
    if (!found) throw new Error(`no application/json schema for ${method.toUpperCase()} ${path} ${status} in GitHub's OpenAPI description`);
    return found;
  };
  return {
    schema,
    webhookValidator(name) {
      const key = `webhook ${name}`;
      let validate = cache.get(key);
      if (!validate) {
        const found = spec['x-webhooks'][name]?.post?.requestBody?.content?.['application/json']?.schema;
        if (!found) throw new Error(`no webhook ${name} in GitHub's OpenAPI description`);
        validate = ajv.compile(toJsonSchema(found) as SchemaNode);
        cache.set(key, validate);
      }
      return validate;
    },
    validator(path, status, method = 'get') {
      const key = `${method} ${path} ${status}`;
      let validate = cache.get(key);
      if (!validate) {
        validate = ajv.compile(toJsonSchema(schema(path, status, method)) as SchemaNode);
        cache.set(key, validate);
      }
      return validate;
    },
  };
}

/** `[]` when `body` matches, else ajv's errors as `instancePath message` lines (shown by a failing `toEqual([])`). */
export function schemaErrors(validate: ValidateFunction, body: unknown): string[] {
  if (validate(body)) return [];
  return (validate.errors ?? []).map((error) => `${error.instancePath || '(root)'} ${error.message ?? ''} ${JSON.stringify(error.params)}`);
}
