import type { DependencyType, DependencyUse } from '../ecosystem.ts';

/** A declaration of a dependency in one of an ecosystem's files, as far as {@link useOfDeclarations} reads it. */
export interface FileDeclaration {
  name: string;
  type: DependencyType;
  /** The file it is written in (the use's `manifest`). */
  file: string;
}

/**
 * The use of one dependency from all its declarations (in the ecosystem's reading order), by Dependabot's rule: the
 * first declaration whose requirement can be read gives the requirement, the version (`pinned(requirement)`: the exact
 * version it pins, or null) and the manifest; any runtime declaration makes the dependency runtime.
 * @returns undefined for no declarations
 */
export function useOfDeclarations<D extends FileDeclaration>(
  all: readonly D[],
  requirementOf: (declaration: D) => string | null,
  pinned: (requirement: string | null) => string | null,
): DependencyUse | undefined {
  const chosen = all.find((d) => requirementOf(d) !== null) ?? all[0];
  if (!chosen) return undefined;
  const requirement = requirementOf(chosen);
  return {
    name: chosen.name,
    type: all.some((d) => d.type === 'runtime') ? 'runtime' : 'development',
    requirement,
    version: pinned(requirement),
    manifest: chosen.file,
  };
}
