import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, parseAllDocuments } from 'yaml';
import type { z } from 'zod';
import { configSchemaFor, loadConfig } from '@earshot/kit';
import { testSigningKeyPem } from '@earshot/kit/testing';
import { ALL_SERVICES } from '../gateway/src/modules';
import { serviceUrlShape } from '../gateway/src/config';
import { distributedConfigSchema, serviceUrlKey } from '../gateway/src/proxy';
import { entrypoints } from '../scripts/build.mjs';

// docker-compose.yml and k8s/ cannot be started on the build machines. This test reads them and
// holds them to the code: every process is there with the right command, sets only variables its
// process reads (names taken from the zod config schemas themselves), sets the required ones, and
// with values that pass the same validation the process runs at start.

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');

interface Process {
  name: string;
  command: string[];
  schema: z.ZodObject<z.ZodRawShape>;
  required: string[];
  storage: boolean;
}

const DISTRIBUTED = ['JWT_SECRET', 'DATABASE_URL', 'KAFKA_BROKERS'];
/** Provider keys: the prompt service serves them on its internal route, chat and the workers ask for them. */
const KEYS_REQUIRED: Record<string, string[]> = {
  prompt: ['INTERNAL_API_TOKEN', 'TENANT_SERVICE_URL', 'BILLING_SERVICE_URL'],
  // Company API keys: the tenant service answers for their hashes on its internal route; it opens
  // a new company's credit account at the billing service.
  tenant: ['INTERNAL_API_TOKEN', 'BILLING_SERVICE_URL'],
  // Credits: the billing service answers the credit check on its internal route.
  billing: ['INTERNAL_API_TOKEN'],
  gateway: ['INTERNAL_API_TOKEN'],
  // File (uploads), chat (replies) and prompt (analysis runs) ask billing for credits before AI work.
  file: ['INTERNAL_API_TOKEN', 'TENANT_SERVICE_URL', 'BILLING_SERVICE_URL'],
  // Transcription reads the recordings a company stores encrypted with the file service's audio keys.
  transcription: ['INTERNAL_API_TOKEN', 'TENANT_SERVICE_URL', 'BILLING_SERVICE_URL', 'FILE_SERVICE_URL'],
  chat: ['INTERNAL_API_TOKEN', 'PROMPT_SERVICE_URL', 'TENANT_SERVICE_URL', 'BILLING_SERVICE_URL'],
  'transcription-worker': ['INTERNAL_API_TOKEN', 'PROMPT_SERVICE_URL', 'FILE_SERVICE_URL'],
};
const S3_REQUIRED = ['STORAGE_DRIVER', 'S3_ENDPOINT', 'S3_BUCKET', 'S3_ACCESS_KEY', 'S3_SECRET_KEY'];
const transcription = ALL_SERVICES.find((m) => m.name === 'transcription')!;
const readsStorage = (schema: z.ZodObject<z.ZodRawShape>) => 'S3_BUCKET' in schema.shape;

const PROCESSES: Process[] = [
  {
    name: 'gateway',
    command: ['node', '--enable-source-maps', 'gateway/dist/main.js'],
    schema: distributedConfigSchema as unknown as z.ZodObject<z.ZodRawShape>,
    required: ['JWT_SECRET', ...Object.keys(serviceUrlShape)],
    storage: false,
  },
  ...ALL_SERVICES.map((module) => {
    const schema = configSchemaFor([module]) as unknown as z.ZodObject<z.ZodRawShape>;
    // Only auth signs access tokens: it alone needs the key.
    const required = module.name === 'auth' ? [...DISTRIBUTED, 'AUTH_SIGNING_KEY'] : DISTRIBUTED;
    return {
      name: module.name,
      command: ['node', '--enable-source-maps', `services/${module.name}/dist/main.js`],
      schema,
      required,
      storage: readsStorage(schema),
    };
  }),
  {
    name: 'transcription-worker',
    command: ['node', '--enable-source-maps', 'services/transcription/dist/worker.js'],
    schema: configSchemaFor([transcription]) as unknown as z.ZodObject<z.ZodRawShape>,
    required: DISTRIBUTED,
    storage: true,
  },
];

