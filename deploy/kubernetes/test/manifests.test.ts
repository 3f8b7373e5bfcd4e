import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, matchesGlob } from 'node:path';
import type { IScaledObject } from '@kubernetes-models/keda/keda.sh/v1alpha1/ScaledObject';
import type { ITriggerAuthentication } from '@kubernetes-models/keda/keda.sh/v1alpha1/TriggerAuthentication';
import { CatalogEnv, loadCatalogConfig } from '@switchyard/catalog-svc/config';
import { ConfigServiceEnv, loadConfigServiceConfig } from '@switchyard/config-svc/config';
import { GatewayEnv, loadGatewayConfig } from '@switchyard/gateway/config';
import { loadPeerConfig, PeerEnv } from '@switchyard/peer-svc/config';
import { loadReleaseConfig, ReleaseEnv } from '@switchyard/release-svc/config';
import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { INetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import type { IPodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IPodSpec } from 'kubernetes-models/v1/PodSpec';
import type { IProbe } from 'kubernetes-models/v1/Probe';
import type { IService } from 'kubernetes-models/v1/Service';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  BASE_DIR,
  filesOf,
  type Generator,
  type KubernetesObject,
  literalsOf,
  type ManifestDocument,
  modelFor,
  parseEnvFile,
  parseQuantity,
  readKustomization,
  readManifests,
  selectorMatches,
  UnknownKindError,
  validateObject,
} from './manifests.ts';

/** What each Deployment runs: the service's env schema and loader, and the variable that names its port. */
const WORKLOADS = {
  gateway: { schema: GatewayEnv, load: loadGatewayConfig, portVariable: 'PORT' },
  'catalog-svc': { schema: CatalogEnv, load: loadCatalogConfig, portVariable: 'PORT' },
  'config-svc': { schema: ConfigServiceEnv, load: loadConfigServiceConfig, portVariable: 'PORT' },
  'release-svc': { schema: ReleaseEnv, load: loadReleaseConfig, portVariable: 'PORT' },
  'release-worker': { schema: ReleaseEnv, load: loadReleaseConfig, portVariable: 'WORKER_PORT' },
  'peer-svc': { schema: PeerEnv, load: loadPeerConfig, portVariable: 'PORT' },
} as const;
type WorkloadName = keyof typeof WORKLOADS;

/** The user and group the images run as (`node` in the Node.js images). */
const IMAGE_UID = 1000;

/** The longest a service's own shutdown may take (`runService`'s deadline, `SHUTDOWN_DEADLINE_MS` in service-kit), in seconds. */
const SHUTDOWN_DEADLINE_SECONDS = 10;

const kustomization = readKustomization();
const resources = kustomization.resources ?? [];
const documents = readManifests(resources);
const objects = documents.map((document) => document.object);

const ofKind = <T>(kind: string): T[] => objects.filter((object) => object.kind === kind) as unknown as T[];
const deployments = ofKind<IDeployment & KubernetesObject>('Deployment');
const services = ofKind<IService & KubernetesObject>('Service');
const configMaps: Generator[] = kustomization.configMapGenerator ?? [];
const secrets: Generator[] = kustomization.secretGenerator ?? [];

/**
 * The `.env.example` files' placeholder for an AES-256 key (`SECRETS_KEY`). The services refuse it, so a key left as it
 * is stops them at start; the checks that start a configuration put a key in its place, as an operator makes one
 * (`openssl rand -hex 32`).
 */
const KEY_PLACEHOLDER = 'change-me-32-bytes';
const OPERATOR_KEY = randomBytes(32).toString('hex');
/**
 * release-worker-config's placeholder for the worker's GitHub App id (`GITHUB_APP_ID`), which release-svc refuses as
 * well; the checks put an App id in its place, as an operator does.
 */
const APP_ID_PLACEHOLDER = 'change-me';
const OPERATOR_APP_ID = '1234567';
/**
 * A variable's example value as an operator fills it in: a key for {@link KEY_PLACEHOLDER} in `SECRETS_KEY`, an App id
 * for {@link APP_ID_PLACEHOLDER} in `GITHUB_APP_ID`, the others as they are.
 */
const filledIn = (variable: string, value: string) =>
  variable === 'SECRETS_KEY' && value === KEY_PLACEHOLDER
    ? OPERATOR_KEY
    : variable === 'GITHUB_APP_ID' && value === APP_ID_PLACEHOLDER
      ? OPERATOR_APP_ID
      : value;

/**
 * Each generated Secret's keys and example values: from the committed `.env.example` of each of its env files, and
 * each of its files' key with the content of the file's committed `.example`.
 */
const secretExamples = new Map(
  secrets.map((generator) => {
    const entries = new Map(literalsOf(generator));
    for (const envFile of generator.envs ?? []) {
      const example = join(BASE_DIR, `${envFile}.example`);
      if (existsSync(example)) for (const [key, value] of parseEnvFile(readFileSync(example, 'utf8'))) entries.set(key, value);
    }
    for (const file of filesOf(generator)) {
      const example = join(BASE_DIR, `${file.path}.example`);
      if (existsSync(example)) entries.set(file.key, readFileSync(example, 'utf8'));
    }
    return [generator.name, entries] as const;
  }),
);
/** The Secret keys a Deployment may reference as `optional`: the worker's token, which only personal-token mode uses. */
const OPTIONAL_SECRET_KEYS = new Set(['release-worker-secrets/CODE_HOST_TOKEN']);
const configMapEntries = new Map(configMaps.map((generator) => [generator.name, literalsOf(generator)] as const));

