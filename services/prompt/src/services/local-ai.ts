import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { setTimeout as delay } from 'node:timers/promises';
import { SYSTEM_ACTOR, type ModelPurpose, type PriceUnit } from '@earshot/contracts';
import { BlockedUrlError, checkUrl, outboundPolicy } from '@earshot/ai';
import type { Database, ServiceContext } from '@earshot/kit';
import type { PromptConfig } from '../config';
import { insertModel } from '../repositories/models';
import { anyProviderLocked, insertProvider } from '../repositories/providers';
import { toModelState } from './models';
import { toProviderState } from './providers';

/** The longest wait between two attempts: a server that starts late is found within this. */
const MAX_WAIT_MS = 30_000;
/** What is kept of an answer's body for a log line (the servers' errors are short JSON). */
const BODY_KEPT = 2_000;

interface LocalServer {
  /** Provider name in AI Configuration. */
  name: string;
  /** The OpenAI-compatible base URL (…/v1) the provider is registered with. */
  baseUrl: string;
  /** The server's own root, for its health and model routes (outside /v1). */
  root: string;
  model: string;
  purpose: ModelPurpose;
  /** Prices the model starts at (the tenant service sets them from the model's event): free. */
  prices: PriceUnit[];
  /** A route that answers 200 once the server is up. */
  health: string;
  /** Asks the server to fetch its model; resolves once the model is there. */
  install(server: LocalServer, signal: AbortSignal, log: (message: string) => void): Promise<void>;
}

/** A refusal that another attempt will not change (an unknown or gated model). */
class Refused extends Error {}

interface Answer {
  status: number;
  body: string;
}

/**
 * One HTTP request without a time limit: a model download answers only once it is done, which
 * may take longer than fetch's header timeout. `onLine` sees each line of a streamed body.
 */
function call(
  url: string,
  method: 'GET' | 'POST',
  body: string | null,
  signal: AbortSignal,
  onLine?: (line: string) => void,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const send = url.startsWith('https:') ? httpsRequest : httpRequest;
    const headers =
      body === null ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
    // No pooled connection: these calls are few and one may last as long as a download.
    const req = send(url, { method, headers, signal, agent: false }, (res: IncomingMessage) => {
      let kept = '';
      let pending = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        kept = (kept + chunk).slice(-BODY_KEPT);
        if (!onLine) return;
        const lines = (pending + chunk).split('\n');
        pending = lines.pop()!;
        for (const line of lines) if (line.trim()) onLine(line);
      });
      res.on('end', () => {
        if (onLine && pending.trim()) onLine(pending);
        resolve({ status: res.statusCode ?? 0, body: kept });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body ?? undefined);
  });
}

/** speaches: `POST /v1/models/{owner}/{name}` downloads the model (200) or finds it there (201). */
async function installSpeechModel(server: LocalServer, signal: AbortSignal): Promise<void> {
  const path = server.model.split('/').map(encodeURIComponent).join('/');
  const answer = await call(`${server.root}/v1/models/${path}`, 'POST', null, signal);
  if (answer.status === 200 || answer.status === 201) return;
  // 404 unknown repository, 401/403 a gated one (HF_TOKEN on the speech server), 400/422 not a model.
  const message = `${server.name} answered ${answer.status} for ${server.model}: ${answer.body}`;
  throw answer.status >= 400 && answer.status < 500 ? new Refused(message) : new Error(message);
}

