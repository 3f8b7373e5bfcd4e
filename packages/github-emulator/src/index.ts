export * from './app.ts';
export * from './config.ts';
export type { EmulatorFault } from './faults.ts';
export { GeneratedFile, type GeneratedFileInput, MAX_GENERATED_FILE_BYTES } from './files.ts';
export { GraphQLQueryError, MAX_OBJECTS_PER_QUERY, parseReadFilesQuery, type ReadFilesQuery } from './graphql-query.ts';
export { REQUEST_COUNTER_PATH, type RequestCounts } from './request-counter.ts';
export * from './scale-seed.ts';
export * from './seed.ts';
export { createWebhookSender, type WebhookEvent, type WebhookOptions, type WebhookSender, webhookSignature } from './webhooks.ts';