const podSpecOf = (deployment: IDeployment) => {
  const spec = deployment.spec?.template.spec;
  if (!spec) throw new Error(`${deployment.metadata?.name}: no pod template spec`);
  return spec;
};
const containersOf = (deployment: IDeployment): IContainer[] => podSpecOf(deployment).containers;
const podLabelsOf = (deployment: IDeployment) => deployment.spec?.template.metadata?.labels ?? {};

/** Whether `port` (a number or a port name) is one of `containers`' ports. */
const namesContainerPort = (containers: readonly IContainer[], port: number | string | undefined) =>
  port !== undefined &&
  containers.some((container) =>
    (container.ports ?? []).some((p) => (typeof port === 'number' ? p.containerPort === port : p.name === port)),
  );

/** The port number `port` (a number or a container port's name) stands for in `containers`. */
const containerPortNumber = (containers: readonly IContainer[], port: number | string | undefined) =>
  typeof port === 'number'
    ? port
    : containers.flatMap((container) => container.ports ?? []).find((p) => port !== undefined && p.name === port)?.containerPort;

/**
 * The environment a container starts with: its ConfigMaps' entries (`envFrom`), then its own `env`, with each
 * secretKeyRef and configMapKeyRef resolved to the generated object's entry (a Secret's from its `.env.example`), each
 * value filled in as {@link filledIn} says.
 */
function environmentOf(container: IContainer): Record<string, string> {
  const env: Record<string, string> = {};
  for (const source of container.envFrom ?? []) {
    if (source.configMapRef)
      for (const [key, value] of configMapEntries.get(source.configMapRef.name ?? '') ?? []) env[key] = filledIn(key, value);
    else for (const [key, value] of secretExamples.get(source.secretRef?.name ?? '') ?? []) env[key] = filledIn(key, value);
  }
  for (const variable of container.env ?? []) {
    const secretRef = variable.valueFrom?.secretKeyRef;
    const configMapRef = variable.valueFrom?.configMapKeyRef;
    const secret = secretRef ? secretExamples.get(secretRef.name ?? '')?.get(secretRef.key) : undefined;
    const value = secretRef ? secret : configMapRef ? configMapEntries.get(configMapRef.name ?? '')?.get(configMapRef.key) : variable.value;
    if (value !== undefined) env[variable.name] = filledIn(variable.name, value);
  }
  return env;
}

/** The service a Deployment runs, by its name. @throws Error for a Deployment this test does not know */
const workloadOf = (deployment: IDeployment) => {
  const workload = WORKLOADS[deployment.metadata?.name as WorkloadName] as (typeof WORKLOADS)[WorkloadName] | undefined;
  if (!workload) throw new Error(`Deployment ${deployment.metadata?.name} runs none of ${Object.keys(WORKLOADS).join(', ')}`);
  return workload;
};

beforeEach(() => {
  expect.hasAssertions();
});

describe('kustomization.yaml', () => {
  it('lists every manifest of the folder, each an existing YAML file', () => {
    const manifests = readdirSync(BASE_DIR).filter(
      (name) => name.endsWith('.yaml') && name !== 'kustomization.yaml' && !(kustomization.configurations ?? []).includes(name),
    );
    expect([...resources].sort()).toEqual(manifests.sort());
    expect(documents.length).toBeGreaterThan(resources.length);
  });

  it('puts everything in the namespace switchyard, which it creates, and no manifest names another', () => {
    expect(kustomization.namespace).toBe('switchyard');
    expect(objects.filter((object) => object.kind === 'Namespace').map((object) => object.metadata.name)).toEqual(['switchyard']);
    for (const object of objects)
      expect([undefined, 'switchyard'], `${object.kind}/${object.metadata.name}`).toContain(object.metadata.namespace);
  });

  it('names no object twice', () => {
    const keys = objects.map((object) => `${object.kind}/${object.metadata.name}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('generates each Secret from env files or files that git ignores, each documented by a committed .example', () => {
    const ignored = readFileSync(join(BASE_DIR, '.gitignore'), 'utf8')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('#'));
    expect(secrets.length).toBeGreaterThan(0);
    for (const generator of secrets) {
      expect(generator.literals, `${generator.name}: secrets never go into kustomization.yaml`).toBeUndefined();
      const sources = [...(generator.envs ?? []), ...filesOf(generator).map((file) => file.path)];
      expect(sources.length, generator.name).toBeGreaterThan(0);
      for (const source of sources) {
        expect(
          ignored.some((pattern) => matchesGlob(source, pattern)),
          `${source} is ignored by deploy/kubernetes/.gitignore`,
        ).toBe(true);
        expect(ignored.some((pattern) => matchesGlob(`${source}.example`, pattern))).toBe(false);
        expect(existsSync(join(BASE_DIR, `${source}.example`)), `${source}.example exists`).toBe(true);
      }
      expect(secretExamples.get(generator.name)?.size, generator.name).toBeGreaterThan(0);
    }
  });
});

describe('API schemas', () => {
  it.each(
    documents.map((document: ManifestDocument) => [
      `${document.file} #${document.index} ${document.object.kind}/${document.object.metadata.name}`,
      document,
    ]),
  )('%s conforms to its kind', (_name, document) => {
    expect(modelFor(document.object.apiVersion, document.object.kind), 'a known apiVersion and kind').toBeDefined();
    expect(() => validateObject(document.object)).not.toThrow();
  });

  it('uses only stable Kubernetes API versions (KEDA CRDs aside)', () => {
    for (const object of objects.filter((o) => !o.apiVersion.startsWith('keda.sh/'))) {
      expect(object.apiVersion, `${object.kind}/${object.metadata.name}`).not.toMatch(/(alpha|beta)\d*$/);
    }
  });

  it('rejects a Deployment with a malformed field, so the validation bites', () => {
    const gateway = deployments.find((d) => d.metadata?.name === 'gateway') as KubernetesObject & IDeployment;
    const broken = structuredClone(gateway) as unknown as KubernetesObject & { spec: Record<string, unknown> };
    broken.spec.replicas = 'two';
    expect(() => validateObject(broken)).toThrow(/replicas/);
    const noContainers = structuredClone(gateway) as unknown as KubernetesObject & IDeployment;
    delete (podSpecOf(noContainers) as { containers?: unknown }).containers;
    expect(() => validateObject(noContainers)).toThrow(/containers/);
    expect(() => validateObject(gateway)).not.toThrow();
  });

  it('rejects a kind that no schema defines', () => {
    const widget: KubernetesObject = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'widget' } };
    expect(() => validateObject(widget)).toThrow(UnknownKindError);
    expect(() => validateObject({ ...widget, apiVersion: 'v1', kind: 'Deploymnet' })).toThrow(UnknownKindError);
  });
});

