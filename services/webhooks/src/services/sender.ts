import { BlockedUrlError, checkUrl, checkUrlLiteral, guardedAgent, type OutboundPolicy } from '@earshot/ai';
import { fetch as undiciFetch, type Agent } from 'undici';
import type { AttemptOutcome } from '../repositories/deliveries';

/** The longest a receiver may take to answer (headers and the bytes read of its body). */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** At most this much of an answer is read; the rest is dropped unread. */
export const RESPONSE_READ_BYTES = 4096;
/** The part of an answer kept in the delivery log. */
const EXCERPT_CHARS = 500;

export const URL_MESSAGES = {
  blocked: 'link-local, metadata and reserved addresses are never allowed',
  private: 'private and loopback addresses are refused unless WEBHOOK_ALLOW_PRIVATE_URLS=true',
  scheme: 'must be an http or https URL',
  redirects: 'redirects are not followed',
  unresolved: 'the host name does not resolve',
} as const;

/** Why an address is refused, in the words of the 400 (or of the delivery log). */
export function refusal(error: unknown): string | null {
  if (error instanceof BlockedUrlError) return URL_MESSAGES[error.reason];
  const code = (error as { code?: string } | undefined)?.code;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return URL_MESSAGES.unresolved;
  return null;
}

/** Checks an address when it is saved: its scheme and every address its host resolves to. */
export async function checkEndpointUrl(url: string, policy: OutboundPolicy): Promise<string | null> {
  try {
    await checkUrl(url, policy);
    return null;
  } catch (error) {
    const reason = refusal(error);
    if (reason) return reason;
    throw error;
  }
}

/** Reads at most `limit` bytes of a body and drops the rest, so a huge answer never grows memory. */
async function readSome(body: ReadableStream<Uint8Array> | null, limit: number): Promise<Buffer> {
  if (!body) return Buffer.alloc(0);
  const reader = body.getReader();
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    while (size < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(Buffer.from(value));
      size += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks).subarray(0, limit);
}

/**
 * Sends webhook POSTs. Every connection checks the addresses its host resolves to (at every
 * delivery, not only when the endpoint was saved), redirects are answered as they are (a 3xx is a
 * failed attempt), and one attempt never holds a worker beyond DELIVERY_TIMEOUT_MS.
 */
export class Sender {
  private readonly agent: Agent;

  constructor(
    private readonly policy: OutboundPolicy,
    private readonly timeoutMs = DELIVERY_TIMEOUT_MS,
  ) {
    this.agent = guardedAgent(policy, { headersTimeout: timeoutMs, bodyTimeout: timeoutMs, connectTimeout: timeoutMs });
  }

  async post(url: string, headers: Record<string, string>, body: string): Promise<AttemptOutcome & { ok: boolean }> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const signal = AbortSignal.timeout(this.timeoutMs);
    try {
      checkUrlLiteral(new URL(url), this.policy);
      const response = await undiciFetch(url, {
        method: 'POST',
        headers: { ...headers, 'user-agent': 'Earshot-Webhooks/1' },
        body,
        redirect: 'manual',
        signal,
        dispatcher: this.agent,
      });
      const text = (await readSome(response.body as ReadableStream<Uint8Array> | null, RESPONSE_READ_BYTES)).toString(
        'utf8',
      );
      const ok = response.status >= 200 && response.status < 300;
      return {
        ok,
        statusCode: response.status,
        error: ok ? null : response.status >= 300 && response.status < 400 ? URL_MESSAGES.redirects : null,
        durationMs: elapsed(),
        excerpt: text ? text.slice(0, EXCERPT_CHARS) : null,
      };
    } catch (error) {
      const cause = (error as { cause?: unknown } | undefined)?.cause;
      const refused = refusal(error) ?? refusal(cause);
      const message = signal.aborted
        ? `no answer within ${this.timeoutMs / 1000} s`
        : (refused ??
          (cause instanceof Error ? cause.message : String((error as Error | undefined)?.message ?? error)));
      return { ok: false, statusCode: null, error: message.slice(0, 500), durationMs: elapsed(), excerpt: null };
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}
