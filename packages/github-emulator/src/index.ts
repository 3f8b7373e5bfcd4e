export * from './app.ts';
export * from './config.ts';
export type { EmulatorFault } from './faults.ts';
export * from './scale-seed.ts';
export * from './seed.ts';
