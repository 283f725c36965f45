import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getMetadataStorage } from 'class-validator';
import { parseAllDocuments } from 'yaml';
import { CHANNEL_WORKER_ENV } from '../apps/channel-worker/src/channel-worker-env.js';
import { CHANNEL_WORKER_SHUTDOWN_TIMEOUT_MS } from '../apps/channel-worker/src/shutdown-timeout.js';
import { GATEWAY_ENV } from '../apps/gateway/src/gateway-env.js';
import { GATEWAY_SHUTDOWN_TIMEOUT_MS } from '../apps/gateway/src/shutdown-timeout.js';
import { PUSH_SERVICE_ENV } from '../apps/push-service/src/push-service-env.js';
import { BOT_RUNTIME_ENV } from '../apps/bot-runtime/src/bot-runtime-env.js';
import { BOT_RUNTIME_SHUTDOWN_TIMEOUT_MS } from '../apps/bot-runtime/src/shutdown-timeout.js';
import { EnvClass, loadEnv } from '@platform/config';
import { QueueNames } from '@platform/contracts';
import { bullPrefix } from '@platform/queue';
import { TEST_ENCRYPTION_KEYS } from '@platform/testing';

type Manifest = { apiVersion: string; kind: string; metadata: { name: string }; [key: string]: any };
type Container = { name: string; command: string[]; env?: Array<{ name: string; value?: string; valueFrom?: unknown }>; envFrom?: any[]; [key: string]: any };

const dir = join(process.cwd(), 'deploy', 'k8s');

/** What `kubectl apply -k deploy/k8s` applies: the kustomization's resources, every document of each. */
function render(): Manifest[] {
  const [kustomization] = parseAllDocuments(readFileSync(join(dir, 'kustomization.yaml'), 'utf8')).map((d) => d.toJS());
  return (kustomization.resources as string[]).flatMap((file) =>
    parseAllDocuments(readFileSync(join(dir, file), 'utf8')).map((doc) => {
      if (doc.errors.length > 0) throw new Error(`${file}: ${doc.errors[0].message}`);
      return doc.toJS() as Manifest;
    }),
  );
}

/** The kubernetes-models class of a manifest's apiVersion and kind (they bundle the API's JSON schemas). */
async function modelOf(m: Manifest): Promise<new (data: object) => { validate(): void }> {
  const modules: Record<string, string> = {
    v1: 'kubernetes-models/v1',
    'apps/v1': 'kubernetes-models/apps/v1',
    'batch/v1': 'kubernetes-models/batch/v1',
    'policy/v1': 'kubernetes-models/policy/v1',
    'keda.sh/v1alpha1': '@kubernetes-models/keda/keda.sh/v1alpha1',
  };
  const path = modules[m.apiVersion];
  if (!path) throw new Error(`${m.kind} ${m.metadata.name}: no schema for apiVersion ${m.apiVersion}`);
  const model = (await import(path))[m.kind];
  if (!model) throw new Error(`${m.kind} ${m.metadata.name}: no kind ${m.kind} in ${m.apiVersion}`);
  return model;
}

const variablesOf = (classes: readonly EnvClass[]) =>
  new Set(
    classes.flatMap((c) =>
      getMetadataStorage()
        .getTargetValidationMetadatas(c, '', true, false)
        .map((m) => m.propertyName),
    ),
  );

/** Each Deployment, with the env classes of the app its command starts and the drain bound it must outlast. */
const apps = {
  gateway: { main: 'dist/apps/gateway/src/main.js', env: GATEWAY_ENV },
  'channel-worker': { main: 'dist/apps/channel-worker/src/main.js', env: CHANNEL_WORKER_ENV },
  'push-service': { main: 'dist/apps/push-service/src/main.js', env: PUSH_SERVICE_ENV },
  'bot-runtime': { main: 'dist/apps/bot-runtime/src/main.js', env: BOT_RUNTIME_ENV },
} as const;