test('the process list covers the ten services, the gateway and the worker', () => {
  expect(PROCESSES.map((p) => p.name).sort()).toEqual([
    'audit',
    'auth',
    'billing',
    'chat',
    'file',
    'gateway',
    'messaging',
    'prompt',
    'tasks',
    'tenant',
    'transcription',
    'transcription-worker',
    'webhooks',
  ]);
});

/** Every variable a process sets must be one its config schema declares. */
function expectReadByCode(process: Process, env: Record<string, string>, where: string) {
  const unknown = Object.keys(env).filter((name) => !(name in process.schema.shape));
  expect({ where, unknown }).toEqual({ where, unknown: [] });
}

/** Required keys set (non-empty), storage complete where audio is read, and the values pass validation. */
function expectValidConfig(process: Process, env: Record<string, string>, where: string) {
  const required = [
    ...process.required,
    ...(process.storage ? S3_REQUIRED : []),
    ...(KEYS_REQUIRED[process.name] ?? []),
  ];
  expect({ where, missing: required.filter((key) => !env[key]) }).toEqual({ where, missing: [] });
  if (process.storage) expect(env.STORAGE_DRIVER).toBe('s3');
  let problem = '';
  try {
    loadConfig(process.schema, env);
  } catch (error) {
    problem = (error as Error).message;
  }
  expect({ where, problem }).toEqual({ where, problem: '' });
}

