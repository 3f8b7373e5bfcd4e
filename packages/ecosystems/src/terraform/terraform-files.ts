import type { DependencyType } from '../ecosystem.ts';
import { isTable, parseJsonObject } from '../shared/parse.ts';
import { jsonStringAt, jsonStrings } from '../update/json-spans.ts';
import { attribute, type HclBlock, type HclString, type HclValue, parseHcl } from './hcl.ts';

/** The public Terraform registry's host, which a source may name or leave out. */
export const DEFAULT_TERRAFORM_HOST = 'registry.terraform.io';

/** A provider or module a `.tf` file declares. */
export interface TerraformDeclaration {
  /** `namespace/type` for providers, `namespace/name/provider` for registry modules (lower-cased), the source as written otherwise. */
  name: string;
  kind: 'provider' | 'module';
  /** The `.tf` file it is declared in. */
  file: string;
  /** The local name: the `required_providers` key or the module block's label. */
  key: string;
  type: DependencyType;
  /** The version constraint as written, null when there is none (or it is not a string literal). */
  requirement: string | null;
  /** The constraint's string literal, when it is one (its span is what an update edits). */
  literal: HclString | undefined;
  /** True when the `version` attribute is an expression other than a string literal. */
  computedVersion: boolean;
  /** `registry` for the public registry's providers and modules; `other` for local paths, git/URL sources and other hosts. */
  source: 'registry' | 'other';
  /** e.g. `terraform.required_providers.aws`, `module.vpc`. */
  where: string;
}

/**
 * The name of a provider source address (https://developer.hashicorp.com/terraform/language/providers/requirements#source-addresses):
 * `[hostname/]namespace/type`; a bare `type` is `hashicorp/type` (Terraform's legacy default namespace); the public
 * registry's host may be written or not. Lower-cased (addresses are case-insensitive). `other` for another host.
 */
export function providerName(source: string): { name: string; registry: boolean } {
  const parts = source.trim().toLowerCase().split('/');
  if (parts.length === 1) return { name: `hashicorp/${parts[0]}`, registry: true };
  if (parts.length === 2) return { name: parts.join('/'), registry: true };
  if (parts.length === 3 && parts[0] === DEFAULT_TERRAFORM_HOST) return { name: parts.slice(1).join('/'), registry: true };
  return { name: parts.join('/'), registry: false };
}

const REGISTRY_PART = /^[a-z0-9][a-z0-9_-]*$/;

/**
 * The registry name of a module source (https://developer.hashicorp.com/terraform/language/modules/sources#terraform-registry):
 * `[hostname/]namespace/name/provider` with an optional `//subdirectory`, lower-cased; undefined for local paths
 * (`./`, `../`), git/HTTP/S3/GCS sources (`git::`, `https://`, `github.com/...`, `git@...`) and registries on other hosts.
 */
export function moduleName(source: string): string | undefined {
  const trimmed = source.trim();
  if (/^\.{1,2}[/\\]/.test(trimmed) || trimmed.includes('::') || trimmed.includes('://') || trimmed.includes('?')) return undefined;
  if (/^(?:github\.com|bitbucket\.org|git@)/i.test(trimmed)) return undefined;
  const [address = ''] = trimmed.split('//');
  let parts = address.toLowerCase().split('/');
  if (parts.length === 4 && parts[0] === DEFAULT_TERRAFORM_HOST) parts = parts.slice(1);
  if (parts.length !== 3 || !parts.every((part) => REGISTRY_PART.test(part))) return undefined;
  return parts.join('/');
}

/** The string literal of a value, undefined for anything else. */
const literalOf = (value: HclValue | undefined): HclString | undefined => (value?.kind === 'string' ? value : undefined);

/** A constraint literal's requirement (trimmed), null when it is empty. */
const requirementOf = (literal: HclString | undefined): string | null => {
  const text = literal?.value.trim();
  return text ? text : null;
};

/** The `required_providers` entries of a `terraform` block. */
function providersOf(file: string, block: HclBlock): TerraformDeclaration[] {
  const out: TerraformDeclaration[] = [];
  for (const required of block.body.blocks.filter((b) => b.type === 'required_providers')) {
    for (const entry of required.body.attributes) {
      const where = `terraform.required_providers.${entry.name}`;
      const value = entry.value;
      if (value.kind === 'string') {
        // Terraform 0.12's shorthand `aws = "~> 2.0"`: a constraint for hashicorp/aws
        out.push({
          name: `hashicorp/${entry.name.toLowerCase()}`,
          kind: 'provider',
          file,
          key: entry.name,
          type: 'runtime',
          requirement: requirementOf(value),
          literal: value,
          computedVersion: false,
          source: 'registry',
          where,
        });
        continue;
      }
      if (value.kind !== 'object') continue;
      const sourceValue = literalOf(attribute(value.entries, 'source'));
      const { name, registry } = providerName(sourceValue?.value ?? entry.name);
      const version = attribute(value.entries, 'version');
      const literal = literalOf(version);
      out.push({
        name,
        kind: 'provider',
        file,
        key: entry.name,
        type: 'runtime',
        requirement: requirementOf(literal),
        literal,
        computedVersion: version !== undefined && literal === undefined,
        source: registry ? 'registry' : 'other',
        where,
      });
    }
  }
  return out;
}

/** A `module` block's declaration; undefined for a block without a string `source`. */
function moduleOf(file: string, block: HclBlock): TerraformDeclaration | undefined {
  const source = literalOf(attribute(block.body.attributes, 'source'));
  if (!source) return undefined;
  const name = moduleName(source.value);
  const version = attribute(block.body.attributes, 'version');
  const literal = literalOf(version);
  return {
    name: name ?? source.value,
    kind: 'module',
    file,
    key: block.labels[0] ?? '',
    type: 'runtime',
    requirement: requirementOf(literal),
    literal,
    computedVersion: version !== undefined && literal === undefined,
    source: name === undefined ? 'other' : 'registry',
    where: `module.${block.labels[0] ?? ''}`,
  };
}

