import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, parseAllDocuments } from 'yaml';
import type { z } from 'zod';
import { configSchemaFor, loadConfig } from '@earshot/kit';
import { promptService } from '@earshot/prompt-service';

// The local-AI profile (docker compose) and component (kustomize) cannot be started here: this
// reads them and holds them to what the servers need (images, ports, volumes, health checks, GPU)
// and to what Earshot reads to register them (the prompt service's config schema).

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const promptSchema = configSchemaFor([promptService]) as unknown as z.ZodObject<z.ZodRawShape>;
const REGISTRATION = ['LOCAL_AI_SPEECH_URL', 'LOCAL_AI_SPEECH_MODEL', 'LOCAL_AI_CHAT_URL', 'LOCAL_AI_CHAT_MODEL'];
const SPEECH_URL = 'http://speaches:8000/v1';
const CHAT_URL = 'http://ollama:11434/v1';
const AI_CALLERS = ['prompt', 'chat', 'transcription-worker'];

test("the registration settings are the prompt service's, and the addresses and models are valid there", () => {
  for (const name of [...REGISTRATION, 'AI_TRUSTED_HOSTS']) expect(Object.keys(promptSchema.shape)).toContain(name);
  const config = loadConfig(promptSchema, {
    LOCAL_AI_SPEECH_URL: SPEECH_URL,
    LOCAL_AI_CHAT_URL: CHAT_URL,
    AI_TRUSTED_HOSTS: 'speaches, Ollama',
  }) as Record<string, unknown>;
  expect(config).toMatchObject({
    LOCAL_AI_SPEECH_MODEL: 'Systran/faster-whisper-small',
    LOCAL_AI_CHAT_MODEL: 'qwen2.5:1.5b',
    AI_TRUSTED_HOSTS: ['speaches', 'ollama'],
  });
  // Stored as base URLs, put on events and logged: credentials are refused.
  expect(() => loadConfig(promptSchema, { LOCAL_AI_CHAT_URL: 'http://user:secret@ollama:11434/v1' })).toThrow(
    /LOCAL_AI_CHAT_URL/,
  );
  expect(() => loadConfig(promptSchema, { LOCAL_AI_CHAT_MODEL: 'qwen 2.5' })).toThrow(/LOCAL_AI_CHAT_MODEL/);
});