describe('docker-compose.yml', () => {
  // Values a filled-in .env would give; `${NAME:?…}` with no value is what compose refuses.
  const dotenv: Record<string, string> = {
    JWT_SECRET: 'compose-test-jwt-secret-compose-test-jwt-secret',
    AUTH_SIGNING_KEY: testSigningKeyPem(),
    SECRETS_KEY: 'ab'.repeat(32),
    INTERNAL_API_TOKEN: 'compose-test-internal-token-compose-test-internal',
    POSTGRES_PASSWORD: 'postgres-password',
    MINIO_ROOT_PASSWORD: 'minio-password',
    AUTH_DB_PASSWORD: 'auth-db-password',
    TENANT_DB_PASSWORD: 'tenant-db-password',
    FILE_DB_PASSWORD: 'file-db-password',
    TRANSCRIPTION_DB_PASSWORD: 'transcription-db-password',
    CHAT_DB_PASSWORD: 'chat-db-password',
    PROMPT_DB_PASSWORD: 'prompt-db-password',
    AUDIT_DB_PASSWORD: 'audit-db-password',
    MESSAGING_DB_PASSWORD: 'messaging-db-password',
    TASKS_DB_PASSWORD: 'tasks-db-password',
    WEBHOOKS_DB_PASSWORD: 'webhooks-db-password',
    BILLING_DB_PASSWORD: 'billing-db-password',
  };
  const interpolate = (value: string) =>
    value
      .replace(/\$\{([A-Z0-9_]+)(?::?([?-])([^}]*))?\}/g, (_m, name: string, op?: string, arg?: string) => {
        if (dotenv[name]) return dotenv[name]!;
        if (op === '?') throw new Error(`compose would refuse to start without ${name}: ${arg}`);
        return op === '-' ? (arg ?? '') : '';
      })
      .replace(/\$\$/g, '$');

  type ComposeService = {
    image?: string;
    build?: { dockerfile?: string };
    command?: string[];
    environment?: Record<string, string | number | boolean>;
    healthcheck?: { test?: string[] };
  };
  const compose = parse(read('docker-compose.yml'), { merge: true }) as { services: Record<string, ComposeService> };
  const envOf = (service: ComposeService) =>
    Object.fromEntries(Object.entries(service.environment ?? {}).map(([k, v]) => [k, interpolate(String(v))]));

  test('each service connects as its own database role, created by deploy/db-roles.sql before it starts', () => {
    for (const [name, service] of Object.entries(compose.services)) {
      const workspace = service.command?.join(' ').match(/ services\/([a-z]+)\/dist\//)?.[1];
      if (!workspace) continue;
      expect([name, envOf(service).DATABASE_URL]).toEqual([
        name,
        `postgres://earshot_${workspace}:${workspace}-db-password@postgres:5432/earshot`,
      ]);
    }
    expect(compose.services['db-roles']!.command).toEqual(expect.arrayContaining(['/db-roles.sql']));
  });

  test('has the infrastructure: PostgreSQL 16, Kafka in KRaft mode, MinIO with its bucket', () => {
    expect(compose.services.postgres!.image).toMatch(/^postgres:16/);
    const kafka = envOf(compose.services.kafka!);
    expect(kafka.KAFKA_PROCESS_ROLES).toBe('broker,controller');
    expect(kafka.KAFKA_CONTROLLER_QUORUM_VOTERS).toBeTruthy();
    expect(Object.keys(kafka).some((k) => /ZOOKEEPER/.test(k))).toBe(false);
    expect(compose.services.minio!.image).toMatch(/^minio\/minio/);
    expect(JSON.stringify(compose.services['minio-init']!.command)).toMatch(/mc mb --ignore-existing/);
  });

  test.each(PROCESSES)('runs $name from the one image with its command and a health check', (process) => {
    const service = compose.services[process.name];
    expect(service).toBeDefined();
    expect(service!.image).toBe(compose.services.gateway!.image);
    expect(service!.build?.dockerfile).toBe('deploy/Dockerfile');
    expect(service!.command).toEqual(process.command);
    const probe = (service!.healthcheck?.test ?? []).join(' ');
    expect(probe).toMatch(process.name === 'gateway' ? /\/api\/health/ : /127\.0\.0\.1:3000\/ready/);
  });

  test.each(PROCESSES)('gives $name only variables it reads, every required one, with valid values', (process) => {
    const env = envOf(compose.services[process.name]!);
    expectReadByCode(process, env, `compose ${process.name}`);
    expectValidConfig(process, env, `compose ${process.name}`);
  });

  test('the gateway reaches every service by its compose name; the web app is served from the image', () => {
    const env = envOf(compose.services.gateway!);
    for (const module of ALL_SERVICES) {
      expect(env[serviceUrlKey(module.name)]).toBe(`http://${module.name}:3000`);
      expect(compose.services[module.name]).toBeDefined();
    }
    expect(env.WEB_DIST).toBe('/app/web/dist');
    expect(envOf(compose.services.transcription!).TRANSCRIPTION_WORKER).toBe('false');
  });
});

