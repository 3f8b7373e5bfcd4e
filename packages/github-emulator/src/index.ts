export * from './app.ts';
export * from './config.ts';
export type { EmulatorFault } from './faults.ts';
export { GeneratedFile, type GeneratedFileInput, MAX_GENERATED_FILE_BYTES } from './files.ts';
export * from './scale-seed.ts';
export * from './seed.ts';
export { createWebhookSender, type WebhookEvent, type WebhookOptions, type WebhookSender, webhookSignature } from './webhooks.ts';