/**
 * Every provider requirement (`terraform { required_providers { ... } }`, also the 0.12 string shorthand) and module
 * call (`module "x" { source = ..., version = ... }`) of one `.tf` file, in file order (providers of a `terraform`
 * block where the block is). All are runtime dependencies.
 * @throws ManifestParseError when the file is not HCL {@link parseHcl} reads
 */
export function readTerraformFile(file: string, text: string): TerraformDeclaration[] {
  const body = parseHcl(file, text);
  const out: TerraformDeclaration[] = [];
  for (const block of body.blocks) {
    if (block.type === 'terraform') out.push(...providersOf(file, block));
    else if (block.type === 'module') {
      const declaration = moduleOf(file, block);
      if (declaration) out.push(declaration);
    }
  }
  return out;
}

/** A JSON syntax block value: an object, or an array of objects (each an instance of the block); with their key paths. */
function jsonBlocks(value: unknown, path: string[]): [Record<string, unknown>, string[]][] {
  if (isTable(value)) return [[value, path]];
  if (Array.isArray(value)) return value.flatMap((item, index) => jsonBlocks(item, [...path, String(index)]));
  return [];
}

/**
 * The providers and module calls of a `.tf.json` file (https://developer.hashicorp.com/terraform/language/syntax/json):
 * `{"terraform": {"required_providers": {"aws": {"source": "hashicorp/aws", "version": "~> 5.0"}}}, "module": {"vpc":
 * {"source": "...", "version": "..."}}}`, where a block may also be an array of such objects. Same declarations as
 * {@link readTerraformFile}, with the spans of the JSON strings (a string with escapes is not editable).
 * @throws ManifestParseError when the file is not a JSON object
 */
export function readTerraformJsonFile(file: string, text: string): TerraformDeclaration[] {
  const doc = parseJsonObject(file, text);
  const strings = jsonStrings(text);
  const literal = (value: unknown, path: string[]): HclString | undefined => {
    if (typeof value !== 'string') return undefined;
    const span = strings.findLast((s) => s.path.length === path.length && s.path.every((key, i) => key === path[i]));
    if (!span) return undefined;
    return { kind: 'string', value, start: span.start, end: span.end, escaped: jsonStringAt(strings, path) === undefined };
  };
  const out: TerraformDeclaration[] = [];
  for (const [block, path] of jsonBlocks(doc.terraform, ['terraform'])) {
    for (const [providers, providersPath] of jsonBlocks(block.required_providers, [...path, 'required_providers'])) {
      for (const [key, value] of Object.entries(providers)) {
        const where = `terraform.required_providers.${key}`;
        const entryPath = [...providersPath, key];
        const versionValue = typeof value === 'string' ? value : isTable(value) ? value.version : undefined;
        const versionLiteral = literal(versionValue, typeof value === 'string' ? entryPath : [...entryPath, 'version']);
        const source = isTable(value) && typeof value.source === 'string' ? value.source : key;
        const { name, registry } =
          typeof value === 'string' ? { name: `hashicorp/${key.toLowerCase()}`, registry: true } : providerName(source);
        out.push({
          name,
          kind: 'provider',
          file,
          key,
          type: 'runtime',
          requirement: requirementOf(versionLiteral),
          literal: versionLiteral,
          computedVersion: versionValue !== undefined && versionLiteral === undefined,
          source: registry ? 'registry' : 'other',
          where,
        });
      }
    }
  }
  for (const [modules, modulesPath] of jsonBlocks(doc.module, ['module'])) {
    for (const [key, value] of Object.entries(modules)) {
      for (const [call, callPath] of jsonBlocks(value, [...modulesPath, key])) {
        if (typeof call.source !== 'string') continue;
        const name = moduleName(call.source);
        const versionLiteral = literal(call.version, [...callPath, 'version']);
        out.push({
          name: name ?? call.source,
          kind: 'module',
          file,
          key,
          type: 'runtime',
          requirement: requirementOf(versionLiteral),
          literal: versionLiteral,
          computedVersion: call.version !== undefined && versionLiteral === undefined,
          source: name === undefined ? 'other' : 'registry',
          where: `module.${key}`,
        });
      }
    }
  }
  return out;
}

/** The declarations of a `.tf` or `.tf.json` file, by its name. */
export function readTerraformAny(file: string, text: string): TerraformDeclaration[] {
  return file.endsWith('.tf.json') ? readTerraformJsonFile(file, text) : readTerraformFile(file, text);
}

/** A provider locked by `.terraform.lock.hcl`. */
export interface LockedProvider {
  /** `namespace/type` (lower-cased) for the public registry; the whole address otherwise. */
  name: string;
  /** The address as written, e.g. `registry.terraform.io/hashicorp/aws`. */
  address: string;
  version: string | null;
  block: HclBlock;
}

/**
 * The providers of a dependency lock file (https://developer.hashicorp.com/terraform/language/files/dependency-lock):
 * `provider "<address>" { version = "...", constraints = "...", hashes = [...] }` blocks.
 * @throws ManifestParseError when the file is not HCL {@link parseHcl} reads
 */
export function readTerraformLock(file: string, text: string): LockedProvider[] {
  return parseHcl(file, text)
    .blocks.filter((block) => block.type === 'provider' && block.labels.length === 1)
    .map((block) => {
      const address = block.labels[0] ?? '';
      const version = literalOf(attribute(block.body.attributes, 'version'))?.value ?? null;
      return { name: providerName(address).name, address, version, block };
    });
}
