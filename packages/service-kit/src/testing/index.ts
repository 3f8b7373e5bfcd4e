import './provided-context.ts';

export * from './http-client.ts';
export * from './process.ts';
export * from './test-database.ts';
