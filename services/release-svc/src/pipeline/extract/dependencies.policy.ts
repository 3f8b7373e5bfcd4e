import { type DependencyUse, type Ecosystem, ManifestParseError, type SkippedDeclaration, storableSkipped } from '@switchyard/ecosystems';
import type { RunScope } from '../read/target.policy.ts';

/** Skipped declarations a run keeps at most (the first, in the files' order). */
export const MAX_SKIPPED_DECLARATIONS = 100;

/**
 * The extract stage of the pipeline, pure: the dependencies of the run's scope in the files read
 * (`packages/ecosystems`): every direct dependency (`Ecosystem.listDependencies`: path, git and other non-registry
 * entries left out), or the one a notification names (`Ecosystem.findDependency`, names compared as the ecosystem
 * compares them: none when the manifests do not declare it). A file that does not parse is the run's failure, in the
 * parser's words (`ManifestParseError`).
 * Declarations the reader left out rather than failing the files (`Ecosystem.skippedDeclarations`: a Docker `FROM` whose
 * image cannot be read) come with them, each with its reason: the first {@link MAX_SKIPPED_DECLARATIONS}, made storable
 * (`storableSkipped`: control characters and lone surrogates replaced, the text cut to 200 characters).
 * @returns the dependencies in the manifests' order and what was skipped, or why the files could not be read
 */
export function extractDependencies(
  ecosystem: Ecosystem,
  files: Readonly<Record<string, string>>,
  scope: RunScope,
): { uses: DependencyUse[]; skipped: SkippedDeclaration[] } | { failed: string } {
  try {
    const skipped = (ecosystem.skippedDeclarations?.(files) ?? []).slice(0, MAX_SKIPPED_DECLARATIONS).map(storableSkipped);
    if (scope.kind === 'every-dependency') return { uses: ecosystem.listDependencies(files), skipped };
    const use = ecosystem.findDependency(files, scope.name);
    return { uses: use ? [use] : [], skipped };
  } catch (error) {
    if (error instanceof ManifestParseError) return { failed: error.message };
    throw error;
  }
}
