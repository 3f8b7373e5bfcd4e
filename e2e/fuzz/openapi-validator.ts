import { openApiDocument } from '@switchyard/contracts';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';

type Json = Record<string, unknown>;

interface Operation {
  responses: Record<string, { content?: Record<string, { schema: Json }> }>;
}

/** What the OpenAPI document says of one answer. */
export type DocumentedAnswer =
  | { kind: 'undocumented-path' }
  | { kind: 'undocumented-method' }
  | { kind: 'undocumented-status' }
  | { kind: 'no-body' }
  | { kind: 'body'; mediaType: string; validate: ValidateFunction };

/** Rewrites `#/components/schemas/X` to `#/$defs/X` and drops nested `$schema` keys, so each response schema compiles on its own. */
function rewrite(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rewrite);
  if (typeof node !== 'object' || node === null) return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$schema') continue;
    out[key] = key === '$ref' && typeof value === 'string' ? value.replace('#/components/schemas/', '#/$defs/') : rewrite(value);
  }
  return out;
}

/** The path templates of `paths` as regular expressions (`{id}` is one segment), matched case-insensitively as express routes. */
function templates(paths: Record<string, unknown>): [string, RegExp][] {
  return Object.keys(paths).map((template) => {
    const pattern = template
      .split(/\{[^}]+\}/)
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('[^/]+');
    // express matches a path with one trailing slash as the same route.
    return [template, new RegExp(`^${pattern}/?$`, 'i')];
  });
}

/**
 * The OpenAPI 3.1 document the gateway serves (`openApiDocument()` of packages/contracts), as validators of its
 * responses: ajv's JSON Schema 2020-12 dialect (the one OpenAPI 3.1 uses), with `ajv-formats` for `uuid`,
 * `date-time` and the like. Compiled once per operation and status.
 */
export class OpenApiResponses {
  private readonly doc = openApiDocument() as { paths: Record<string, Record<string, Operation>>; components: { schemas: Json } };
  private readonly defs = rewrite(this.doc.components.schemas) as Json;
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, logger: false });
  private readonly patterns = templates(this.doc.paths);
  private readonly cache = new Map<string, ValidateFunction>();

  constructor() {
    // ajv-formats is CommonJS: its default export is the plugin itself or a namespace holding it as `default`.
    const addFormats = ((formats as unknown as { default?: typeof formats }).default ?? formats) as unknown as (a: Ajv2020) => void;
    addFormats(this.ajv);
  }

  /** The template of `path` (no query string) in the document, e.g. `/books/{id}` for `/books/7`; undefined when none. */
  template(path: string): string | undefined {
    return this.patterns.find(([, pattern]) => pattern.test(path))?.[0];
  }

  /** What the document says of a `status` answer to `method path` (`HEAD` is looked up as `GET`). */
  answer(method: string, path: string, status: number): DocumentedAnswer {
    const template = this.template(path);
    if (template === undefined) return { kind: 'undocumented-path' };
    const operation = this.doc.paths[template]?.[method === 'HEAD' ? 'get' : method.toLowerCase()];
    if (!operation) return { kind: 'undocumented-method' };
    const response = operation.responses[String(status)];
    if (!response) return { kind: 'undocumented-status' };
    const [mediaType, media] = Object.entries(response.content ?? {})[0] ?? [];
    if (!mediaType || !media) return { kind: 'no-body' };
    const key = `${template} ${method} ${status}`;
    let validate = this.cache.get(key);
    if (!validate) {
      validate = this.ajv.compile({ ...(rewrite(media.schema) as Json), $defs: this.defs });
      this.cache.set(key, validate);
    }
    return { kind: 'body', mediaType, validate };
  }
}

/** ajv's errors of the last validation as `instancePath message` lines. */
export function schemaErrors(validate: ValidateFunction): string[] {
  return (validate.errors ?? []).map((error) => `${error.instancePath || '(root)'} ${error.message ?? ''} ${JSON.stringify(error.params)}`);
}
