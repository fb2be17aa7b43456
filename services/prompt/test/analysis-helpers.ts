import { randomUUID } from 'node:crypto';
import { eventDefinition, textParts, type Envelope, type TranscriptSegmentFact } from '@earshot/contracts';
import { buildEnvelope } from '@earshot/kit';
import type { TestStack } from '@earshot/kit/testing';
import { analysisQueue } from '../src';

const system = { type: 'system', id: null } as const;

/** Publishes events as their producers would, and waits until every consumer has them. */
export async function deliver(stack: TestStack, ...envelopes: Envelope[]): Promise<void> {
  await stack.bus.publish(
    envelopes.map((envelope) => ({
      topic: eventDefinition(envelope.type).topic,
      key: envelope.companyId ?? 'platform',
      envelope,
    })),
  );
  await stack.settle();
}

export type Line = Omit<TranscriptSegmentFact, 'segmentId'>;

/** A file uploaded, then its transcript completed with its text in parts (what transcription sends). */
export function recording(
  companyId: string,
  lines: Line[],
  options: { fileId?: string; duration?: number; clientId?: string | null; uploadedBy?: string } = {},
) {
  const fileId = options.fileId ?? randomUUID();
  const id = randomUUID();
  const fileName = 'call.wav';
  const parts = textParts(lines.map((s, i) => ({ segmentId: `s-${i}`, ...s })));
  const completed = buildEnvelope({
    type: 'transcript.completed',
    companyId,
    actor: system,
    data: {
      id,
      fileId,
      fileName,
      engine: 'test',
      duration: options.duration ?? lines.at(-1)?.end ?? 0,
      speakers: 2,
      words: 0,
      parts: parts.length,
    },
  });
  const envelopes: Envelope[] = [
    buildEnvelope({
      type: 'file.uploaded',
      companyId,
      actor: system,
      data: {
        id: fileId,
        storageKey: 'k',
        originalName: fileName,
        mimeType: 'audio/wav',
        size: 1,
        clientId: options.clientId ?? null,
        uploadedBy: options.uploadedBy ?? null,
      },
    }),
    completed,
    ...parts.map((part, i) =>
      buildEnvelope({
        type: 'transcript.text_published',
        companyId,
        actor: system,
        data: { id, fileId, fileName, part: i, parts: parts.length, segments: part },
      }),
    ),
  ];
  return { fileId, transcriptId: id, completed, envelopes };
}

/** A company as the tenant service announces it: in a b2c one, each member's files are private to them. */
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

/** Waits until the analysis queue has nothing left to do, then until its events are delivered. */
export async function runsDone(stack: TestStack): Promise<void> {
  await analysisQueue(stack.database)!.idle();
  await stack.settle();
}

/** A chat model of a provider at `baseUrl`, made the default, as the platform administrator adds one. */
export async function addChatModel(
  stack: TestStack,
  host: string,
  baseUrl: string,
  options: { contextSize?: number; name?: string } = {},
) {
  const provider = await stack.as(host, {
    method: 'POST',
    url: '/api/ai/config/provider',
    payload: { name: `Fake ${randomUUID().slice(0, 8)}`, baseUrl },
  });
  if (provider.statusCode !== 201) throw new Error(`provider: ${provider.body}`);
  const model = await stack.as(host, {
    method: 'POST',
    url: '/api/ai/config/model',
    payload: {
      providerId: provider.json()._id,
      name: options.name ?? 'fake-chat',
      label: 'Fake chat',
      purpose: 'chat',
      isDefault: true,
      contextSize: options.contextSize ?? null,
    },
  });
  if (model.statusCode !== 201) throw new Error(`model: ${model.body}`);
  return model.json() as { _id: string };
}