describe('k8s (kustomize base)', () => {
  type Doc = {
    apiVersion: string;
    kind: string;
    metadata: { name: string };
    data?: Record<string, string>;
    spec?: Record<string, unknown>;
  };
  type EnvVar = {
    name: string;
    value?: string;
    valueFrom?: { secretKeyRef?: { name: string; key: string }; configMapKeyRef?: { name: string; key: string } };
  };
  type Container = {
    name: string;
    image: string;
    command: string[];
    envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
    env?: EnvVar[];
    ports?: { name: string; containerPort: number }[];
    livenessProbe?: { httpGet?: { path: string; port: string } };
    readinessProbe?: { httpGet?: { path: string; port: string } };
    resources?: { requests?: { cpu?: string } };
  };

  const dir = join(root, 'k8s');
  const files = readdirSync(dir).filter((f) => /\.ya?ml$/.test(f) && f !== 'kustomization.yaml');
  const kustomization = parse(readFileSync(join(dir, 'kustomization.yaml'), 'utf8')) as {
    namespace: string;
    resources: string[];
  };
  const docs: Doc[] = files.flatMap((f) =>
    parseAllDocuments(readFileSync(join(dir, f), 'utf8')).map((d) => {
      if (d.errors.length) throw new Error(`${f}: ${d.errors[0]!.message}`);
      return d.toJS() as Doc;
    }),
  );
  const find = (kind: string, name: string) => docs.find((d) => d.kind === kind && d.metadata.name === name);
  const containerOf = (name: string) =>
    ((find('Deployment', name)?.spec as { template: { spec: { containers: Container[] } } } | undefined)?.template.spec
      .containers ?? [])[0];

  // Secret values are never in the repository; any well-formed stand-in shows the wiring is right.
  const secretStandIns: Record<string, string> = {
    DATABASE_URL: 'postgres://earshot:pw@db:5432/earshot',
    JWT_SECRET: 'k8s-test-jwt-secret-k8s-test-jwt-secret-0123',
    AUTH_SIGNING_KEY: testSigningKeyPem(),
    SECRETS_KEY: 'cd'.repeat(32),
    INTERNAL_API_TOKEN: 'k8s-test-internal-token-k8s-test-internal-token',
    S3_ACCESS_KEY: 'access',
    S3_SECRET_KEY: 'secret-key',
    ADMIN_PASSWORD: 'first-admin-password',
    OPENAI_API_KEY: 'sk-test',
    SMTP_URL: 'smtp://mailer:stand-in@mail.example.com:587',
    ENCRYPTION_MASTER_KEY: 'cd'.repeat(32),
  };
  function envOf(container: Container): Record<string, string> {
    const env: Record<string, string> = {};
    for (const from of container.envFrom ?? []) {
      expect(from.secretRef).toBeUndefined();
      const map = find('ConfigMap', from.configMapRef!.name);
      expect(map).toBeDefined();
      Object.assign(env, map!.data);
    }
    for (const item of container.env ?? []) {
      const secret = item.valueFrom?.secretKeyRef;
      if (secret) {
        // Each service's database URL (its own role) is a Secret of its own; the rest are shared.
        expect([item.name, secret.name]).toEqual([
          item.name,
          item.name === 'DATABASE_URL' ? expect.stringMatching(/^earshot-db-[a-z]+$/) : 'earshot-secrets',
        ]);
        expect(secret.key).toBe(item.name);
        env[item.name] = secretStandIns[secret.key] ?? 'stand-in';
      } else env[item.name] = item.value ?? '';
    }
    return env;
  }

  test('kustomization lists every manifest file, and each one parses', () => {
    expect([...kustomization.resources].sort()).toEqual([...files].sort());
    expect(kustomization.namespace).toBe('earshot');
    expect(find('Namespace', 'earshot')).toBeDefined();
  });

  test('holds no secret values: a Secret is only referenced', () => {
    expect(docs.filter((d) => d.kind === 'Secret')).toEqual([]);
  });

  test.each(PROCESSES)('runs $name as a Deployment with its command and probes', (process) => {
    const container = containerOf(process.name)!;
    expect(container).toBeDefined();
    expect(container.image).toBe(containerOf('gateway')!.image);
    expect(container.command).toEqual(process.command);
    const prefix = process.name === 'gateway' ? '/api' : '';
    expect(container.livenessProbe?.httpGet?.path).toBe(`${prefix}/health`);
    expect(container.readinessProbe?.httpGet?.path).toBe(process.name === 'gateway' ? '/api/health' : '/ready');
    expect(container.ports?.find((p) => p.name === 'http')?.containerPort).toBe(3000);
  });

  test.each(PROCESSES)('gives $name only variables it reads, every required one, with valid values', (process) => {
    const env = envOf(containerOf(process.name)!);
    expectReadByCode(process, env, `k8s ${process.name}`);
    expectValidConfig(process, env, `k8s ${process.name}`);
  });

  test('each service and the gateway have a Service; the gateway reaches each one by it', () => {
    const gatewayEnv = envOf(containerOf('gateway')!);
    for (const module of ALL_SERVICES) {
      const service = find('Service', module.name);
      expect(service).toBeDefined();
      const ports = (service!.spec as { ports: { port: number }[] }).ports;
      expect(ports.map((p) => p.port)).toContain(3000);
      expect(gatewayEnv[serviceUrlKey(module.name)]).toBe(`http://${module.name}:3000`);
    }
    expect(find('Service', 'gateway')).toBeDefined();
    expect(envOf(containerOf('transcription')!).TRANSCRIPTION_WORKER).toBe('false');
  });

  test('the Ingress sends everything to the gateway', () => {
    const ingress = docs.find((d) => d.kind === 'Ingress')!;
    const backends = JSON.stringify(ingress.spec).match(/"service":\{"name":"([^"]+)"/g) ?? [];
    expect(backends.length).toBeGreaterThan(0);
    expect(new Set(backends)).toEqual(new Set(['"service":{"name":"gateway"']));
  });
  // How the worker scales (KEDA, not a CPU autoscaler) is held by deploy/scaler.test.ts.
});