/** Ollama: `POST /api/pull` streams its progress, one JSON object a line, ending with "success" or an error. */
async function pullChatModel(server: LocalServer, signal: AbortSignal, log: (message: string) => void): Promise<void> {
  let last = '';
  let error = '';
  let done = false;
  const answer = await call(
    `${server.root}/api/pull`,
    'POST',
    JSON.stringify({ model: server.model, stream: true }),
    signal,
    (line) => {
      let step: { status?: string; error?: string };
      try {
        step = JSON.parse(line) as typeof step;
      } catch {
        return;
      }
      if (step.error) error = step.error;
      if (step.status === 'success') done = true;
      // Each layer's progress repeats its status with growing byte counts: one line per status.
      else if (step.status && step.status !== last) log(`${server.name}: ${step.status}`);
      if (step.status) last = step.status;
    },
  );
  if (answer.status >= 400) {
    const message = `${server.name} answered ${answer.status} for ${server.model}: ${answer.body}`;
    throw answer.status < 500 ? new Refused(message) : new Error(message);
  }
  // An unknown tag is final; a broken download is worth another try (Ollama resumes it).
  if (error)
    throw /not exist|not found/i.test(error)
      ? new Refused(`${server.name}: ${error}`)
      : new Error(`${server.name}: ${error}`);
  if (!done) throw new Error(`${server.name}: the pull of ${server.model} ended without success`);
}

const rootOf = (baseUrl: string) => baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');

/** The servers the environment names (none when LOCAL_AI_* are unset). */
export function localServers(config: PromptConfig): LocalServer[] {
  const servers: LocalServer[] = [];
  if (config.LOCAL_AI_SPEECH_URL) {
    const baseUrl = config.LOCAL_AI_SPEECH_URL.replace(/\/+$/, '');
    servers.push({
      name: 'Local speech (speaches)',
      baseUrl,
      root: rootOf(baseUrl),
      model: config.LOCAL_AI_SPEECH_MODEL,
      purpose: 'speech-to-text',
      prices: ['audio_minute'],
      health: '/health',
      install: installSpeechModel,
    });
  }
  if (config.LOCAL_AI_CHAT_URL) {
    const baseUrl = config.LOCAL_AI_CHAT_URL.replace(/\/+$/, '');
    servers.push({
      name: 'Local chat (Ollama)',
      baseUrl,
      root: rootOf(baseUrl),
      model: config.LOCAL_AI_CHAT_MODEL,
      purpose: 'chat',
      prices: ['input_1k', 'output_1k'],
      health: '/api/version',
      install: pullChatModel,
    });
  }
  return servers;
}

/**
 * The local-AI profile's first start (docs/operations.md, "Local AI"): once the speech server and Ollama answer,
 * registers them as providers with their model, each the default of its purpose and free, unless
 * a provider already exists; then has each server fetch its model (on every start: the servers
 * answer at once when they have it, and refill a wiped volume). Runs in the background with
 * retries, since the servers may start after Earshot; the providers work once the models are in.
 */
export class LocalAiRegistration {
  private readonly abort = new AbortController();
  /** Ends when registration and the model downloads are done, refused or given up (never rejects). */
  readonly settled: Promise<void>;

  constructor(private readonly ctx: ServiceContext<PromptConfig>) {
    this.settled = this.run().catch((error: unknown) => {
      if (!this.abort.signal.aborted) this.ctx.logger.error({ err: error }, 'Local AI: registration failed');
    });
  }

  async stop(): Promise<void> {
    this.abort.abort();
    await this.settled;
  }

  private async run(): Promise<void> {
    const servers = localServers(this.ctx.config);
    if (servers.length === 0) return;
    const log = this.ctx.logger;
    log.info(
      { servers: servers.map((s) => ({ url: s.baseUrl, model: s.model })) },
      'Local AI: waiting for the local servers to answer',
    );
    const reached = await Promise.all(
      servers.map((s) => this.retry(`${s.name} at ${s.root}${s.health}`, () => this.reach(s))),
    );
    if (reached.includes(false)) return;
    for (const server of servers) {
      if (!(await this.callable(server))) return;
    }
    const registered = await this.register(servers);
    if (registered)
      log.info(
        { models: servers.map((s) => s.model) },
        'Local AI: registered the local servers as providers, their models default and free',
      );
    else
      log.info(
        'Local AI: providers already exist; nothing registered (add the local servers in AI Configuration if wanted)',
      );
    await Promise.all(
      servers.map(async (s) => {
        if (
          await this.retry(`${s.name}: fetching ${s.model}`, () =>
            s.install(s, this.abort.signal, (message) => log.debug(message)),
          )
        ) {
          log.info({ model: s.model }, `Local AI: ${s.name} has its model`);
        }
      }),
    );
  }

