export * from './http-client.ts';
export * from './test-database.ts';
export * from './process.ts';
