import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import S3rver from 's3rver';
import { Redis } from 'ioredis';
import { startFakeOpenAI, type FakeOpenAI } from '@earshot/ai/testing';
import { S3Storage } from '@earshot/kit';
import { startKafkaMock, type KafkaMock } from '@earshot/kit/testing';
import { applyDbRoles, asSuperuser, serviceRoleUrl } from '../../deploy/db-roles';
import { freePorts, Processes, type ProcessSpec } from './processes';

export const SERVICES = [
  'auth',
  'tenant',
  'billing',
  'file',
  'transcription',
  'chat',
  'prompt',
  'audit',
  'messaging',
  'tasks',
  'webhooks',
] as const;
export type ServiceName = (typeof SERVICES)[number];
/** Every process the suite runs, named as in compose (chat twice: one consumer group, two members). */
export type ProcessName = Exclude<ServiceName, 'chat'> | 'transcription-worker' | 'chat-1' | 'chat-2' | 'gateway';

export const ADMIN_EMAIL = 'root@distributed.test';
export const ADMIN_PASSWORD = `root-${randomBytes(8).toString('hex')}`;
const BUCKET = 'earshot-audio';
/** What deploy/Dockerfile's ENV gives every process of the image besides compose's environment. */
const IMAGE_ENV = { NODE_OPTIONS: '--max-semi-space-size=4', MALLOC_MMAP_THRESHOLD_: '131072' };
/**
 * Consumer group timings shorter than compose's (kafkajs's defaults: a 30 s session, 5 s fetch
 * wait). A process killed with -9 keeps its partitions until its session times out, and the mock
 * broker makes every joining process wait a session timeout for the group to rejoin and answers a
 * fetch only once its wait is over: each kill -9, each start and each event hop waited on them.
 * Still a session several heartbeats long, so that a process starved of CPU here is not evicted.
 */
const KAFKA_GROUP_ENV = {
  KAFKA_SESSION_TIMEOUT_MS: '10000',
  KAFKA_HEARTBEAT_INTERVAL_MS: '1000',
  KAFKA_MAX_WAIT_MS: '200',
};

export interface SystemOptions {
  root: string;
  /** The machine's PostgreSQL as a superuser; a throwaway database is made on it. */
  databaseUrl: string;
  redisUrl: string;
}

/**
 * What docker-compose.yml starts, as local processes on loopback: PostgreSQL (a throwaway database
 * on the machine's server, with deploy/db-roles.sql's role per service), Kafka (librdkafka's mock
 * cluster), Redis (the machine's, under a key prefix of this run), S3 (s3rver: no MinIO binary can
 * be had here), a fake OpenAI-compatible provider, then every service, the transcription worker
 * and the gateway with compose's environment. Everything is undone by stop(), also after a failure.
 */
export class System {
  readonly dir = mkdtempSync(join(tmpdir(), 'earshot-distributed-'));
  /** Where s3rver keeps the objects (`<bucket>/<key>._S3rver_object`), for the suite's own look at what is stored. */
  get s3Dir(): string {
    return join(this.dir, 's3');
  }
  readonly processes: Processes;
  readonly databaseName = `earshot_distributed_${Date.now()}_${randomBytes(3).toString('hex')}`;
  readonly redisPrefix = `earshot:distributed:${randomBytes(4).toString('hex')}:`;
  kafka?: KafkaMock;
  fake?: FakeOpenAI;
  private s3?: S3rver;
  private s3Port = 0;
  private databaseMade = false;
  private readonly ports = new Map<ProcessName, number>();
  private readonly passwords = Object.fromEntries(SERVICES.map((s) => [s, randomBytes(12).toString('hex')])) as Record<
    ServiceName,
    string
  >;
  private readonly secrets = {
    JWT_SECRET: randomBytes(32).toString('hex'),
    SECRETS_KEY: randomBytes(32).toString('hex'),
    INTERNAL_API_TOKEN: randomBytes(32).toString('hex'),
    ENCRYPTION_MASTER_KEY: randomBytes(32).toString('hex'),
    AUTH_SIGNING_KEY: generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };

  constructor(private readonly options: SystemOptions) {
    this.processes = new Processes(options.root, this.dir);
  }