  private async reach(server: LocalServer): Promise<void> {
    const answer = await call(`${server.root}${server.health}`, 'GET', null, this.abort.signal);
    if (answer.status !== 200) throw new Error(`answered ${answer.status}`);
  }

  /** A provider that chat and the workers would refuse to call is not registered: the log says what to set. */
  private async callable(server: LocalServer): Promise<boolean> {
    try {
      await checkUrl(server.baseUrl, outboundPolicy(this.ctx.config));
      return true;
    } catch (error) {
      if (!(error instanceof BlockedUrlError)) throw error;
      this.ctx.logger.error(
        { url: server.baseUrl },
        `Local AI: ${server.name} has a private address that provider calls refuse: set AI_TRUSTED_HOSTS=${error.host} (or AI_ALLOW_PRIVATE_URLS=true) on prompt, chat and the transcription workers; nothing registered`,
      );
      return false;
    }
  }

  private register(servers: LocalServer[]): Promise<boolean> {
    return this.ctx.transact(async (tx, emit) => {
      if (await anyProviderLocked(tx)) return false;
      for (const server of servers) {
        const provider = await insertProvider(tx, {
          name: server.name,
          kind: 'openai-compatible',
          baseUrl: server.baseUrl,
          enabled: true,
          apiKeySealed: null,
          apiKeyLast4: null,
        });
        emit({
          type: 'ai_provider.created',
          companyId: null,
          actor: SYSTEM_ACTOR,
          data: { id: provider.id, before: null, after: toProviderState(provider) },
        });
        const model = await insertModel(tx, {
          providerId: provider.id,
          name: server.model,
          label: server.model,
          purpose: server.purpose,
          isDefault: true,
          contextSize: null,
          enabled: true,
        });
        emit({
          type: 'ai_model.created',
          companyId: null,
          actor: SYSTEM_ACTOR,
          data: {
            id: model.id,
            before: null,
            after: toModelState(model),
            prices: server.prices.map((unit) => ({ unit, credits: 0 })),
          },
        });
      }
      return true;
    });
  }

  /** Tries `fn` until it succeeds (true), is refused for good or LOCAL_AI_ATTEMPTS run out (false, logged), or is stopped (throws). */
  private async retry(what: string, fn: () => Promise<void>): Promise<boolean> {
    const { LOCAL_AI_ATTEMPTS: attempts, LOCAL_AI_RETRY_MS: first } = this.ctx.config;
    let wait = first;
    for (let attempt = 1; ; attempt += 1) {
      try {
        await fn();
        return true;
      } catch (error) {
        if (this.abort.signal.aborted) throw error;
        const reason = (error as Error).message || String(error);
        if (error instanceof Refused || attempt >= attempts) {
          this.ctx.logger.error({ attempt, reason }, `Local AI: ${what}: giving up`);
          return false;
        }
        // The first miss is worth a line (the server is starting); the rest only while debugging.
        this.ctx.logger[attempt === 1 ? 'info' : 'debug'](
          { attempt, reason },
          `Local AI: ${what}: not yet, trying again in ${wait} ms`,
        );
      }
      await delay(wait, undefined, { signal: this.abort.signal });
      wait = Math.min(wait * 2, MAX_WAIT_MS);
    }
  }
}

// Each process's registration, for its stop hook and for tests that wait for it to settle.
const registrations = new WeakMap<Database, LocalAiRegistration>();

export function startLocalAi(ctx: ServiceContext<PromptConfig>): void {
  if (localServers(ctx.config).length > 0) registrations.set(ctx.database, new LocalAiRegistration(ctx));
}

export function localAi(database: Database): LocalAiRegistration | undefined {
  return registrations.get(database);
}
