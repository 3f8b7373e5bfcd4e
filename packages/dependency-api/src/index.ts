export * from './dependency-api-app.ts';
export * from './start-dependency-api.ts';
