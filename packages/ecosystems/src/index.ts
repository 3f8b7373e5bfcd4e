export * from './assess.ts';
export * from './bundler/ecosystem.ts';
export { readGemfile } from './bundler/gemfile.ts';
export { readGemfileLock } from './bundler/gemfile-lock.ts';
export { rubyVersions } from './bundler/versions.ts';
export * from './cargo/ecosystem.ts';
export { cargoToSemverRange, cargoVersions } from './cargo/versions.ts';
export { composerToSemverRange, composerVersionToSemver } from './composer/constraint.ts';
export * from './composer/ecosystem.ts';
export { composerVersions } from './composer/versions.ts';
export * from './dep/ecosystem.ts';
export { depToSemverRange, depVersions } from './dep/versions.ts';
export { docker, dockerDeclarations, isDockerfile, skippedDockerDeclarations } from './docker/ecosystem.ts';
export { compareDockerTags, dockerVersions, parseDockerTag, printDockerTag, sameTagFormat } from './docker/versions.ts';
export * from './ecosystem.ts';
export * from './elm/ecosystem.ts';
export { elmVersions, parseElmConstraint } from './elm/versions.ts';
export * from './errors.ts';
export * from './github-actions/ecosystem.ts';
export { githubActionsVersions, parseActionVersion, printActionVersion } from './github-actions/versions.ts';
export * from './go/ecosystem.ts';
export { type GoMod, type ReadGoModOptions, readGoMod } from './go/go-mod.ts';
export {
  compareGoModuleVersions,
  compareGoVersions,
  type GoVersion,
  goVersions,
  isPseudoVersion,
  parseGoVersion,
  printGoVersion,
} from './go/versions.ts';
export { gradle } from './gradle/ecosystem.ts';
export { readGradleLockfile, updateGradleLockfiles } from './gradle/lockfile.ts';
export { compareGradleVersions, isGradlePrerelease, parseGradleVersion } from './gradle/version-order.ts';
export { gradlePinnedVersion, gradleVersions, inGradleRange, parseGradleRequirement } from './gradle/versions.ts';
export * from './hex/ecosystem.ts';
export { hexVersions, parseHexRequirement } from './hex/versions.ts';
export { installedVersion } from './installed.ts';
export { compareMavenVersions, parseMavenVersion } from './maven/comparable-version.ts';
export * from './maven/ecosystem.ts';
export { parseMavenRequirement } from './maven/range.ts';
export { mavenVersions } from './maven/versions.ts';
export * from './npm/ecosystem.ts';
export { npmVersions } from './npm/versions.ts';
export { nuget } from './nuget/ecosystem.ts';
export { normaliseNuGetVersion, nugetVersions, parseNuGetRequirement, parseNuGetVersion } from './nuget/versions.ts';
export * from './pip/ecosystem.ts';
export { normalisePythonName } from './pip/names.ts';
export { poetryToPep440 } from './pip/poetry-constraint.ts';
export { pep440Versions } from './pip/versions.ts';
export * from './registry.ts';
export * from './registry-data.ts';
export {
  filesMatching,
  gitlinkText,
  isFilePattern,
  MAX_RELATED_PATHS,
  matchesFilePattern,
  normaliseRelativePath,
  RELATED_ROUNDS,
  readGitlink,
  relatedFiles,
  repositoryPath,
  unmetRequirement,
} from './shared/files.ts';
export { MAX_SKIPPED_REASON, MAX_SKIPPED_TEXT, storableSkipped, storableText } from './shared/skipped.ts';
export * from './submodules/ecosystem.ts';
export { readGitmodules, submoduleDependencyName } from './submodules/gitmodules.ts';
export { submoduleVersions } from './submodules/versions.ts';
export * from './terraform/ecosystem.ts';
export { parseTerraformConstraint, terraformVersions } from './terraform/versions.ts';