describe('docker-compose.yml, profile local-ai', () => {
  type Service = {
    image?: string;
    profiles?: string[];
    environment?: Record<string, string>;
    volumes?: string[];
    expose?: string[];
    ports?: string[];
    healthcheck?: { test?: string[] };
    deploy?: { resources?: { reservations?: { devices?: { driver?: string; capabilities?: string[] }[] } } };
  };
  const text = read('docker-compose.yml');
  const compose = parse(text, { merge: true }) as {
    services: Record<string, Service>;
    volumes: Record<string, unknown>;
  };
  /** What compose gives with an empty .env: `${NAME-default}` and `${NAME:-default}` take the default. */
  const defaults = (env: Record<string, string> = {}) =>
    Object.fromEntries(
      Object.entries(env).map(([k, v]) => [k, String(v).replace(/\$\{[A-Z0-9_]+:?-([^}]*)\}/g, '$1')]),
    );

  test.each([
    [
      'speaches',
      'ghcr.io/speaches-ai/speaches:latest-cpu',
      '8000',
      '/home/ubuntu/.cache/huggingface/hub',
      ['CMD', 'curl', '--fail', '--silent', 'http://localhost:8000/health'],
    ],
    ['ollama', 'ollama/ollama:latest', '11434', '/root/.ollama', ['CMD', 'ollama', 'list']],
  ])(
    '%s: only in the profile, its image, port on the network only, a model volume and a health check',
    (name, image, port, modelDir, probe) => {
      const service = compose.services[name]!;
      expect(service).toBeDefined();
      expect(service.profiles).toEqual(['local-ai']);
      expect(service.image).toBe(image);
      expect(service.expose).toEqual([port]);
      // No authentication on these servers: never published on the host.
      expect(service.ports).toBeUndefined();
      const volume = service.volumes?.find((v) => v.endsWith(`:${modelDir}`));
      expect(volume).toBeDefined();
      expect(compose.volumes).toHaveProperty([volume!.split(':')[0]!]);
      expect(service.healthcheck?.test).toEqual(probe);
    },
  );

  test('speaches runs on the CPU by default, keeps its model loaded, with its settings named as speaches reads them', () => {
    expect(defaults(compose.services.speaches!.environment)).toMatchObject({
      WHISPER__INFERENCE_DEVICE: 'cpu',
      WHISPER__COMPUTE_TYPE: 'int8',
      WHISPER__TTL: '-1',
    });
  });

  test("only the profile's services are in the profile: Earshot itself always runs", () => {
    const inProfile = Object.entries(compose.services)
      .filter(([, s]) => s.profiles?.includes('local-ai'))
      .map(([n]) => n)
      .sort();
    expect(inProfile).toEqual(['ollama', 'speaches']);
  });

  test("the prompt service gets the registration settings, pointing at the profile's servers; the AI callers trust the two names", () => {
    const prompt = defaults(compose.services.prompt!.environment);
    expect(prompt).toMatchObject({
      LOCAL_AI_SPEECH_URL: SPEECH_URL,
      LOCAL_AI_SPEECH_MODEL: 'Systran/faster-whisper-small',
      LOCAL_AI_CHAT_URL: CHAT_URL,
      LOCAL_AI_CHAT_MODEL: 'qwen2.5:1.5b',
    });
    // Only the prompt service registers: the others would not read them (deploy.test.ts checks names per process).
    for (const [name, service] of Object.entries(compose.services)) {
      if (name !== 'prompt')
        expect([name, Object.keys(service.environment ?? {}).filter((k) => k.startsWith('LOCAL_AI_'))]).toEqual([
          name,
          [],
        ]);
    }
    for (const name of AI_CALLERS)
      expect([name, defaults(compose.services[name]!.environment).AI_TRUSTED_HOSTS]).toEqual([name, 'speaches,ollama']);
    // The private-address switch stays off: trusting two names is enough.
    expect(defaults(compose.services.prompt!.environment).AI_ALLOW_PRIVATE_URLS).toBe('false');
    // The URLs can be emptied in .env (`-`, not `:-`, keeps an empty value): then nothing waits for the servers.
    expect(text).toMatch(/LOCAL_AI_SPEECH_URL: \$\{LOCAL_AI_SPEECH_URL-http:\/\/speaches:8000\/v1\}/);
    expect(text).toMatch(/LOCAL_AI_CHAT_URL: \$\{LOCAL_AI_CHAT_URL-http:\/\/ollama:11434\/v1\}/);
  });

  test('the GPU override gives both servers an NVIDIA device, and speaches its -cuda image with float16', () => {
    const gpu = parse(read('deploy/local-ai.gpu.yml')) as { services: Record<string, Service> };
    expect(Object.keys(gpu.services).sort()).toEqual(['ollama', 'speaches']);
    for (const service of Object.values(gpu.services)) {
      expect(service.deploy?.resources?.reservations?.devices).toEqual([
        expect.objectContaining({ driver: 'nvidia', capabilities: ['gpu'] }),
      ]);
    }
    expect(gpu.services.speaches!.image).toBe('ghcr.io/speaches-ai/speaches:latest-cuda');
    expect(gpu.services.speaches!.environment).toMatchObject({
      WHISPER__INFERENCE_DEVICE: 'cuda',
      WHISPER__COMPUTE_TYPE: 'float16',
    });
    expect(text).toMatch(/deploy\/local-ai\.gpu\.yml/);
  });
});

