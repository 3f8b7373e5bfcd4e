import type { DependencyUse, Ecosystem } from '../ecosystem.ts';
import { requiredFilesOf } from '../required-files.ts';
import { filesOf } from '../shared/files.ts';
import { groupBy } from '../shared/group.ts';
import { lazy } from '../shared/lazy.ts';
import { updateDeclarations } from '../update/declarations.ts';
import { TERRAFORM_LOCKFILE, updateTerraformLock } from './lockfile-update.ts';
import { DEFAULT_TERRAFORM_HOST, readTerraformAny, readTerraformLock, type TerraformDeclaration } from './terraform-files.ts';
import { locateTerraform } from './update.ts';
import { terraformVersions } from './versions.ts';

type Files = Readonly<Record<string, string>>;

/**
 * Terraform names compare case-insensitively, and the public registry's host may be written or not:
 * `registry.terraform.io/HashiCorp/AWS` → `hashicorp/aws`.
 */
export const normaliseTerraformName = (name: string): string => {
  const lower = name.trim().toLowerCase();
  return lower.startsWith(`${DEFAULT_TERRAFORM_HOST}/`) ? lower.slice(DEFAULT_TERRAFORM_HOST.length + 1) : lower;
};

/** Every declaration of every `*.tf` file, then of every `*.tf.json` file, files by path. */
const declarationsOf = (files: Files): TerraformDeclaration[] =>
  [...filesOf(files, '*.tf'), ...filesOf(files, '*.tf.json')].flatMap(([file, text]) => readTerraformAny(file, text));

/** The lock file's provider versions by name (read on first use, once); undefined without a lock file. */
function lockedVersions(files: Files): () => Map<string, string> | undefined {
  return lazy(() => {
    const text = files[TERRAFORM_LOCKFILE];
    if (text === undefined) return undefined;
    const out = new Map<string, string>();
    for (const provider of readTerraformLock(TERRAFORM_LOCKFILE, text)) if (provider.version) out.set(provider.name, provider.version);
    return out;
  });
}

/** The declaration that gives the requirement: the first with one, else the first. */
const chosen = (declarations: readonly TerraformDeclaration[]) => declarations.find((d) => d.requirement !== null) ?? declarations[0];

/** The use of a provider or module from its declarations. */
function useOf(declarations: readonly TerraformDeclaration[], locked: () => Map<string, string> | undefined): DependencyUse | undefined {
  const first = chosen(declarations);
  if (!first) return undefined;
  let version: string | null = null;
  if (first.kind === 'provider') version = locked()?.get(first.name) ?? null;
  if (version === null && first.requirement !== null) {
    const exact = /^=?\s*(\d+\.\d+\.\d+\S*)$/.exec(first.requirement)?.[1];
    if (exact && terraformVersions.isValid(exact)) version = exact;
  }
  return { name: first.name, type: 'runtime', requirement: first.requirement, version, manifest: first.file };
}

/**
 * Terraform (https://developer.hashicorp.com/terraform/language): the `*.tf` (and `*.tf.json`) files of the directory and its
 * `.terraform.lock.hcl`. Dependencies are providers (`terraform { required_providers { aws = { source =
 * "hashicorp/aws", version = "~> 5.0" } } }`, named `namespace/type`) and registry modules (`module "vpc" { source =
 * "terraform-aws-modules/vpc/aws", version = "5.1.0" }`, named `namespace/name/provider`), lower-cased; a provider
 * may be declared in several files, and the first declaration with a constraint gives its requirement. The version
 * in use is the lock file's for providers, else an exact constraint's version. `listDependencies` leaves out local,
 * git and URL module sources and other registries' hosts. `updateManifest` rewrites every declaration's `version`
 * string (see {@link locateTerraform}); `updateLockfiles` the provider's lock entry (see {@link updateTerraformLock}).
 * `*.tf.json` files (Terraform's JSON syntax) are read the same way, after the `*.tf` files.
 */
export const terraform: Ecosystem = {
  packageManager: 'terraform',
  files: { required: requiredFilesOf('terraform'), optional: [TERRAFORM_LOCKFILE], lockfiles: [TERRAFORM_LOCKFILE] },
  versions: terraformVersions,
  normaliseName: normaliseTerraformName,
  findDependency(files, name) {
    const wanted = normaliseTerraformName(name);
    return useOf(
      declarationsOf(files).filter((d) => d.name === wanted),
      lockedVersions(files),
    );
  },
  listDependencies(files) {
    const locked = lockedVersions(files);
    return [...groupBy(declarationsOf(files), (d) => d.name).values()]
      .filter((declarations) => chosen(declarations)?.source === 'registry')
      .flatMap((declarations) => useOf(declarations, locked) ?? []);
  },
  updateManifest(files, use, targetVersion) {
    return updateDeclarations(
      {
        schemeName: 'Terraform',
        scheme: terraformVersions,
        find: (f, name) => terraform.findDependency(f, name),
        locate: locateTerraform,
      },
      files,
      use,
      targetVersion,
    );
  },
  updateLockfiles: async (request) => {
    const updated = terraform.findDependency(request.updated, request.use.name);
    return updateTerraformLock(request, updated?.requirement ?? null);
  },
};
