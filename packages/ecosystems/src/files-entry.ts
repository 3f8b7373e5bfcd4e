/**
 * `@switchyard/ecosystems/files`: what a caller needs to check that a directory holds a package manager's files, without
 * loading the ecosystems' parsers and resolvers (config-svc checks a config's directory with it).
 */
export { REQUIRED_FILES } from './required-files.ts';
export { filesMatching, isFilePattern, matchesFilePattern, unmetRequirement } from './shared/files.ts';