describe('Deployments', () => {
  it('run the six switchyard images, each retaggable through the kustomization images list', () => {
    const images = deployments.flatMap((d) => containersOf(d).map((c) => c.image ?? ''));
    const names = images.map((image) => image.replace(/:[^/:]+$/, ''));
    const expected = Object.keys(WORKLOADS).map((name) => `switchyard/${name}`);
    expect([...names].sort()).toEqual([...expected].sort());
    expect((kustomization.images ?? []).map((image) => image.name).sort()).toEqual([...expected].sort());
    for (const deployment of deployments) {
      expect(containersOf(deployment).map((c) => c.image)).toEqual([`switchyard/${deployment.metadata?.name}:latest`]);
    }
  });

  it('select their own pods', () => {
    for (const deployment of deployments) {
      const selector = deployment.spec?.selector ?? {};
      expect(Object.keys(selector.matchLabels ?? {}).length, `${deployment.metadata?.name} selector`).toBeGreaterThan(0);
      expect(selectorMatches(selector, podLabelsOf(deployment)), `${deployment.metadata?.name} selects its template`).toBe(true);
      for (const other of deployments.filter((o) => o !== deployment)) {
        expect(selectorMatches(selector, podLabelsOf(other)), `${deployment.metadata?.name} selects ${other.metadata?.name}`).toBe(false);
      }
    }
  });

  it('run as uid 1000, non-root, read-only, unprivileged, without capabilities, under RuntimeDefault seccomp', () => {
    for (const deployment of deployments) {
      const pod = podSpecOf(deployment);
      const name = deployment.metadata?.name;
      expect(pod.securityContext, name).toMatchObject({
        runAsNonRoot: true,
        runAsUser: IMAGE_UID,
        runAsGroup: IMAGE_UID,
        seccompProfile: { type: 'RuntimeDefault' },
      });
      expect(pod.hostNetwork ?? false, name).toBe(false);
      expect(pod.hostPID ?? false, name).toBe(false);
      expect(pod.hostIPC ?? false, name).toBe(false);
      expect(pod.automountServiceAccountToken, name).toBe(false);
      for (const container of [...containersOf(deployment), ...(pod.initContainers ?? [])]) {
        const context = container.securityContext;
        expect(context, `${name}/${container.name}`).toMatchObject({
          runAsNonRoot: true,
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: true,
        });
        expect(context?.privileged ?? false).toBe(false);
        expect(context?.runAsUser ?? IMAGE_UID).toBe(IMAGE_UID);
        expect(context?.capabilities?.drop, `${name}/${container.name} drops every capability`).toEqual(['ALL']);
        expect(context?.capabilities?.add ?? []).toEqual([]);
      }
    }
  });

  it('probe /healthz for liveness and start-up and /readyz for readiness (the gateway /healthz), on a port of the container', () => {
    for (const deployment of deployments) {
      for (const container of containersOf(deployment)) {
        const where = `${deployment.metadata?.name}/${container.name}`;
        const probes: [string, IProbe | undefined, string][] = [
          ['startup', container.startupProbe, '/healthz'],
          ['liveness', container.livenessProbe, '/healthz'],
          // The gateway's /readyz asks every upstream: one service down would take every API offline.
          ['readiness', container.readinessProbe, deployment.metadata?.name === 'gateway' ? '/healthz' : '/readyz'],
        ];
        for (const [kind, probe, path] of probes) {
          expect(probe?.httpGet?.path, `${where} ${kind} path`).toBe(path);
          expect(namesContainerPort([container], probe?.httpGet?.port), `${where} ${kind} port ${probe?.httpGet?.port}`).toBe(true);
          expect(probe?.timeoutSeconds ?? 1, `${where} ${kind} timeout`).toBeLessThanOrEqual(probe?.periodSeconds ?? 10);
        }
        // Migrations run before the port opens: the start-up probe must allow for them.
        const startup = container.startupProbe;
        const startupSeconds = (startup?.initialDelaySeconds ?? 0) + (startup?.periodSeconds ?? 10) * (startup?.failureThreshold ?? 3);
        expect(startupSeconds, `${where} start-up allowance`).toBeGreaterThanOrEqual(60);
      }
    }
  });

  it('listen where their container port and probes say', () => {
    for (const deployment of deployments) {
      const workload = workloadOf(deployment);
      for (const container of containersOf(deployment)) {
        const config = workload.load(environmentOf(container)) as Readonly<Record<string, unknown>>;
        const ports = (container.ports ?? []).map((p) => p.containerPort);
        expect(ports, `${deployment.metadata?.name} ${workload.portVariable}`).toEqual([config[workload.portVariable]]);
      }
    }
  });

  it('have CPU and memory requests within their limits, and time for a graceful close', () => {
    for (const deployment of deployments) {
      const pod = podSpecOf(deployment);
      for (const container of containersOf(deployment)) {
        const where = `${deployment.metadata?.name}/${container.name}`;
        for (const resource of ['cpu', 'memory']) {
          const request = container.resources?.requests?.[resource];
          const limit = container.resources?.limits?.[resource];
          expect(request, `${where} ${resource} request`).toBeDefined();
          expect(limit, `${where} ${resource} limit`).toBeDefined();
          expect(parseQuantity(request as string), `${where} ${resource}`).toBeLessThanOrEqual(parseQuantity(limit as string));
        }
        expect(parseQuantity(container.resources?.limits?.memory as string)).toBeLessThanOrEqual(parseQuantity('1Gi'));
        const preStop = container.lifecycle?.preStop?.sleep?.seconds ?? 0;
        expect(pod.terminationGracePeriodSeconds ?? 30, `${where} grace period`).toBeGreaterThanOrEqual(
          preStop + SHUTDOWN_DEADLINE_SECONDS + 5,
        );
      }
    }
  });

  it('set only variables their service reads, and start with a configuration it accepts', () => {
    const commonKeysRead = new Map<string, boolean>();
    for (const deployment of deployments) {
      const workload = workloadOf(deployment);
      const known = new Set(Object.keys(workload.schema.shape));
      for (const container of containersOf(deployment)) {
        const where = `${deployment.metadata?.name}/${container.name}`;
        for (const variable of container.env ?? []) expect(known, `${where} reads ${variable.name}`).toContain(variable.name);
        for (const source of container.envFrom ?? []) {
          const name = source.configMapRef?.name ?? source.secretRef?.name ?? '';
          const keys = [...(configMapEntries.get(name) ?? secretExamples.get(name) ?? new Map()).keys()];
          if (name === 'switchyard-common')
            for (const key of keys) commonKeysRead.set(key, (commonKeysRead.get(key) ?? false) || known.has(key));
          else for (const key of keys) expect(known, `${where} reads ${key} of ${name}`).toContain(key);
        }
        expect(() => workload.load(environmentOf(container)), where).not.toThrow();
      }
    }
    expect(commonKeysRead.size).toBeGreaterThan(0);
    for (const [key, read] of commonKeysRead) expect(read, `some service reads ${key} of switchyard-common`).toBe(true);
  });

  it('give each service its own database and broker URL, and the worker its code-host credentials', () => {
    const seen = new Map<string, string>();
    for (const deployment of deployments) {
      const name = deployment.metadata?.name ?? '';
      for (const container of containersOf(deployment)) {
        const env = environmentOf(container);
        for (const variable of container.env ?? []) {
          if (
            ['DATABASE_URL', 'AMQP_URL', 'CODE_HOST_TOKEN', 'SECRETS_KEY', 'PEER_USERS', 'PEER_CLIENT_PASSWORD'].includes(variable.name)
          ) {
            expect(variable.valueFrom?.secretKeyRef?.name, `${name} ${variable.name} comes from a Secret`).toBe(`${name}-secrets`);
          }
        }
        if (name !== 'gateway') expect(env.DATABASE_URL, `${name} DATABASE_URL`).toMatch(/^postgres(ql)?:\/\//);
        if (['config-svc', 'release-svc', 'release-worker', 'peer-svc'].includes(name)) {
          const amqp = env.AMQP_URL ?? '';
          expect(amqp, `${name} AMQP_URL`).toMatch(/^amqps?:\/\//);
          const user = new URL(amqp).username;
          expect(seen.get(user), `RabbitMQ user ${user} is ${name}'s alone`).toBeUndefined();
          seen.set(user, name);
        }
      }
    }
    const worker = deployments.find((d) => d.metadata?.name === 'release-worker') as IDeployment;
    const workerConfig = loadReleaseConfig(environmentOf(containersOf(worker)[0] as IContainer));
    expect(workerConfig.GITHUB_APP_ID).toBeTruthy();
    expect(workerConfig.GITHUB_APP_PRIVATE_KEY).toBeTruthy();
    expect(workerConfig.AMQP_URL).toBeTruthy();
  });

  it("give config-svc and the worker the registry credentials' key from their Secrets, refusing the placeholder", () => {
    for (const name of ['config-svc', 'release-worker'] as const) {
      const container = containersOf(deployments.find((d) => d.metadata?.name === name) as IDeployment)[0] as IContainer;
      const variable = (container.env ?? []).find((v) => v.name === 'SECRETS_KEY');
      expect(variable?.valueFrom?.secretKeyRef, `${name} SECRETS_KEY`).toEqual({ name: `${name}-secrets`, key: 'SECRETS_KEY' });
      expect(secretExamples.get(`${name}-secrets`)?.get('SECRETS_KEY'), `${name}-secrets documents the key`).toBe(KEY_PLACEHOLDER);
      const env = environmentOf(container);
      expect(WORKLOADS[name].load(env).SECRETS_KEY, name).toEqual(Buffer.from(OPERATOR_KEY, 'hex'));
      expect(() => WORKLOADS[name].load({ ...env, SECRETS_KEY: KEY_PLACEHOLDER }), name).toThrow(/SECRETS_KEY: must be 32 bytes/);
    }
  });

  it('point the worker at the public registries unless REGISTRY_URLS names others', () => {
    const worker = deployments.find((d) => d.metadata?.name === 'release-worker') as IDeployment;
    const env = environmentOf(containersOf(worker)[0] as IContainer);
    expect(env.REGISTRY_URLS, 'REGISTRY_URLS is set, empty, in release-worker-config').toBe('');
    const config = loadReleaseConfig(env);
    expect(config.REGISTRY_URLS).toEqual({});
    expect(config.CRATES_API_URL).toBeUndefined();
    const mirrors = loadReleaseConfig({
      ...env,
      REGISTRY_URLS: 'npm_and_yarn=https://npm.example.com/,cargo=https://crates.example.com/index/',
    });
    expect(mirrors.REGISTRY_URLS).toEqual({ npm_and_yarn: 'https://npm.example.com/', cargo: 'https://crates.example.com/index/' });
  });
});

describe('references', () => {
  it('every secretKeyRef, configMapKeyRef and envFrom names a generated object and a documented key', () => {
    let references = 0;
    for (const deployment of deployments) {
      for (const container of [...containersOf(deployment), ...(podSpecOf(deployment).initContainers ?? [])]) {
        const where = `${deployment.metadata?.name}/${container.name}`;
        for (const variable of container.env ?? []) {
          const secretRef = variable.valueFrom?.secretKeyRef;
          const configMapRef = variable.valueFrom?.configMapKeyRef;
          if (secretRef) {
            references += 1;
            expect(secretExamples.has(secretRef.name ?? ''), `${where}: Secret ${secretRef.name}`).toBe(true);
            expect([...(secretExamples.get(secretRef.name ?? '')?.keys() ?? [])], `${where}: key ${secretRef.key}`).toContain(
              secretRef.key,
            );
            expect(secretRef.optional ?? false, `${where}: ${secretRef.name}/${secretRef.key} optional`).toBe(
              OPTIONAL_SECRET_KEYS.has(`${secretRef.name}/${secretRef.key}`),
            );
          }
          if (configMapRef) {
            references += 1;
            expect(configMapEntries.has(configMapRef.name ?? ''), `${where}: ConfigMap ${configMapRef.name}`).toBe(true);
            expect([...(configMapEntries.get(configMapRef.name ?? '')?.keys() ?? [])]).toContain(configMapRef.key);
          }
        }
        for (const source of container.envFrom ?? []) {
          references += 1;
          if (source.configMapRef)
            expect(configMapEntries.has(source.configMapRef.name ?? ''), `${where}: ConfigMap ${source.configMapRef.name}`).toBe(true);
          else expect(secretExamples.has(source.secretRef?.name ?? ''), `${where}: Secret ${source.secretRef?.name}`).toBe(true);
        }
      }
      for (const volume of podSpecOf(deployment).volumes ?? []) {
        const where = `${deployment.metadata?.name} volume ${volume.name}`;
        if (volume.secret) {
          references += 1;
          const keys = [...(secretExamples.get(volume.secret.secretName ?? '')?.keys() ?? [])];
          expect(secretExamples.has(volume.secret.secretName ?? ''), `${where}: Secret ${volume.secret.secretName}`).toBe(true);
          for (const item of volume.secret.items ?? []) expect(keys, `${where}: key ${item.key}`).toContain(item.key);
          expect(volume.secret.optional ?? false, `${where} optional`).toBe(false);
        }
        if (volume.configMap) {
          references += 1;
          expect(configMapEntries.has(volume.configMap.name ?? ''), `${where}: ConfigMap ${volume.configMap.name}`).toBe(true);
        }
      }
    }
    expect(references).toBeGreaterThan(0);
  });

  it('every generated Secret key and ConfigMap is used', () => {
    const used = new Set<string>();
    for (const deployment of deployments) {
      for (const container of containersOf(deployment)) {
        for (const variable of container.env ?? []) {
          const ref = variable.valueFrom?.secretKeyRef;
          if (ref) used.add(`${ref.name}/${ref.key}`);
        }
        for (const source of container.envFrom ?? []) used.add(`${source.configMapRef?.name ?? source.secretRef?.name}/*`);
      }
      // A Secret volume that some container mounts uses the keys it lists, or all of them.
      const mounted = new Set(containersOf(deployment).flatMap((container) => (container.volumeMounts ?? []).map((m) => m.name)));
      for (const volume of podSpecOf(deployment).volumes ?? []) {
        if (!volume.secret || !mounted.has(volume.name)) continue;
        const items = volume.secret.items ?? [];
        if (items.length === 0) used.add(`${volume.secret.secretName}/*`);
        for (const item of items) used.add(`${volume.secret.secretName}/${item.key}`);
      }
    }
    for (const [name, entries] of secretExamples) {
      for (const key of entries.keys()) expect(used.has(`${name}/${key}`) || used.has(`${name}/*`), `${name} ${key} is used`).toBe(true);
    }
    for (const name of configMapEntries.keys()) expect(used.has(`${name}/*`), `ConfigMap ${name} is used`).toBe(true);
  });

  it('each Service selects exactly one Deployment and targets a port of its container', () => {
    expect(services.length).toBeGreaterThan(0);
    for (const service of services) {
      const selector = { matchLabels: service.spec?.selector ?? {} };
      expect(Object.keys(selector.matchLabels).length, `${service.metadata?.name} has a selector`).toBeGreaterThan(0);
      const selected = deployments.filter((d) => selectorMatches(selector, podLabelsOf(d)));
      expect(
        selected.map((d) => d.metadata?.name),
        `Service ${service.metadata?.name}`,
      ).toHaveLength(1);
      const containers = containersOf(selected[0] as IDeployment);
      for (const port of service.spec?.ports ?? []) {
        expect(namesContainerPort(containers, port.targetPort ?? port.port), `${service.metadata?.name} → ${port.targetPort}`).toBe(true);
      }
    }
  });

  it("the gateway's upstream URLs name the Services of their services, on the ports they listen on", () => {
    const gateway = deployments.find((d) => d.metadata?.name === 'gateway') as IDeployment;
    const config = loadGatewayConfig(environmentOf(containersOf(gateway)[0] as IContainer));
    const upstreams = {
      CATALOG_SVC_URL: 'catalog-svc',
      CONFIG_SVC_URL: 'config-svc',
      RELEASE_SVC_URL: 'release-svc',
      PEER_SVC_URL: 'peer-svc',
    } as const;
    for (const [variable, serviceName] of Object.entries(upstreams)) {
      const url = new URL(config[variable as keyof typeof upstreams] ?? 'http://unset');
      const service = services.find((s) => s.metadata?.name === url.hostname);
      expect(service?.metadata?.name, `${variable} ${url}`).toBe(serviceName);
      const port = service?.spec?.ports?.find((p) => p.port === Number(url.port));
      expect(port, `${variable}: Service ${serviceName} has port ${url.port}`).toBeDefined();
      const target = deployments.find((d) => d.metadata?.name === serviceName) as IDeployment;
      const listening = workloadOf(target).load(environmentOf(containersOf(target)[0] as IContainer)) as Readonly<Record<string, unknown>>;
      expect(containerPortNumber(containersOf(target), port?.targetPort ?? port?.port), variable).toBe(listening.PORT);
    }
  });

  it('the gateway has a PodDisruptionBudget that leaves room to drain a node', () => {
    const budgets = ofKind<IPodDisruptionBudget & KubernetesObject>('PodDisruptionBudget');
    expect(budgets.length).toBeGreaterThan(0);
    for (const budget of budgets) {
      const selected = deployments.filter((d) => selectorMatches(budget.spec?.selector ?? {}, podLabelsOf(d)));
      expect(
        selected.map((d) => d.metadata?.name),
        `PodDisruptionBudget ${budget.metadata?.name}`,
      ).toHaveLength(1);
      const replicas = selected[0]?.spec?.replicas ?? 1;
      expect(budget.spec?.minAvailable, budget.metadata?.name).toBeLessThan(replicas);
    }
    expect(budgets.some((b) => selectorMatches(b.spec?.selector ?? {}, { 'app.kubernetes.io/name': 'gateway' }))).toBe(true);
  });

  it('each NetworkPolicy selects pods of this base, and names ports they have', () => {
    const policies = ofKind<INetworkPolicy & KubernetesObject>('NetworkPolicy');
    expect(policies.length).toBeGreaterThan(0);
    for (const policy of policies) {
      const selected = deployments.filter((d) => selectorMatches(policy.spec?.podSelector ?? {}, podLabelsOf(d)));
      expect(selected.length, `NetworkPolicy ${policy.metadata?.name}`).toBeGreaterThan(0);
      for (const rule of policy.spec?.ingress ?? []) {
        for (const peer of rule.from ?? []) {
          if (peer.podSelector && !peer.namespaceSelector) {
            const from = deployments.filter((d) => selectorMatches(peer.podSelector ?? {}, podLabelsOf(d)));
            expect(from.length, `${policy.metadata?.name} admits pods of this base`).toBeGreaterThan(0);
          }
        }
        for (const port of rule.ports ?? []) {
          for (const deployment of selected) {
            expect(
              namesContainerPort(containersOf(deployment), port.port),
              `${policy.metadata?.name}: ${deployment.metadata?.name} ${port.port}`,
            ).toBe(true);
          }
        }
      }
      for (const expression of policy.spec?.podSelector?.matchExpressions ?? []) {
        for (const value of expression.operator === 'In' ? (expression.values ?? []) : []) {
          const named = deployments.some((d) => podLabelsOf(d)[expression.key] === value);
          expect(named, `${policy.metadata?.name}: ${expression.key}=${value} labels pods of this base`).toBe(true);
        }
      }
    }
  });

  it("lets traffic reach every Service's pods on its target port despite the default deny", () => {
    const policies = ofKind<INetworkPolicy & KubernetesObject>('NetworkPolicy');
    for (const service of services) {
      const deployment = deployments.find((d) =>
        selectorMatches({ matchLabels: service.spec?.selector ?? {} }, podLabelsOf(d)),
      ) as IDeployment;
      const containers = containersOf(deployment);
      for (const servicePort of service.spec?.ports ?? []) {
        const target = containerPortNumber(containers, servicePort.targetPort ?? servicePort.port);
        const admitted = policies.some(
          (policy) =>
            selectorMatches(policy.spec?.podSelector ?? {}, podLabelsOf(deployment)) &&
            (policy.spec?.ingress ?? []).some(
              (rule) =>
                (rule.ports ?? []).length === 0 || (rule.ports ?? []).some((p) => containerPortNumber(containers, p.port) === target),
            ),
        );
        expect(admitted, `Service ${service.metadata?.name} port ${servicePort.port} is reachable`).toBe(true);
      }
    }
  });
});

/**
 * Where the file at `path` comes from in a pod: the container's volume mount holding it, that volume, and the key of
 * the volume's Secret the file shows (undefined when no mount or volume holds it).
 */
function mountedFileOf(pod: IPodSpec, container: IContainer, path: string) {
  const mount = (container.volumeMounts ?? []).find((m) => path.startsWith(`${m.mountPath.replace(/\/$/, '')}/`));
  const volume = (pod.volumes ?? []).find((v) => v.name === mount?.name);
  if (!mount || !volume) return undefined;
  const name = path.slice(mount.mountPath.replace(/\/$/, '').length + 1);
  const item = (volume.secret?.items ?? []).find((i) => i.path === name);
  const key = volume.secret?.items ? item?.key : name;
  return { mount, volume, key, mode: item?.mode ?? volume.secret?.defaultMode };
}

describe('release worker on the code host', () => {
  const worker = () => deployments.find((d) => d.metadata?.name === 'release-worker') as IDeployment;
  const workerContainer = () => containersOf(worker())[0] as IContainer;

  it("acts as the GitHub App of release-worker-config, at release-svc's reconciliation interval", () => {
    expect(configMapEntries.get('release-worker-config')?.get('GITHUB_APP_ID'), 'the placeholder an operator replaces').toBe(
      APP_ID_PLACEHOLDER,
    );
    const config = loadReleaseConfig(environmentOf(workerContainer()));
    expect(config.GITHUB_APP_ID).toBe(OPERATOR_APP_ID);
    expect(config.CODE_HOST_TOKEN, 'no personal token in App mode').toBeUndefined();
    expect(config.GITHUB_APP_RECONCILE_INTERVAL_MS).toBe(loadReleaseConfig({}).GITHUB_APP_RECONCILE_INTERVAL_MS);
  });

  it('refuses the App id placeholder, so a worker whose App id was left unset stops at start', () => {
    const env = environmentOf(workerContainer());
    expect(() => loadReleaseConfig({ ...env, GITHUB_APP_ID: APP_ID_PLACEHOLDER })).toThrow(/GITHUB_APP_ID: must be a GitHub App id/);
  });

  it("reads the App's private key from a file of the key's Secret, mounted read-only and readable by the worker alone", () => {
    const pod = podSpecOf(worker());
    const container = workerContainer();
    const variable = (container.env ?? []).find((v) => v.name === 'GITHUB_APP_PRIVATE_KEY');
    const path = loadReleaseConfig(environmentOf(container)).GITHUB_APP_PRIVATE_KEY ?? '';
    expect(variable?.value, 'a path in the manifest, not the PEM from a Secret').toBe(path);
    expect(path).toBe('/var/run/secrets/github-app/private-key.pem');

    const file = mountedFileOf(pod, container, path);
    expect(file?.mount.mountPath, `a volume mount holds ${path}`).toBe(dirname(path));
    expect(file?.mount.readOnly, 'mounted read-only').toBe(true);
    expect(file?.mount.subPath, 'no subPath (a changed Secret reaches the pod)').toBeUndefined();
    expect(container.securityContext?.readOnlyRootFilesystem).toBe(true);
    const secretName = file?.volume.secret?.secretName ?? '';
    const generator = secrets.find((g) => g.name === secretName);
    expect(generator, `Secret ${secretName} is generated`).toBeDefined();
    expect(
      filesOf(generator as Generator).map((f) => f.key),
      `${secretName} has the key ${file?.key}`,
    ).toContain(basename(path));
    expect(file?.key).toBe(basename(path));
    expect(secretExamples.get(secretName)?.get(file?.key ?? ''), 'the committed example holds no key').not.toMatch(/-----BEGIN/);

    // Secret files belong to root; the kubelet gives fsGroup read access to them. Nothing but read for owner and group.
    const mode = file?.mode;
    expect(mode, 'a mode set on the key').toBeDefined();
    expect((mode ?? 0o777) & ~0o440, `mode 0${(mode ?? 0).toString(8)} grants no more than read to owner and group`).toBe(0);
    expect((mode ?? 0) & 0o040, 'readable by its group').toBe(0o040);
    const workerGroup = container.securityContext?.runAsGroup ?? pod.securityContext?.runAsGroup;
    expect(pod.securityContext?.fsGroup, "the key's group is the worker's").toBe(workerGroup);
  });

  it("still runs in personal-token mode: GITHUB_APP_ID empty, a bot account's token in CODE_HOST_TOKEN", () => {
    const container = workerContainer();
    const variable = (container.env ?? []).find((v) => v.name === 'CODE_HOST_TOKEN');
    expect(variable?.valueFrom?.secretKeyRef).toEqual({ name: 'release-worker-secrets', key: 'CODE_HOST_TOKEN', optional: true });
    expect(secretExamples.get('release-worker-secrets')?.get('CODE_HOST_TOKEN'), 'documented, empty in App mode').toBe('');
    // An overlay's `behavior: merge` of release-worker-config with GITHUB_APP_ID= (empty), and the token filled in.
    const env = { ...environmentOf(container), GITHUB_APP_ID: '', CODE_HOST_TOKEN: 'bot-account-token' };
    const config = loadReleaseConfig(env);
    expect(config.GITHUB_APP_ID).toBeUndefined();
    expect(config.CODE_HOST_TOKEN).toBe('bot-account-token');
  });
});

describe('release worker autoscaling', () => {
  const scaledObjects = ofKind<IScaledObject & KubernetesObject>('ScaledObject');
  const triggerAuthentications = ofKind<ITriggerAuthentication & KubernetesObject>('TriggerAuthentication');

  it('scales the worker Deployment between 1 and at most 10 replicas, which sets no replica count of its own', () => {
    expect(scaledObjects).toHaveLength(1);
    const scaled = scaledObjects[0] as IScaledObject;
    const target = deployments.find((d) => d.metadata?.name === scaled.spec.scaleTargetRef.name);
    expect(target?.metadata?.name).toBe('release-worker');
    expect(scaled.spec.scaleTargetRef.kind ?? 'Deployment').toBe('Deployment');
    expect(scaled.spec.scaleTargetRef.apiVersion ?? 'apps/v1').toBe('apps/v1');
    expect(scaled.spec.minReplicaCount).toBe(1);
    expect(scaled.spec.maxReplicaCount).toBeGreaterThan(1);
    expect(scaled.spec.maxReplicaCount).toBeLessThanOrEqual(10);
    expect(target?.spec?.replicas, 'KEDA owns the replica count').toBeUndefined();
  });

  it("triggers on the worker's scan queue (and notifications), as QUEUE_PREFIX names them", () => {
    const scaled = scaledObjects[0] as IScaledObject;
    const worker = deployments.find((d) => d.metadata?.name === 'release-worker') as IDeployment;
    const prefix = loadReleaseConfig(environmentOf(containersOf(worker)[0] as IContainer)).QUEUE_PREFIX;
    const queues = scaled.spec.triggers.map((trigger) => {
      expect(trigger.type).toBe('rabbitmq');
      expect(trigger.metadata.mode).toBe('QueueLength');
      expect(Number(trigger.metadata.value)).toBeGreaterThan(0);
      expect(trigger.metadata.host, 'the broker URL comes from the TriggerAuthentication, not the manifest').toBeUndefined();
      return trigger.metadata.queueName;
    });
    expect(queues).toContain(`${prefix}.scans`);
    for (const queue of queues) expect([`${prefix}.scans`, `${prefix}.notifications`, `${prefix}.read-model`]).toContain(queue);
  });

  it("authenticates with a TriggerAuthentication that reads the broker URL from the worker's Secret", () => {
    const scaled = scaledObjects[0] as IScaledObject;
    for (const trigger of scaled.spec.triggers) {
      const name = trigger.authenticationRef?.name;
      expect(name, 'authenticationRef').toBeDefined();
      expect(trigger.authenticationRef?.kind ?? 'TriggerAuthentication').toBe('TriggerAuthentication');
      expect(triggerAuthentications.map((t) => t.metadata?.name)).toContain(name);
    }
    for (const authentication of triggerAuthentications) {
      const refs = authentication.spec.secretTargetRef ?? [];
      expect(refs.map((ref) => ref.parameter)).toContain('host');
      for (const ref of refs) {
        expect(secretExamples.has(ref.name), `Secret ${ref.name}`).toBe(true);
        const value = secretExamples.get(ref.name)?.get(ref.key);
        expect(value, `${ref.name} documents ${ref.key}`).toMatch(/^amqps?:\/\//);
      }
    }
  });

  it('lets kustomize rename what KEDA objects refer to (hash-suffixed Secrets, name prefixes)', () => {
    const config = readFileSync(join(BASE_DIR, kustomization.configurations?.[0] ?? 'kustomizeconfig.yaml'), 'utf8');
    for (const path of ['spec/secretTargetRef/name', 'spec/scaleTargetRef/name', 'spec/triggers/authenticationRef/name']) {
      expect(config).toContain(`path: ${path}`);
    }
  });
});