describe('k8s/components/local-ai (kustomize component)', () => {
  type Probe = { httpGet?: { path: string; port: string } };
  type Container = {
    name: string;
    image: string;
    ports?: { name: string; containerPort: number }[];
    env?: { name: string; value?: string }[];
    volumeMounts?: { name: string; mountPath: string }[];
    livenessProbe?: Probe;
    readinessProbe?: Probe;
    startupProbe?: Probe;
    resources?: { limits?: Record<string, string | number> };
  };
  type Doc = {
    kind: string;
    metadata: { name: string };
    spec: {
      ports?: { port: number; targetPort: string }[];
      selector?: Record<string, string>;
      template?: {
        metadata: { labels: Record<string, string> };
        spec: { containers: Container[]; volumes?: { name: string; persistentVolumeClaim?: { claimName: string } }[] };
      };
      resources?: { requests?: { storage?: string } };
    };
  };
  type JsonPatch = { op: string; path: string; value: { name: string; value: string } }[];
  const dir = 'k8s/components/local-ai';
  const kustomization = parse(read(`${dir}/kustomization.yaml`)) as {
    apiVersion: string;
    kind: string;
    resources: string[];
    patches: { path: string; target: { kind: string; name: string } }[];
  };
  const docs: Doc[] = kustomization.resources.flatMap((file) =>
    parseAllDocuments(read(`${dir}/${file}`)).map((d) => d.toJS() as Doc),
  );
  const find = (kind: string, name: string) => docs.find((d) => d.kind === kind && d.metadata.name === name);

  test('is a Component, listing its manifests and patches, and not part of the base', () => {
    expect(kustomization.apiVersion).toBe('kustomize.config.k8s.io/v1alpha1');
    expect(kustomization.kind).toBe('Component');
    const files = readdirSync(join(root, dir)).filter(
      (f) => f.endsWith('.yaml') && f !== 'kustomization.yaml' && !f.endsWith('.example.yaml'),
    );
    expect([...kustomization.resources, ...kustomization.patches.map((p) => p.path)].sort()).toEqual(files.sort());
    const base = parse(read('k8s/kustomization.yaml')) as { resources: string[]; components?: string[] };
    expect(base.resources.some((r) => r.includes('local-ai'))).toBe(false);
    expect(base.components).toBeUndefined();
  });

  test.each([
    ['speaches', 'ghcr.io/speaches-ai/speaches:latest-cpu', 8000, '/home/ubuntu/.cache/huggingface/hub', '/health'],
    ['ollama', 'ollama/ollama:latest', 11434, '/root/.ollama', '/api/version'],
  ])(
    '%s: a Deployment with probes, its models on a PVC, and a Service on its port',
    (name, image, port, modelDir, ready) => {
      const deployment = find('Deployment', name)!;
      const container = deployment.spec.template!.spec.containers[0]!;
      expect(container.image).toBe(image);
      expect(container.ports).toEqual([{ name: 'http', containerPort: port }]);
      expect(container.readinessProbe?.httpGet).toEqual({ path: ready, port: 'http' });
      expect(container.livenessProbe?.httpGet?.port).toBe('http');
      expect(container.startupProbe?.httpGet?.port).toBe('http');
      const mount = container.volumeMounts?.find((m) => m.mountPath === modelDir);
      expect(mount).toBeDefined();
      const claim = deployment.spec.template!.spec.volumes?.find((v) => v.name === mount!.name)?.persistentVolumeClaim
        ?.claimName;
      expect(find('PersistentVolumeClaim', claim!)?.spec.resources?.requests?.storage).toMatch(/^\d+Gi$/);
      const service = find('Service', name)!;
      expect(service.spec.ports).toEqual([{ name: 'http', port, targetPort: 'http' }]);
      expect(service.spec.selector).toEqual(deployment.spec.template!.metadata.labels);
      // Never behind the Ingress: the servers have no authentication.
      expect(docs.some((d) => d.kind === 'Ingress')).toBe(false);
    },
  );

  test('patches the prompt Deployment with the registration settings, and the AI callers with the trusted names', () => {
    const patchOf = (target: string) => {
      const entry = kustomization.patches.find(
        (p) => new RegExp(p.target.name).test(target) && p.target.kind === 'Deployment',
      );
      return entry ? (parse(read(`${dir}/${entry.path}`)) as JsonPatch) : [];
    };
    const envOf = (target: string) =>
      Object.fromEntries(
        kustomization.patches
          .filter((p) => p.target.kind === 'Deployment' && new RegExp(`^(?:${p.target.name})$`).test(target))
          .flatMap((p) => parse(read(`${dir}/${p.path}`)) as JsonPatch)
          .map((op) => {
            expect([op.op, op.path]).toEqual(['add', '/spec/template/spec/containers/0/env/-']);
            return [op.value.name, op.value.value];
          }),
      );
    expect(patchOf('prompt').length).toBeGreaterThan(0);
    const prompt = envOf('prompt');
    expect(prompt).toEqual({
      LOCAL_AI_SPEECH_URL: SPEECH_URL,
      LOCAL_AI_SPEECH_MODEL: 'Systran/faster-whisper-small',
      LOCAL_AI_CHAT_URL: CHAT_URL,
      LOCAL_AI_CHAT_MODEL: 'qwen2.5:1.5b',
      AI_TRUSTED_HOSTS: 'speaches,ollama',
    });
    // The values pass the prompt service's own validation.
    expect(() => loadConfig(promptSchema, prompt)).not.toThrow();
    for (const name of AI_CALLERS) expect([name, envOf(name).AI_TRUSTED_HOSTS]).toEqual([name, 'speaches,ollama']);
    for (const name of ['gateway', 'auth', 'tenant', 'file', 'transcription', 'audit'])
      expect([name, envOf(name)]).toEqual([name, {}]);
    // The patched containers are the ones named so in the base, and each has an env list to add to.
    for (const name of AI_CALLERS) {
      const base = parseAllDocuments(read(`k8s/${name}.yaml`))
        .map((d) => d.toJS() as Doc)
        .find((d) => d.kind === 'Deployment')!;
      expect(base.spec.template!.spec.containers[0]!.env?.length).toBeGreaterThan(0);
    }
  });

  test('GPU: the example patch gives each server one nvidia.com/gpu, and speaches its -cuda image', () => {
    const gpu = parseAllDocuments(read(`${dir}/gpu-patch.example.yaml`)).map((d) => d.toJS() as Doc);
    const container = (name: string) => gpu.find((d) => d.metadata.name === name)!.spec.template!.spec.containers[0]!;
    for (const name of ['speaches', 'ollama']) expect(container(name).resources?.limits?.['nvidia.com/gpu']).toBe(1);
    expect(container('speaches').image).toBe('ghcr.io/speaches-ai/speaches:latest-cuda');
    expect(Object.fromEntries(container('speaches').env!.map((e) => [e.name, e.value]))).toEqual({
      WHISPER__INFERENCE_DEVICE: 'cuda',
      WHISPER__COMPUTE_TYPE: 'float16',
    });
    expect(read(`${dir}/kustomization.yaml`)).toMatch(/components: \[\.\.\/\.\.\/k8s\/components\/local-ai\]/);
  });
});
