export * from './app.ts';
export { APPS_ADMIN_PATH } from './apps/admin-routes.ts';
export { INSTALLATION_TOKEN_TTL_MS } from './apps/installations.ts';
export {
  type AppJwtClaims,
  appJwtAt,
  JWT_CLOCK_SKEW_SECONDS,
  JWT_MAX_LIFETIME_SECONDS,
  type JwtCheck,
  signAppJwt,
  verifyAppJwt,
} from './apps/jwt.ts';
export { appWithPrivateKey, writeAppPrivateKeyFile } from './apps/key-file.ts';
export { APP_MESSAGES } from './apps/messages.ts';
export * from './config.ts';
export type { EmulatorFault } from './faults.ts';
export { GeneratedFile, type GeneratedFileInput, MAX_GENERATED_FILE_BYTES } from './files.ts';
export { type DiscardedCommit, FORCED_UPDATES_PATH, type ForcedUpdateRecord, type ForcedUpdates } from './forced-updates.ts';
export { MAX_NODES, MAX_PAGE_SIZE, type QueryCost } from './graphql/cost.ts';
export { GraphQLQueryError, parseReadFilesQuery, type ReadFilesQuery } from './graphql/read-files.ts';
export { SCHEMA_PATH } from './graphql/schema.ts';
export { SavedStateError } from './persistence/saved-state-error.ts';
export { type LimitKind, REQUEST_COUNTER_PATH, type RequestCounts } from './request-counter.ts';
export * from './scale-seed.ts';
export { CONCURRENT_RETRY_AFTER_SECONDS } from './secondary-limits/enforce.ts';
export { GITHUB_SECONDARY_LIMITS, type SecondaryLimits } from './secondary-limits/limiter.ts';
export { SECONDARY_LIMIT_DOCS, secondaryLimitMessage } from './secondary-limits/refusal.ts';
export * from './seed.ts';
export {
  AppPermissions,
  botLoginOf,
  botUserIdOf,
  clientIdOf,
  type EmulatedApp,
  LEGACY_INSTALLATION_PERMISSIONS,
  PermissionLevel,
  SeedApp,
} from './seed-apps.ts';
export { DEFAULT_APP } from './seed-installations.ts';
export { createWebhookSender, type WebhookEvent, type WebhookOptions, type WebhookSender, webhookSignature } from './webhooks.ts';
