import type { RegistryError, RegistryPackage } from '@switchyard/registries';

/** A package found: what the registry says of it, and which registry said it. */
export interface FoundPackage {
  package: RegistryPackage;
  /** The base URL of the registry that answered. */
  registry: string;
}

/** A package no registry asked knows: the base URLs asked, in order. */
export interface PackageNotFound {
  notFound: true;
  registries: string[];
}

/**
 * What the registries said of a package: found (its versions, and the registry that answered), not known to any
 * registry asked (their base URLs, in order), no registry adapter for the package manager, or a registry that could not
 * be asked, refused the credentials or answered nonsense (its error: the decide stage reports it).
 */
export type Resolved = { found: FoundPackage } | { notFound: string[] } | { noRegistry: true } | { failed: RegistryError };
