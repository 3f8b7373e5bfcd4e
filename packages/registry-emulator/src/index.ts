export * from './admin.ts';
export * from './app.ts';
export * from './config.ts';
export { cratesIndexPath } from './protocols/crates.ts';
export { minifyVersions } from './protocols/packagist.ts';
export { artifactBytes, artifactDigests } from './registry.ts';
export * from './seed.ts';
export { PRIVATE_REALM, PROTOCOLS } from './serve.ts';
export { compareVersions, composerNormalize, isPrerelease, pep503 } from './versions.ts';
