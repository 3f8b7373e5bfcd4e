import { z } from 'zod';
import { PROBLEM_CONTENT_TYPE } from './problem.ts';

/** Small builders for the OpenAPI 3.1 document (JSON Schema 2020-12 from zod, `$ref`s to components). */

/** A zod schema as JSON Schema, as a request would send it. */
export const jsonSchema = (schema: z.ZodType) => z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });

/** `content` of a JSON body whose schema is the component `ref`. */
export const jsonContent = (ref: string, mediaType = 'application/json') => ({
  [mediaType]: { schema: { $ref: `#/components/schemas/${ref}` } },
});

/** A response whose body is an RFC 9457 problem. */
export const problemResponse = (description: string) => ({
  description,
  content: { [PROBLEM_CONTENT_TYPE]: { schema: { $ref: '#/components/schemas/ProblemDetails' } } },
});
