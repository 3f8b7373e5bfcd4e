export * from './errors.ts';
export * from './github-adapter.ts';
export * from './permission.ts';
export type * from './port.ts';
