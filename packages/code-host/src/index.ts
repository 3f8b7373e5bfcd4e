export * from './authenticate.ts';
export * from './byte-size.ts';
export * from './client-address.ts';
export * from './code-host-view.ts';
export * from './errors.ts';
export * from './fixed-window-limiter.ts';
export * from './github-adapter.ts';
export * from './permission.ts';
export type * from './port.ts';
