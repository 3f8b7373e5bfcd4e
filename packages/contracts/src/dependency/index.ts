export * from './advisory-ecosystems.ts';
export * from './errors.ts';
export * from './events.ts';
export * from './registry-credentials.ts';
export * from './release.ts';
export * from './requests.ts';
export * from './resources.ts';
export * from './update-runs.ts';
