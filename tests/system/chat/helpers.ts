import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import {
  eventDefinition,
  textParts,
  type Actor,
  type Envelope,
  type MessageDto,
  type TranscriptSegmentFact,
} from '@earshot/contracts';
import { startFakeOpenAI, type FakeOpenAI } from '@earshot/ai/testing';
import { buildEnvelope, serveCreditGateInProcess, type CreditGate } from '@earshot/kit';
import { createTestStack, serveUnmeteredCredits, type TestStack } from '@earshot/kit/testing';
import { promptService } from '@earshot/prompt-service';
import { chatService } from '@earshot/chat-service';

const system: Actor = { type: 'system', id: null };

/**
 * The prompt and chat services with the kit's fake OpenAI-compatible provider (on 127.0.0.1: a
 * loopback address providers may use only when allowed), listening on a real port for streams.
 * No tenant service here: `credits` is the gate served in its place (default: nothing is metered).
 */
export async function stackWithFakeProvider(
  credits?: CreditGate,
  config: Record<string, string> = {},
): Promise<{ stack: TestStack; fake: FakeOpenAI; base: string; close(): Promise<void> }> {
  const fake = await startFakeOpenAI();
  const stack = await createTestStack([promptService, chatService], {
    AI_ALLOW_PRIVATE_URLS: 'true',
    AI_TIMEOUT_MS: '10000',
    ...config,
  });
  if (credits) serveCreditGateInProcess(stack.database, credits);
  else serveUnmeteredCredits(stack.database);
  const base = await listen(stack);
  return {
    stack,
    fake,
    base,
    async close() {
      await stack.close();
      await fake.close();
    },
  };
}

export async function publish(stack: TestStack, ...envelopes: Envelope[]): Promise<void> {
  await stack.bus.publish(
    envelopes.map((envelope) => ({
      topic: eventDefinition(envelope.type).topic,
      key: envelope.companyId ?? 'platform',
      envelope,
    })),
  );
  await stack.settle();
}

/** A completed transcript as the transcription service announces it: transcript.completed, then its text in parts. */
export function transcriptCompleted(
  companyId: string,
  fileId: string,
  fileName: string,
  segments: Omit<TranscriptSegmentFact, 'segmentId'>[],
): Envelope[] {
  const id = randomUUID();
  const parts = textParts(segments.map((s, i) => ({ segmentId: `s-${i}`, ...s })));
  return [
    buildEnvelope({
      type: 'transcript.completed',
      companyId,
      actor: system,
      data: {
        id,
        fileId,
        fileName,
        engine: 'test',
        duration: segments.at(-1)?.end ?? 0,
        speakers: 2,
        words: segments.reduce((n, s) => n + s.text.split(' ').length, 0),
        parts: parts.length,
      },
    }),
    ...parts.map((part, i) =>
      buildEnvelope({
        type: 'transcript.text_published',
        companyId,
        actor: system,
        data: { id, fileId, fileName, part: i, parts: parts.length, segments: part },
      }),
    ),
  ];
}

/**
 * Configures a chat model as the platform administrator does, through the prompt service mounted
 * in the same stack (all-in-one): chat learns of it from the events and gets the key from it.
 */
export async function addChatModel(
  stack: TestStack,
  baseUrl: string,
  options: { apiKey?: string; isDefault?: boolean; enabled?: boolean; name?: string; contextSize?: number | null } = {},
) {
  const host = await stack.tokenFor('HOST_ADMIN', null);
  const created = await stack.as(host, {
    method: 'POST',
    url: '/api/ai/config/provider',
    payload: {
      name: `Fake ${randomUUID().slice(0, 8)}`,
      baseUrl,
      ...(options.apiKey ? { apiKey: options.apiKey } : {}),
    },
  });
  if (created.statusCode !== 201) throw new Error(`add provider: ${created.statusCode} ${created.body}`);
  const providerId = (created.json() as { _id: string })._id;
  const model = await stack.as(host, {
    method: 'POST',
    url: '/api/ai/config/model',
    payload: {
      providerId,
      name: options.name ?? 'fake-chat',
      label: options.name ?? 'Fake chat',
      purpose: 'chat',
      isDefault: options.isDefault ?? true,
      contextSize: options.contextSize ?? null,
      enabled: options.enabled ?? true,
    },
  });
  if (model.statusCode !== 201) throw new Error(`add model: ${model.statusCode} ${model.body}`);
  await stack.settle();
  return { providerId, modelId: (model.json() as { _id: string })._id };
}

