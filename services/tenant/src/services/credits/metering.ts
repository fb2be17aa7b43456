import type { Envelope, EventOf } from '@earshot/contracts';
import { on, type Db, type HandlerSpec } from '@earshot/kit';
import * as pricing from '../../repositories/pricing';
import type { CreditService } from './credits';

/*
 * Charging is driven by the usage events other services emit, each applied once (the kit's
 * applied-events ledger, and the credit ledger's own key on the event id): a redelivered event
 * charges nothing more. The price is the one in force when the work happened (occurredAt).
 */

/** The person an event's work was for; null for a company's API key or the system. */
const personOf = (event: Pick<Envelope, 'actor'>): string | null => (event.actor.type === 'user' ? event.actor.id : null);

const modelRef = (modelId: string | null | undefined): pricing.PriceRef | null => (modelId ? { modelId } : null);

/** The speech-to-text price: the configured model's when a provider transcribed, else the engine's. */
const speechRef = (modelId: string | null | undefined, engine: string | null | undefined): pricing.PriceRef | null =>
  modelId ? { modelId } : engine ? { engine: engine.toLowerCase() } : null;

/** The name reports show: the configured model's label (else its id), or the engine's name. */
async function nameOf(tx: Db, modelId: string | null | undefined, engine?: string | null): Promise<string | null> {
  if (modelId) return (await pricing.modelNames(tx, [modelId])).get(modelId) ?? modelId;
  return engine ?? null;
}

export function meteringHandlers(credits: CreditService, wake: () => void): HandlerSpec[] {
  const opts = { afterCommit: wake };
  const analysis = (event: EventOf<'analysis.completed' | 'analysis.failed'>) => ({
    companyId: event.companyId!, eventId: event.id, occurredAt: new Date(event.occurredAt), feature: 'analysis' as const,
    userId: event.data.userId ?? personOf(event), model: event.data.model ?? event.data.modelId ?? null, ref: modelRef(event.data.modelId),
    quantities: [{ unit: 'input_1k' as const, quantity: event.data.usage.inputTokens }, { unit: 'output_1k' as const, quantity: event.data.usage.outputTokens }],
  });
  return [
    // A reply of a configured model (the built-in search assistant is free); a custom GPT's reply is metered as that feature.
    on('chat_reply.finished', async (event, tx, emit) => {
      const { data } = event;
      if (!event.companyId || data.builtIn || !data.usage) return;
      await credits.charge(tx, emit, {
        companyId: event.companyId, eventId: event.id, occurredAt: new Date(event.occurredAt), feature: data.customGptId ? 'custom_gpt' : 'chat',
        userId: personOf(event), model: data.model, ref: modelRef(data.modelId),
        quantities: [{ unit: 'input_1k', quantity: data.usage.promptTokens }, { unit: 'output_1k', quantity: data.usage.completionTokens }],
      });
    }, opts),
    // A failed run is charged for the tokens it used too.
    on('analysis.completed', async (event, tx, emit) => { if (event.companyId) await credits.charge(tx, emit, analysis(event)); }, opts),
    on('analysis.failed', async (event, tx, emit) => { if (event.companyId) await credits.charge(tx, emit, analysis(event)); }, opts),
    on('embeddings.used', async (event, tx, emit) => {
      if (!event.companyId) return;
      await credits.charge(tx, emit, {
        companyId: event.companyId, eventId: event.id, occurredAt: new Date(event.occurredAt), feature: 'embeddings', userId: personOf(event),
        model: await nameOf(tx, event.data.modelId), ref: modelRef(event.data.modelId),
        quantities: [{ unit: 'embedding_1k', quantity: event.data.tokens }],
      });
    }, opts),
    // Queued with an estimate: reserve it. Failed: give it back.
    on('transcript.status_changed', async (event, tx) => {
      const { data } = event;
      if (!event.companyId) return;
      if (data.status === 'failed') return credits.release(tx, event.companyId, data.fileId, event.id);
      if (data.estimatedSeconds === undefined) return;
      await credits.reserve(tx, {
        companyId: event.companyId, eventId: event.id, occurredAt: new Date(event.occurredAt), feature: 'transcription', userId: personOf(event),
        model: await nameOf(tx, data.modelId, data.engine), ref: speechRef(data.modelId, data.engine), subject: data.fileId, seconds: data.estimatedSeconds,
      });
    }),
    // Done: charge the real seconds and release the reservation.
    on('transcript.completed', async (event, tx, emit) => {
      const { data } = event;
      if (!event.companyId) return;
      await credits.settle(tx, emit, {
        companyId: event.companyId, eventId: event.id, occurredAt: new Date(event.occurredAt), feature: 'transcription', userId: personOf(event),
        model: await nameOf(tx, data.modelId, data.engine), ref: speechRef(data.modelId, data.engine), subject: data.fileId,
        quantities: [{ unit: 'audio_minute', quantity: data.duration }],
      });
    }, opts),
    // Work removed before it finished gives its reservation back.
    on('transcript.deleted', async (event, tx) => { if (event.companyId) await credits.release(tx, event.companyId, event.data.fileId, event.id); }),
    on('file.deleted', async (event, tx) => { if (event.companyId) await credits.release(tx, event.companyId, event.data.id, event.id); }),
  ];
}