describe('Kubernetes manifests (deploy/k8s)', () => {
  const manifests = render();
  const find = (kind: string, name: string) => {
    const m = manifests.find((x) => x.kind === kind && x.metadata.name === name);
    if (!m) throw new Error(`no ${kind} ${name} in deploy/k8s`);
    return m;
  };
  const container = (deployment: string): Container => find('Deployment', deployment).spec.template.spec.containers[0];
  const configMap = find('ConfigMap', 'platform-config').data as Record<string, string>;
  const secret = find('Secret', 'platform-secrets').stringData as Record<string, string>;

  /** The environment a container gets: envFrom (ConfigMap, Secret) then env, as the kubelet composes it. */
  function environmentOf(c: Container): Record<string, string> {
    const env: Record<string, string> = {};
    for (const from of c.envFrom ?? []) {
      if (from.configMapRef?.name === 'platform-config') Object.assign(env, configMap);
      else if (from.secretRef?.name === 'platform-secrets') Object.assign(env, secret);
      else throw new Error(`${c.name}: envFrom names nothing in deploy/k8s: ${JSON.stringify(from)}`);
    }
    for (const e of c.env ?? []) {
      const ref = (e.valueFrom as { secretKeyRef?: { name: string; key: string } } | undefined)?.secretKeyRef;
      if (ref && (ref.name !== 'platform-secrets' || !(ref.key in secret))) throw new Error(`${c.name}: ${e.name} refers to a missing secret key`);
      env[e.name] = ref ? secret[ref.key] : e.value!;
    }
    return env;
  }

  it('validate against the Kubernetes (and KEDA) JSON schemas', async () => {
    expect(manifests.map((m) => `${m.kind}/${m.metadata.name}`).sort()).toEqual(
      [
        'ConfigMap/platform-config',
        'Deployment/channel-worker',
        'Deployment/bot-runtime',
        'Deployment/gateway',
        'Deployment/push-service',
        'Job/platform-migrate',
        'PodDisruptionBudget/gateway',
        'ScaledObject/channel-worker',
        'Secret/platform-secrets',
        'Service/gateway',
      ].sort(),
    );
    for (const m of manifests) {
      const Model = await modelOf(m);
      expect(() => new Model(m).validate()).not.toThrow();
    }
  });

  it('the schema check catches a wrong field (so a pass means something)', async () => {
    const broken = structuredClone(find('Deployment', 'gateway'));
    broken.spec.template.spec.containers[0].readinessProbe.httpGet.port = { not: 'a port' };
    const Model = await modelOf(broken);
    expect(() => new Model(broken).validate()).toThrow();
  });

  describe.each(Object.entries(apps))('%s', (name, app) => {
    const c = container(name);
    const spec = find('Deployment', name).spec.template.spec;

    it('starts the app, non-root, with resource requests and limits', () => {
      expect(c.command).toEqual(['node', app.main]);
      expect(spec.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: expect.any(Number) });
      expect(spec.securityContext.runAsUser).not.toBe(0);
      expect(c.resources.requests).toEqual({ cpu: expect.any(String), memory: expect.any(String) });
      expect(c.resources.limits).toEqual({ cpu: expect.any(String), memory: expect.any(String) });
    });

    it('probes readiness on /health and liveness on /health/live, at the port the app listens on', () => {
      const env = environmentOf(c);
      const portVar = { gateway: 'PORT', 'channel-worker': 'WORKER_HEALTH_PORT', 'push-service': 'PUSH_SERVICE_HEALTH_PORT', 'bot-runtime': 'BOT_RUNTIME_HEALTH_PORT' }[name]!;
      const namedPort = (port: string | number) => (typeof port === 'number' ? port : c.ports.find((p: { name: string }) => p.name === port)?.containerPort);
      expect(c.readinessProbe.httpGet.path).toBe('/health');
      expect(c.livenessProbe.httpGet.path).toBe('/health/live');
      expect(namedPort(c.readinessProbe.httpGet.port)).toBe(Number(env[portVar]));
      expect(namedPort(c.livenessProbe.httpGet.port)).toBe(Number(env[portVar]));
      expect(env.HOST).toBe('0.0.0.0'); // the probes come from the kubelet, not from loopback
    });

    it('gets only variables some app or the migrator reads, and everything its own env classes require', () => {
      const known = new Set([...variablesOf(GATEWAY_ENV), ...variablesOf(CHANNEL_WORKER_ENV), ...variablesOf(PUSH_SERVICE_ENV), ...variablesOf(BOT_RUNTIME_ENV), 'DATABASE_DIRECT_URL']);
      const env = environmentOf(c);
      expect(Object.keys(env).filter((k) => !known.has(k))).toEqual([]);
      expect((c.env ?? []).map((e) => e.name).filter((k) => !variablesOf(app.env).has(k))).toEqual([]);
      // The secret's placeholders stand for real values; everything else must pass the app's own validation.
      const withSecrets = { ...env, ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS };
      expect(() => loadEnv(app.env, withSecrets)).not.toThrow();
    });
  });

  it("gives each pod longer to stop than the channel worker's drain, and the bot runtime longer than its own", () => {
    for (const name of Object.keys(apps)) {
      expect(find('Deployment', name).spec.template.spec.terminationGracePeriodSeconds * 1000).toBeGreaterThan(CHANNEL_WORKER_SHUTDOWN_TIMEOUT_MS);
    }
    expect(find('Deployment', 'bot-runtime').spec.template.spec.terminationGracePeriodSeconds * 1000).toBeGreaterThan(BOT_RUNTIME_SHUTDOWN_TIMEOUT_MS);
  });

  it('keeps the gateway serving for a preStop delay before SIGTERM, inside a grace period that also holds its shutdown bound', () => {
    const spec = find('Deployment', 'gateway').spec.template.spec;
    const command: string[] = container('gateway').lifecycle?.preStop?.exec?.command ?? [];
    expect(command[0]).toBe('sleep');
    const preStopSeconds = Number(command[1]);
    // Endpoint removal reaches kube-proxy and ingresses within a few seconds.
    expect(preStopSeconds).toBeGreaterThanOrEqual(3);
    expect(spec.terminationGracePeriodSeconds * 1000).toBeGreaterThan(preStopSeconds * 1000 + GATEWAY_SHUTDOWN_TIMEOUT_MS);
  });

  it('runs migrations as a Job on the direct connection, not through the pooler', () => {
    const job = find('Job', 'platform-migrate').spec.template.spec;
    expect(job.containers[0].command).toEqual(['node', 'dist/tools/migrate.js']);
    expect(environmentOf(job.containers[0])).toEqual({ DATABASE_DIRECT_URL: secret.DATABASE_DIRECT_URL });
    expect(job.restartPolicy).toBe('OnFailure');
  });

  it("scales the channel worker on the length of BullMQ's wait list of the carousel queue", () => {
    const scaled = find('ScaledObject', 'channel-worker').spec;
    expect(scaled.scaleTargetRef.name).toBe('channel-worker');
    expect(scaled.minReplicaCount).toBeGreaterThanOrEqual(1);
    expect(scaled.maxReplicaCount).toBeGreaterThan(scaled.minReplicaCount);
    const [trigger] = scaled.triggers;
    // BullMQ's keys of the queue under the workers' REDIS_KEY_PREFIX (hash-tagged on a cluster).
    const env = environmentOf(container('channel-worker'));
    const queue = QueueNames.carouselDispatch;
    expect(trigger.metadata.listName).toBe(`${bullPrefix(env, queue)}:${queue}:wait`);
    expect(Number(trigger.metadata.listLength)).toBeGreaterThan(0);
    if (env.REDIS_CLUSTER_NODES) {
      expect(trigger.type).toBe('redis-cluster');
      expect(trigger.metadata.addresses).toBe(env.REDIS_CLUSTER_NODES);
    } else {
      expect(trigger.type).toBe('redis');
      const redis = new URL(env.REDIS_URL);
      expect(trigger.metadata.address).toBe(`${redis.hostname}:${redis.port || 6379}`);
    }
  });
});
