import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv, type ValidateFunction } from 'ajv';
import formats from 'ajv-formats';
import { type HttpMethod, schemaErrors, toJsonSchema } from '../openapi.ts';

/**
 * GitHub's published REST description (`@octokit/openapi`, api.github.com, dereferenced) as the contract tests of the
 * code host adapter and of the emulator read it: the operations, the `examples` of their responses (GitHub's recorded
 * answers), and validators of responses, path and query parameters and request bodies.
 */

/** A node of the description (an operation, a schema, a parameter, …). */
type Node = Record<string, unknown>;

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: Node;
}

interface Operation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Node }> };
  responses: Record<string, { content?: Record<string, { schema?: Node; examples?: Record<string, { value?: unknown }> }> }>;
}

/** An operation of the description: its method and its path template (`/repos/{owner}/{repo}/git/refs`). */
export interface OperationRef {
  method: HttpMethod;
  path: string;
}

/** A request as a client sent it: method, raw (still percent-encoded) path, query parameters and parsed JSON body. */
export interface SentRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
}

/** GitHub's description, loaded by {@link gitHubDescription}. */
export interface GitHubDescription {
  /** The operation `method path`. @throws Error when the description has none */
  operation(ref: OperationRef): Operation;
  /** Whether the description documents `method path` at all. */
  documents(ref: OperationRef): boolean;
  /**
   * The example body of the `status` answer of an operation: the one named `name`, else the first. An example whose value
   * is itself an Example object (`{ value: … }`, as some of the description's `$ref`s resolve) is unwrapped.
   * @throws Error when the answer has no example
   */
  example(ref: OperationRef, status: number, name?: string): unknown;
  /** A validator of the `application/json` body of the `status` answer of an operation. */
  responseValidator(ref: OperationRef, status: number): ValidateFunction;
  /** `[]` when `body` is a valid `status` answer of the operation, else ajv's errors. */
  responseErrors(ref: OperationRef, status: number, body: unknown): string[];
  /**
   * `[]` when `sent` is a request the operation documents, else what is wrong: the method; the path against the path
   * template (each parameter one segment, valid against its schema once decoded); every query parameter documented and
   * valid; the JSON body valid against the request body schema and without top-level properties it does not document.
   */
  requestErrors(ref: OperationRef, sent: SentRequest): string[];
  /** Does the raw `path` fill the path template of `ref` (each `{parameter}` one non-empty segment)? */
  matches(ref: OperationRef, path: string): boolean;
}

let loaded: GitHubDescription | undefined;

/** The value of an example, unwrapping an Example object left inside it by the dereferencing. */
function exampleValue(example: unknown): unknown {
  let value = example;
  while (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    'value' in value &&
    Object.keys(value).every((key) => ['value', 'summary', 'description'].includes(key) || key.startsWith('x-'))
  ) {
    value = (value as { value: unknown }).value;
  }
  return value;
}