export interface SseEvent {
  event: string;
  data: Record<string, unknown>;
}

function parseBlock(block: string): SseEvent | null {
  const event = /^event: (.*)$/m.exec(block)?.[1];
  const data = /^data: (.*)$/m.exec(block)?.[1];
  return event && data !== undefined ? { event, data: JSON.parse(data) as Record<string, unknown> } : null;
}

export async function listen(stack: TestStack): Promise<string> {
  await stack.app.listen({ host: '127.0.0.1', port: 0 });
  return `http://127.0.0.1:${(stack.app.server.address() as AddressInfo).port}`;
}

type OnEvent = (event: SseEvent, all: SseEvent[]) => boolean | void;
type Streamed = { status: number; contentType: string | null; events: SseEvent[]; json?: unknown };

/**
 * Posts to a conversation's stream route over real HTTP and reads the events as they arrive. `onEvent`
 * may return true to stop reading (the connection is closed then, as a browser's stop button does).
 */
export function streamReply(
  base: string,
  token: string,
  conversationId: string,
  body: Record<string, unknown>,
  onEvent?: OnEvent,
): Promise<Streamed> {
  return streamFrom(`${base}/api/chat/conversations/${conversationId}/chat/stream`, token, body, onEvent);
}

/** The same for a question about one recording (POST /chat/analysis-conversations/chat/stream). */
export function streamAbout(base: string, token: string, body: Record<string, unknown>): Promise<Streamed> {
  return streamFrom(`${base}/api/chat/analysis-conversations/chat/stream`, token, body);
}

async function streamFrom(
  url: string,
  token: string,
  body: Record<string, unknown>,
  onEvent?: OnEvent,
): Promise<Streamed> {
  const controller = new AbortController();
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      'x-requested-with': 'XMLHttpRequest',
    },
    body: JSON.stringify(body),
    signal: controller.signal,
  });
  const contentType = res.headers.get('content-type');
  if (!contentType?.startsWith('text/event-stream'))
    return { status: res.status, contentType, events: [], json: await res.json() };
  const events: SseEvent[] = [];
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let cut: number;
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const parsed = parseBlock(block);
        if (!parsed) continue;
        events.push(parsed);
        if (onEvent?.(events.at(-1)!, events)) {
          controller.abort();
          return { status: res.status, contentType, events };
        }
      }
    }
  } finally {
    reader.releaseLock();
  }
  return { status: res.status, contentType, events };
}

export const deltas = (events: SseEvent[]) =>
  events.filter((e) => e.event === 'delta').map((e) => e.data.text as string);

export async function createConversation(stack: TestStack, token: string, title?: string): Promise<string> {
  const res = await stack.as(token, {
    method: 'POST',
    url: '/api/chat/conversations',
    payload: title ? { title } : {},
  });
  if (res.statusCode !== 201) throw new Error(`create conversation: ${res.statusCode} ${res.body}`);
  return (res.json() as { _id: string })._id;
}

export async function messagesOf(stack: TestStack, token: string, conversationId: string): Promise<MessageDto[]> {
  const res = await stack.as(token, { method: 'GET', url: `/api/chat/conversations/${conversationId}/messages` });
  if (res.statusCode !== 200) throw new Error(`messages: ${res.statusCode} ${res.body}`);
  return (res.json() as { items: MessageDto[] }).items;
}

/** The SSE events of a stream answered through inject (no real socket): for quick checks. */
export function parseSse(body: string): SseEvent[] {
  return body
    .split('\n\n')
    .map(parseBlock)
    .filter((e): e is SseEvent => e !== null);
}

/** A company as the tenant service announces it: its type decides whether its members share recordings. */
export function companyCreated(companyId: string, type: 'enterprise' | 'b2c'): Envelope {
  return buildEnvelope({
    type: 'company.created',
    companyId,
    actor: system,
    data: {
      id: companyId,
      before: null,
      after: {
        name: type,
        code: type,
        domain: `d${companyId.slice(0, 8)}`,
        status: 'active',
        maxUsers: null,
        maxStorage: null,
        type,
      },
    },
  });
}

/** A recording as the file service announces it: who uploaded it. */
export function fileUploaded(companyId: string, fileId: string, uploadedBy: string): Envelope {
  return buildEnvelope({
    type: 'file.uploaded',
    companyId,
    actor: system,
    data: {
      id: fileId,
      storageKey: `${companyId}/${fileId}`,
      originalName: 'a.wav',
      mimeType: 'audio/wav',
      size: 1000,
      clientId: null,
      uploadedBy,
    },
  });
}
