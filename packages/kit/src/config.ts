import { z } from 'zod';

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** The credential services present to each other's internal routes (distributed mode). */
export const internalTokenConfig = z.string().min(32, 'must be at least 32 characters').optional();

const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0'])
    .default(fallback ? 'true' : 'false')
    .transform((v) => v === 'true' || v === '1');

/** Settings every process reads. Services extend it with their own keys. */
export const BaseConfigSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
  KAFKA_BROKERS: z
    .string()
    .regex(/^[^,\s]+(,[^,\s]+)*$/, 'must be host:port[,host:port]')
    .optional(),
  KAFKA_CLIENT_ID: z.string().default('earshot'),
  /** No longer signs anything: only the fallback seed of at-rest encryption when SECRETS_KEY is unset. */
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /** Where a distributed process fetches the public keys that verify access tokens. */
  AUTH_JWKS_URL: z.string().url().optional(),
  SECRETS_KEY: z
    .string()
    .regex(/^[0-9a-f]{64}$/i, 'must be 64 hex characters (32 bytes)')
    .optional(),
  COOKIE_SECURE: z.enum(['auto', 'true', 'false']).default('auto'),
  PUBLIC_URL: z.string().url().optional(),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().url().optional(),
  OTEL_SERVICE_NAME: z.string().optional(),
  /** Bearer token that lets a scraper off this machine read /metrics (loopback needs none). */
  METRICS_TOKEN: z.string().min(32, 'must be at least 32 characters').optional(),
  /** The OTLP exporter's wire format (the SDK reads it; checked here so a typo stops the start). */
  OTEL_EXPORTER_OTLP_PROTOCOL: z.enum(['http/protobuf', 'http/json']).optional(),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(30).max(86_400).default(900),
  REFRESH_TOKEN_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  OUTBOX_POLL_MS: z.coerce.number().int().min(10).max(60_000).default(500),
  /** Failures of one event's handler before the event is parked (see `npm run events`). */
  EVENT_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(1000).default(5),
  KAFKA_PARTITIONS: z.coerce.number().int().min(1).max(10_000).default(6),
  KAFKA_REPLICATION_FACTOR: z.coerce.number().int().min(1).max(10).default(1),
  /** `create`: topics get KAFKA_PARTITIONS (falling back to auto-creation where the broker refuses); `broker`: the broker auto-creates them. */
  KAFKA_TOPIC_CREATION: z.enum(['create', 'broker']).default('create'),
  /**
   * Consumer group timings, kafkajs's defaults unless set. A member killed without leaving keeps its
   * partitions until its session times out, and a process joining waits that long for the others to
   * rejoin: lower in a test cluster whose members come and go (the broker's floor is 6 s).
   */
  KAFKA_SESSION_TIMEOUT_MS: z.coerce.number().int().min(6_000).max(1_800_000).default(30_000),
  /** Below a third of the session timeout, so that a late heartbeat or two does not expire the member. */
  KAFKA_HEARTBEAT_INTERVAL_MS: z.coerce.number().int().min(100).max(600_000).default(3_000),
  /** The longest a fetch waits for new messages; a broker that holds every fetch this long (the mock) delays each hop by up to it. */
  KAFKA_MAX_WAIT_MS: z.coerce.number().int().min(10).max(60_000).default(5_000),
  TRUST_PROXY: bool(false),
  /** Required in distributed mode by every process that checks company API keys (X-API-Key) with the tenant service. */
  INTERNAL_API_TOKEN: internalTokenConfig,
  /** Where the tenant service listens (distributed mode): company API keys are checked there. */
  TENANT_SERVICE_URL: z.string().url().optional(),
  /** Where the billing service listens (distributed mode): credits are checked there before AI work (chat, prompt, file, transcription), and the tenant opens a new company's account there. */
  BILLING_SERVICE_URL: z.string().url().optional(),
  LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: z.coerce.number().int().min(0).max(60_000).optional(),
  /** Shed while every request of the last second took longer than this (a standing queue); 0 = never. */
  LOAD_SHED_MAX_QUEUE_DELAY_MS: z.coerce.number().int().min(0).max(600_000).optional(),
  LOAD_SHED_RETRY_AFTER_SECONDS: z.coerce.number().int().min(1).max(3600).default(2),
});
export type BaseConfig = z.infer<typeof BaseConfigSchema>;

/**
 * Validates the environment once at start. Empty strings count as unset (compose files often
 * pass `FOO=`). Throws ConfigError naming every bad key, so the process refuses to start clearly.
 */
export function loadConfig<S extends z.ZodObject<z.ZodRawShape>>(
  schema: S,
  env: NodeJS.ProcessEnv = process.env,
): z.infer<S> {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const result = schema.safeParse(cleaned);
  if (!result.success) {
    throw new ConfigError(result.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`));
  }
  return result.data;
}

export { bool as envBoolean };

/**
 * The consumer group timings kafkajs takes, from KAFKA_SESSION_TIMEOUT_MS and its kin. ConfigError
 * (at start) when heartbeats are too sparse to keep a member in its group: Kafka's advice is a
 * third of the session timeout at most.
 */
export function kafkaGroupTimings(
  config: Pick<BaseConfig, 'KAFKA_SESSION_TIMEOUT_MS' | 'KAFKA_HEARTBEAT_INTERVAL_MS' | 'KAFKA_MAX_WAIT_MS'>,
): { sessionTimeout: number; heartbeatInterval: number; maxWaitTimeInMs: number } {
  if (config.KAFKA_HEARTBEAT_INTERVAL_MS * 3 > config.KAFKA_SESSION_TIMEOUT_MS)
    throw new ConfigError([
      `KAFKA_HEARTBEAT_INTERVAL_MS: must be at most a third of KAFKA_SESSION_TIMEOUT_MS (${config.KAFKA_SESSION_TIMEOUT_MS})`,
    ]);
  return {
    sessionTimeout: config.KAFKA_SESSION_TIMEOUT_MS,
    heartbeatInterval: config.KAFKA_HEARTBEAT_INTERVAL_MS,
    maxWaitTimeInMs: config.KAFKA_MAX_WAIT_MS,
  };
}

/**
 * The console's address in links that leave it (mail): PUBLIC_URL when set; otherwise the
 * company's own address on this machine (`http://<domain>.localhost:<PORT>`, which browsers resolve
 * to the machine and which shows the company's branding), or the console on localhost for a
 * person without a company. Never a request's Host header, which whoever asks controls.
 */
export function consoleAddress(config: Pick<BaseConfig, 'PUBLIC_URL' | 'PORT'>, companyDomain?: string | null): string {
  if (config.PUBLIC_URL) return config.PUBLIC_URL.replace(/\/+$/, '');
  return `http://${companyDomain ? `${companyDomain}.` : ''}localhost:${config.PORT}`;
}