test('the image: a maintained Node LTS, the offline speech engine, everything built, production dependencies only, not run as root', () => {
  const dockerfile = read('deploy/Dockerfile');
  // Node 20 reached its end of life in April 2026; engines still promises 20.19+ for the code itself.
  expect(dockerfile.match(/^FROM node:(22|24)-slim/gm)?.length).toBeGreaterThanOrEqual(2);
  expect(dockerfile).not.toMatch(/^FROM node:(1\d|20)\b/m);
  expect(JSON.parse(read('package.json')).engines.node).toBe('>=20.19');
  expect(dockerfile).toMatch(/apt-get install[^\n]*ffmpeg pocketsphinx pocketsphinx-en-us/);
  expect(dockerfile).toMatch(/^RUN npm ci$/m);
  // The servers compiled and the console built, before the dev-only packages (tsx, esbuild) leave.
  const build = dockerfile.search(/^RUN npm run build$/m);
  const prune = dockerfile.search(/^RUN npm prune --omit=dev/m);
  expect(build).toBeGreaterThan(0);
  expect(prune).toBeGreaterThan(build);
  const users = dockerfile.match(/^USER (\S+)/gm) ?? [];
  expect(users.at(-1)).toBe('USER node');
  expect(dockerfile).toMatch(/^HEALTHCHECK [^\n]*\\\n\s+CMD \["node", "deploy\/healthcheck\.mjs"\]/m);
  expect(dockerfile).toMatch(/^CMD \["node", "--enable-source-maps", "gateway\/dist\/main\.js"\]$/m);
});

test('every process runs compiled JavaScript that `npm run build` writes, with plain node', () => {
  const built = entrypoints().map((entry) => entry.output);
  for (const process of PROCESSES) {
    expect(process.command.slice(0, 2)).toEqual(['node', '--enable-source-maps']);
    expect(built).toContain(process.command[2]);
  }
  // Each workspace's own start script runs the same file, for `npm run start -w <workspace>`.
  // (The all-in-one is `npm start` at the root: scripts/start.mjs runs it.)
  for (const entry of entrypoints().filter((e) => !e.output.endsWith('all-in-one.js'))) {
    const scripts = JSON.parse(read(`${entry.workspace}/package.json`)).scripts as Record<string, string>;
    expect(Object.values(scripts)).toContain(`node --enable-source-maps ${relative(entry.workspace, entry.output)}`);
  }
});

test('no transpiler is a production dependency: npm prune --omit=dev leaves none in the image', () => {
  const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, { dev?: boolean }> };
  const transpilers = Object.entries(lock.packages).filter(([path]) =>
    /node_modules\/(tsx|esbuild|@swc\/core)$/.test(path),
  );
  expect(transpilers.length).toBeGreaterThan(0);
  expect(transpilers.filter(([, entry]) => !entry.dev).map(([path]) => path)).toEqual([]);
});
