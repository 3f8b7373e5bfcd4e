export * from './dependency-api-app.ts';
export * from './limits-env.ts';
export * from './start-dependency-api.ts';
export * from './update-schedule.ts';