  get gatewayUrl(): string {
    return this.url('gateway');
  }

  url(name: ProcessName): string {
    const port = this.ports.get(name);
    if (!port) throw new Error(`no port for ${name}`);
    return `http://127.0.0.1:${port}`;
  }

  /** The throwaway database as the superuser (for the suite's own checks, never the product's path). */
  superuser<T>(work: (client: pg.Client) => Promise<T>, database = this.databaseName): Promise<T> {
    return asSuperuser(this.options.databaseUrl, database, work);
  }

  /** The infrastructure compose's postgres, db-roles, kafka, minio and minio-init give. */
  async startInfrastructure(): Promise<Record<string, number>> {
    const timings: Record<string, number> = {};
    let t = Date.now();
    await this.superuser((c) => c.query(`create database ${this.databaseName}`), 'postgres');
    this.databaseMade = true;
    await applyDbRoles(this.options.databaseUrl, this.databaseName, this.passwords);
    timings.postgres = Date.now() - t;

    t = Date.now();
    this.kafka = await startKafkaMock({ brokers: 3 });
    timings.kafka = Date.now() - t;

    t = Date.now();
    this.s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: this.s3Dir });
    this.s3Port = (await this.s3.run()).port;
    // What minio-init does: the audio bucket exists before any service starts.
    await new S3Storage({
      endpoint: `http://127.0.0.1:${this.s3Port}`,
      bucket: BUCKET,
      accessKey: 'S3RVER',
      secretKey: 'S3RVER',
      region: 'us-east-1',
    }).ensureBucket();
    timings.s3 = Date.now() - t;

    const redis = new Redis(this.options.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis.connect();
    await redis.ping();
    redis.disconnect();

    this.fake = await startFakeOpenAI();
    const names = [
      'auth',
      'tenant',
      'billing',
      'file',
      'transcription',
      'transcription-worker',
      'chat-1',
      'chat-2',
      'prompt',
      'audit',
      'messaging',
      'tasks',
      'webhooks',
      'gateway',
    ] as const;
    const ports = await freePorts(names.length);
    names.forEach((name, i) => this.ports.set(name, ports[i]!));
    return timings;
  }

  /** Compose's environment for one process (same keys), pointed at this machine's loopback. */
  spec(name: ProcessName): ProcessSpec {
    const port = this.ports.get(name)!;
    const readyUrl = `http://127.0.0.1:${port}${name === 'gateway' ? '/api/health' : '/ready'}`;
    const roleUrl = (service: ServiceName) =>
      serviceRoleUrl(this.options.databaseUrl, this.databaseName, service, this.passwords[service]);
    // x-earshot-env, with what compose takes from its network (auth:3000) said outright.
    const base = (service: ServiceName, clientId: string) => ({
      ...IMAGE_ENV,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: join(this.dir, name),
      DATABASE_URL: roleUrl(service),
      KAFKA_BROKERS: this.kafka!.brokers,
      KAFKA_CLIENT_ID: clientId,
      ...KAFKA_GROUP_ENV,
      // The mock broker refuses CreateTopics: it makes topics on first use.
      KAFKA_TOPIC_CREATION: 'broker',
      JWT_SECRET: this.secrets.JWT_SECRET,
      SECRETS_KEY: this.secrets.SECRETS_KEY,
      TRUST_PROXY: 'true',
      // Compose polls every 500 ms; faster here so that the suite waits less on each hop.
      OUTBOX_POLL_MS: '100',
      AUTH_JWKS_URL: `${this.url('auth')}/api/auth/jwks`,
      // Two cores shared by a dozen processes: shedding would refuse the suite's requests at random.
      LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: '0',
      LOAD_SHED_MAX_QUEUE_DELAY_MS: '0',
    });
    const storage = {
      STORAGE_DRIVER: 's3',
      S3_ENDPOINT: `http://127.0.0.1:${this.s3Port}`,
      S3_BUCKET: BUCKET,
      S3_ACCESS_KEY: 'S3RVER',
      S3_SECRET_KEY: 'S3RVER',
    };
    // The fake provider listens on loopback, a private address refused by default.
    const ai = { AI_ALLOW_PRIVATE_URLS: 'true', AI_TRUSTED_HOSTS: '', AI_TIMEOUT_MS: '30000' };
    const providerKeys = {
      PROMPT_SERVICE_URL: this.url('prompt'),
      INTERNAL_API_TOKEN: this.secrets.INTERNAL_API_TOKEN,
    };
    const apiKeys = {
      TENANT_SERVICE_URL: this.url('tenant'),
      BILLING_SERVICE_URL: this.url('billing'),
      INTERNAL_API_TOKEN: this.secrets.INTERNAL_API_TOKEN,
    };
    // Encryption at rest: one master key in every process that keeps data keys or reads encrypted
    // data; transcription asks the file service for the audio keys (compose: the same).
    const encryption = { ENCRYPTION_MASTER_KEY: this.secrets.ENCRYPTION_MASTER_KEY };
    const audioKeys = {
      ...encryption,
      FILE_SERVICE_URL: this.url('file'),
      INTERNAL_API_TOKEN: this.secrets.INTERNAL_API_TOKEN,
    };
    const service = (cwd: string, entry = 'dist/main.js') => ({ name, cwd, entry, readyUrl });
    switch (name) {
      case 'gateway':
        return {
          ...service('gateway'),
          env: {
            ...IMAGE_ENV,
            NODE_ENV: 'production',
            LOG_LEVEL: 'warn',
            HOST: '127.0.0.1',
            PORT: String(port),
            DATA_DIR: join(this.dir, name),
            JWT_SECRET: this.secrets.JWT_SECRET,
            TRUST_PROXY: 'false',
            PUBLIC_URL: this.gatewayUrl,
            COOKIE_SECURE: 'auto',
            KAFKA_BROKERS: this.kafka!.brokers,
            KAFKA_TOPIC_CREATION: 'broker',
            ...KAFKA_GROUP_ENV,
            WEB_DIST: join(this.dir, 'no-web'),
            BODY_LIMIT_BYTES: '1048576',
            RATE_LIMIT_MAX: '100000',
            RATE_LIMIT_WINDOW_MS: '60000',
            SIGN_IN_RATE_LIMIT_MAX: '1000',
            API_KEY_RATE_LIMIT_MAX: '600',
            REDIS_URL: this.options.redisUrl,
            REDIS_KEY_PREFIX: this.redisPrefix,
            INTERNAL_API_TOKEN: this.secrets.INTERNAL_API_TOKEN,
            AUTH_SERVICE_URL: this.url('auth'),
            TENANT_SERVICE_URL: this.url('tenant'),
            FILE_SERVICE_URL: this.url('file'),
            TRANSCRIPTION_SERVICE_URL: this.url('transcription'),
            CHAT_SERVICE_URL: this.url('chat-1'),
            PROMPT_SERVICE_URL: this.url('prompt'),
            AUDIT_SERVICE_URL: this.url('audit'),
            MESSAGING_SERVICE_URL: this.url('messaging'),
            TASKS_SERVICE_URL: this.url('tasks'),
            WEBHOOKS_SERVICE_URL: this.url('webhooks'),
            BILLING_SERVICE_URL: this.url('billing'),
            LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: '0',
            LOAD_SHED_MAX_QUEUE_DELAY_MS: '0',
          },
        };
      case 'auth':
        return {
          ...service('services/auth'),
          env: {
            ...base('auth', 'earshot-auth'),
            ...storage,
            AUTH_SIGNING_KEY: this.secrets.AUTH_SIGNING_KEY,
            ADMIN_EMAIL,
            ADMIN_PASSWORD,
            COOKIE_SECURE: 'auto',
            PUBLIC_URL: this.gatewayUrl,
          },
        };
      case 'tenant':
        // The master key only tells the tenant whether a company's encryption may be turned on.
        return {
          ...service('services/tenant'),
          env: { ...base('tenant', 'earshot-tenant'), ...storage, ...apiKeys, ...encryption },
        };
      case 'billing':
        return { ...service('services/billing'), env: { ...base('billing', 'earshot-billing'), ...apiKeys } };
      case 'file':
        return {
          ...service('services/file'),
          env: {
            ...base('file', 'earshot-file'),
            ...storage,
            ...apiKeys,
            ...encryption,
            MAX_UPLOAD_BYTES: '2147483648',
          },
        };
      case 'transcription':
        return {
          ...service('services/transcription'),
          env: {
            ...base('transcription', 'earshot-transcription'),
            ...storage,
            ...apiKeys,
            ...audioKeys,
            TRANSCRIPTION_WORKER: 'false',
          },
        };
      case 'transcription-worker':
        return {
          ...service('services/transcription', 'dist/worker.js'),
          env: {
            ...base('transcription', 'earshot-transcription-worker'),
            ...storage,
            ...ai,
            ...providerKeys,
            ...audioKeys,
            TRANSCRIPTION_ENGINE: 'pocketsphinx',
            TRANSCRIPTION_CONCURRENCY: '2',
            // A killed worker's job is claimed again once its lease runs out (compose: 60 s).
            TRANSCRIPTION_LEASE_MS: '3000',
            TRANSCRIPTION_POLL_MS: '200',
            SPEECH_MODELS_URL: 'http://127.0.0.1:9',
            SPEECH_DIARIZATION_URL: 'http://127.0.0.1:9',
          },
        };
      case 'chat-1':
      case 'chat-2':
        return {
          ...service('services/chat'),
          env: { ...base('chat', 'earshot-chat'), ...storage, ...ai, ...providerKeys, ...apiKeys, ...encryption },
        };
      case 'prompt':
        return {
          ...service('services/prompt'),
          env: {
            ...base('prompt', 'earshot-prompt'),
            ...storage,
            ...ai,
            ...apiKeys,
            ...encryption,
            LOCAL_AI_SPEECH_URL: '',
            LOCAL_AI_CHAT_URL: '',
          },
        };
      case 'audit':
        // Auth, prompt and audit write their parts of a person's export to the shared object store.
        return { ...service('services/audit'), env: { ...base('audit', 'earshot-audit'), ...storage } };
      case 'messaging':
        return {
          ...service('services/messaging'),
          env: { ...base('messaging', 'earshot-messaging'), MAIL_FROM: 'Earshot <no-reply@earshot.localhost>' },
        };
      case 'tasks':
        return { ...service('services/tasks'), env: base('tasks', 'earshot-tasks') };
      case 'webhooks':
        return { ...service('services/webhooks'), env: { ...base('webhooks', 'earshot-webhooks'), ...storage } };
    }
  }

  /**
   * Every process, in compose's order: auth first (the others fetch its keys), then the rest at once,
   * the gateway with them (compose starts it once they are started, not ready).
   */
  async startProcesses(): Promise<Record<string, number>> {
    const ready: Record<string, number> = {};
    const auth = await this.processes.start(this.spec('auth'));
    ready.auth = auth.readyMs;
    const rest: ProcessName[] = [
      'tenant',
      'billing',
      'file',
      'prompt',
      'transcription',
      'transcription-worker',
      'audit',
      'messaging',
      'tasks',
      'webhooks',
      'chat-1',
      'chat-2',
      'gateway',
    ];
    for (const started of await Promise.all(rest.map((name) => this.processes.start(this.spec(name), 180_000))))
      ready[started.spec.name] = started.readyMs;
    return ready;
  }

  async stop(): Promise<void> {
    const errors: unknown[] = [];
    const attempt = async (work: () => Promise<unknown>) => {
      try {
        await work();
      } catch (error) {
        errors.push(error);
      }
    };
    await attempt(() => this.processes.stopAll());
    await attempt(async () => this.fake?.close());
    await attempt(async () => this.s3?.close());
    await attempt(async () => this.kafka?.stop());
    await attempt(async () => {
      const redis = new Redis(this.options.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
      await redis.connect();
      const keys = await redis.keys(`${this.redisPrefix}*`);
      if (keys.length) await redis.del(...keys);
      redis.disconnect();
    });
    if (this.databaseMade)
      await attempt(() =>
        this.superuser((c) => c.query(`drop database if exists ${this.databaseName} with (force)`), 'postgres'),
      );
    if (errors.length === 0 && !process.env.DISTRIBUTED_KEEP_LOGS) rmSync(this.dir, { recursive: true, force: true });
    if (errors.length) throw new AggregateError(errors, 'cleaning up the distributed system failed');
  }
}
