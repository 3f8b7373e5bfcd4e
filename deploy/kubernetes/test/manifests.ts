import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as kedaModels from '@kubernetes-models/keda';
import * as kubernetesModels from 'kubernetes-models';
import { parse, parseAllDocuments } from 'yaml';

/** The folder of the kustomize base (`deploy/kubernetes`). */
export const BASE_DIR = fileURLToPath(new URL('..', import.meta.url));

/** A Kubernetes object as read from a manifest: its type meta and name; the rest is unchecked until validated. */
export interface KubernetesObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  [field: string]: unknown;
}

/** One YAML document of a manifest file listed in the kustomization's `resources`. */
export interface ManifestDocument {
  /** The file, relative to {@link BASE_DIR}. */
  file: string;
  /** The document's place in its file, from 0. */
  index: number;
  object: KubernetesObject;
}

/** A `configMapGenerator` or `secretGenerator` entry. */
export interface Generator {
  name: string;
  behavior?: string;
  literals?: string[];
  envs?: string[];
  files?: string[];
}

/** The parts of `kustomization.yaml` the checks read. */
export interface Kustomization {
  namespace?: string;
  resources?: string[];
  configurations?: string[];
  images?: { name: string; newName?: string; newTag?: string; digest?: string }[];
  configMapGenerator?: Generator[];
  secretGenerator?: Generator[];
}

/** A Kubernetes label selector (`matchLabels` and `matchExpressions`). */
export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

/** A kubernetes-models class: the type meta it stands for, and instances that check themselves against its API schema. */
export interface ModelClass {
  readonly apiVersion: string;
  readonly kind: string;
  new (data: object): { validate(): void };
}

/** Thrown by {@link validateObject} for an `apiVersion`/`kind` that neither the Kubernetes API nor KEDA defines. */
export class UnknownKindError extends Error {
  constructor(apiVersion: string, kind: string) {
    super(`no schema for ${apiVersion} ${kind}: not a kind of the Kubernetes API or of KEDA`);
    this.name = 'UnknownKindError';
  }
}

/** Reads `kustomization.yaml` of the base. */
export function readKustomization(): Kustomization {
  return parse(readFileSync(join(BASE_DIR, 'kustomization.yaml'), 'utf8')) as Kustomization;
}

/**
 * Reads every YAML document of `files` (relative to {@link BASE_DIR}), skipping empty ones.
 * @throws Error naming the file when a document is not well-formed YAML or has no apiVersion, kind or name
 */
export function readManifests(files: readonly string[]): ManifestDocument[] {
  const documents: ManifestDocument[] = [];
  for (const file of files) {
    const parsed = parseAllDocuments(readFileSync(join(BASE_DIR, file), 'utf8'));
    if (!Array.isArray(parsed)) throw new Error(`${file}: no YAML documents`);
    parsed.forEach((document, index) => {
      const problem = document.errors[0] ?? document.warnings[0];
      if (problem) throw new Error(`${file} document ${index}: ${problem.message}`);
      const object = document.toJS() as KubernetesObject | null;
      if (object === null) return;
      if (typeof object.apiVersion !== 'string' || typeof object.kind !== 'string' || typeof object.metadata?.name !== 'string') {
        throw new Error(`${file} document ${index}: apiVersion, kind and metadata.name are required`);
      }
      documents.push({ file, index, object });
    });
  }
  return documents;
}

/** Whether `value` is a kubernetes-models class (a constructor carrying `apiVersion` and `kind`). */
function isModelClass(value: unknown): value is ModelClass {
  return (
    typeof value === 'function' &&
    typeof (value as { apiVersion?: unknown }).apiVersion === 'string' &&
    typeof (value as { kind?: unknown }).kind === 'string'
  );
}

let models: Map<string, ModelClass> | undefined;

/**
 * The kubernetes-models class of `apiVersion` and `kind`: every kind of the Kubernetes API (`kubernetes-models`) and of
 * KEDA's CRDs (`@kubernetes-models/keda`); `undefined` for any other.
 */
export function modelFor(apiVersion: string, kind: string): ModelClass | undefined {
  if (!models) {
    const found = new Map<string, ModelClass>();
    const walk = (namespace: object, depth: number) => {
      for (const value of Object.values(namespace)) {
        if (isModelClass(value)) found.set(`${value.apiVersion} ${value.kind}`, value);
        else if (value !== null && typeof value === 'object' && depth < 3) walk(value, depth + 1);
      }
    };
    walk(kubernetesModels, 0);
    walk(kedaModels, 0);
    models = found;
  }
  return models.get(`${apiVersion} ${kind}`);
}

/**
 * Checks `object` against the API schema of its kind (types, formats, required fields, enumerations).
 * @throws UnknownKindError when no schema defines its apiVersion and kind
 * @throws the validator's error listing what does not conform
 */
export function validateObject(object: KubernetesObject): void {
  const Model = modelFor(object.apiVersion, object.kind);
  if (!Model) throw new UnknownKindError(object.apiVersion, object.kind);
  new Model(object).validate();
}

/** The `KEY=value` lines of a kustomize env file (`#` comments and blank lines skipped), as kustomize reads them. */
export function parseEnvFile(text: string): Map<string, string> {
  const entries = new Map<string, string>();
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const eq = line.indexOf('=');
    if (eq <= 0) throw new Error(`env file line without KEY=: ${JSON.stringify(line)}`);
    entries.set(line.slice(0, eq), line.slice(eq + 1));
  }
  return entries;
}

/** A file of a generator's `files`: the key it becomes and its path, relative to {@link BASE_DIR}. */
export interface GeneratorFile {
  key: string;
  path: string;
}

/** The entries of a generator's `files`, as kustomize reads them: `key=path`, or `path` keyed by its file name. */
export function filesOf(generator: Generator): GeneratorFile[] {
  return (generator.files ?? []).map((entry) => {
    const eq = entry.indexOf('=');
    return eq > 0 ? { key: entry.slice(0, eq), path: entry.slice(eq + 1) } : { key: basename(entry), path: entry };
  });
}

/** The `KEY=value` entries of a generator's `literals`. */
export function literalsOf(generator: Generator): Map<string, string> {
  return parseEnvFile((generator.literals ?? []).join('\n'));
}

/** Whether `selector` selects an object with `labels` (an empty selector selects everything, as in the API). */
export function selectorMatches(selector: LabelSelector, labels: Record<string, string> = {}): boolean {
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) if (labels[key] !== value) return false;
  for (const { key, operator, values = [] } of selector.matchExpressions ?? []) {
    const value = labels[key];
    const ok =
      operator === 'In'
        ? value !== undefined && values.includes(value)
        : operator === 'NotIn'
          ? value === undefined || !values.includes(value)
          : operator === 'Exists'
            ? value !== undefined
            : operator === 'DoesNotExist'
              ? value === undefined
              : false;
    if (!ok) return false;
  }
  return true;
}

const QUANTITY_SUFFIXES: Record<string, number> = {
  m: 1e-3,
  '': 1,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
};

/**
 * The value of a Kubernetes quantity (`100m` → 0.1, `256Mi` → 268435456, `1` → 1).
 * @throws Error for a form this base does not use
 */
export function parseQuantity(quantity: string | number): number {
  if (typeof quantity === 'number') return quantity;
  const match = /^(\d+(?:\.\d+)?)(m|k|M|G|Ki|Mi|Gi)?$/.exec(quantity);
  const factor = QUANTITY_SUFFIXES[match?.[2] ?? ''];
  if (!match || factor === undefined) throw new Error(`unsupported quantity ${JSON.stringify(quantity)}`);
  return Number(match[1]) * factor;
}