/** A regular expression of a path template: each `{parameter}` one non-empty segment, captured. */
function templatePattern(path: string): RegExp {
  const source = path
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith('{') ? '([^/]+)' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`);
}

/** A query or path parameter's text as the JSON value its schema expects (`"100"` → 100 for an integer, `"true"` → true). */
function typedValue(text: string, schema: Node | undefined): unknown {
  const type = schema?.type;
  if ((type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  if (type === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}

/** Top-level properties of `body` the object schema `schema` does not list (none for a schema without `properties`). */
function undocumentedProperties(body: unknown, schema: Node | undefined): string[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || !schema?.properties) return [];
  const documented = new Set(Object.keys(schema.properties as Node));
  return Object.keys(body).filter((key) => !documented.has(key));
}

/**
 * GitHub's REST description, parsed once per test file (about 70 MB of JSON) and compiling each validator once.
 * `@octokit/openapi` is a development dependency of the emulator; it is resolved from this package, so tests of other
 * packages can use this loader without depending on it themselves.
 */
export function gitHubDescription(): GitHubDescription {
  if (loaded) return loaded;
  const require = createRequire(import.meta.url);
  const file = require.resolve('@octokit/openapi/generated/api.github.com.deref.json');
  const spec = JSON.parse(readFileSync(file, 'utf8')) as { paths: Record<string, Partial<Record<HttpMethod, Operation>>> };
  const ajv = new Ajv({ strict: false, allErrors: true, logger: false });
  // ajv-formats is CommonJS: its default export is the plugin itself or a namespace holding it as `default`.
  const addFormats = ((formats as unknown as { default?: typeof formats }).default ?? formats) as unknown as (a: Ajv) => void;
  addFormats(ajv);
  const validators = new Map<string, ValidateFunction>();
  const compiled = (key: string, schema: () => Node): ValidateFunction => {
    let validate = validators.get(key);
    if (!validate) {
      validate = ajv.compile(toJsonSchema(schema()) as Node);
      validators.set(key, validate);
    }
    return validate;
  };

  const operation = ({ method, path }: OperationRef): Operation => {
    const found = spec.paths[path]?.[method];
    if (!found) throw new Error(`GitHub's description has no operation ${method.toUpperCase()} ${path}`);
    return found;
  };
  const responseSchema = (ref: OperationRef, status: number): Node => {
    const schema = operation(ref).responses[String(status)]?.content?.['application/json']?.schema;
    if (!schema)
      throw new Error(`no application/json schema for ${ref.method.toUpperCase()} ${ref.path} ${status} in GitHub's description`);
    return schema;
  };
  const responseValidator = (ref: OperationRef, status: number) =>
    compiled(`response ${ref.method} ${ref.path} ${status}`, () => responseSchema(ref, status));
  const matches = (ref: OperationRef, path: string) => templatePattern(ref.path).test(path);

  loaded = {
    operation,
    documents: ({ method, path }) => spec.paths[path]?.[method] !== undefined,
    example(ref, status, name) {
      const examples = operation(ref).responses[String(status)]?.content?.['application/json']?.examples ?? {};
      const chosen = name === undefined ? Object.values(examples)[0] : examples[name];
      if (!chosen) {
        throw new Error(`no example ${name ?? ''} of ${ref.method.toUpperCase()} ${ref.path} ${status} in GitHub's description`);
      }
      return exampleValue(chosen.value);
    },
    responseValidator,
    responseErrors: (ref, status, body) => schemaErrors(responseValidator(ref, status), body),
    matches,
    requestErrors(ref, sent) {
      const problems: string[] = [];
      if (sent.method.toLowerCase() !== ref.method) problems.push(`method ${sent.method}, not ${ref.method.toUpperCase()}`);
      const op = operation(ref);
      const parameters = op.parameters ?? [];
      const check = (where: string, parameter: Parameter, text: string) => {
        if (!parameter.schema) return;
        const validate = compiled(`parameter ${ref.method} ${ref.path} ${parameter.in} ${parameter.name}`, () => parameter.schema as Node);
        for (const error of schemaErrors(validate, typedValue(text, parameter.schema)))
          problems.push(`${where} ${parameter.name}: ${error}`);
      };
      const captured = templatePattern(ref.path).exec(sent.path);
      if (!captured) problems.push(`path ${sent.path} does not fill ${ref.path}`);
      else {
        const names = [...ref.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] as string);
        names.forEach((name, index) => {
          const parameter = parameters.find((p) => p.in === 'path' && p.name === name);
          if (!parameter) problems.push(`path parameter ${name} is not documented`);
          else check('path parameter', parameter, decodeURIComponent(captured[index + 1] as string));
        });
      }
      for (const [name, text] of Object.entries(sent.query)) {
        const parameter = parameters.find((p) => p.in === 'query' && p.name === name);
        if (!parameter) problems.push(`query parameter ${name} is not documented`);
        else check('query parameter', parameter, text);
      }
      for (const parameter of parameters) {
        if (parameter.in === 'query' && parameter.required && !(parameter.name in sent.query)) {
          problems.push(`required query parameter ${parameter.name} is missing`);
        }
      }
      const bodySchema = op.requestBody?.content?.['application/json']?.schema;
      if (bodySchema) {
        const validate = compiled(`request ${ref.method} ${ref.path}`, () => bodySchema);
        problems.push(...schemaErrors(validate, sent.body).map((error) => `body ${error}`));
        problems.push(...undocumentedProperties(sent.body, bodySchema).map((key) => `body property ${key} is not documented`));
      } else if (sent.body !== undefined) {
        problems.push('a body, but the operation takes none');
      }
      return problems;
    },
  };
  return loaded;
}
