import type { Envelope, EventOf } from '@earshot/contracts';
import { on, onBatch, type Db, type HandlerSpec } from '@earshot/kit';
import * as pricing from '../../repositories/pricing';
import type { CreditService, Usage } from './credits';

/*
 * Charging is driven by the usage events other services emit, each applied once (the kit's
 * applied-events ledger, and the credit ledger's own key on the event id): a redelivered event
 * charges nothing more. The price is the one in force when the work happened (occurredAt).
 */

/** The person an event's work was for; null for a company's API key or the system. */
const personOf = (event: Pick<Envelope, 'actor'>): string | null =>
  event.actor.type === 'user' ? event.actor.id : null;

/** The name reports show: the configured model's label (else its id), or the engine's name. */
async function nameOf(tx: Db, modelId: string | null | undefined, engine?: string | null): Promise<string | null> {
  if (modelId) return (await pricing.modelNames(tx, [modelId])).get(modelId) ?? modelId;
  return engine ?? null;
}

type Metered = 'chat_reply.finished' | 'analysis.completed' | 'analysis.failed' | 'embeddings.used';

/**
 * A usage event's handler, taking the events that arrive together (onBatch): a busy company's
 * charges go into its ledger a batch per transaction rather than one each, so its account row is
 * locked and its spend moved once per batch. Charges commute, so batching them is safe.
 */
function metered<T extends Metered>(
  type: T,
  credits: CreditService,
  usageOf: (events: EventOf<T>[], tx: Db) => Promise<Usage[]>,
) {
  return onBatch(type, async (events, tx, emit) => {
    const usages = await usageOf(
      events.filter((e) => e.companyId),
      tx,
    );
    if (usages.length) await credits.charge(tx, emit, usages);
  });
}

export function meteringHandlers(credits: CreditService): HandlerSpec[] {
  const analysis = async (events: EventOf<'analysis.completed' | 'analysis.failed'>[]) =>
    events.map((event) => ({
      companyId: event.companyId!,
      eventId: event.id,
      occurredAt: new Date(event.occurredAt),
      feature: 'analysis' as const,
      userId: event.data.userId ?? personOf(event),
      model: event.data.model ?? event.data.modelId ?? null,
      ref: pricing.priceRefOf(event.data.modelId),
      quantities: [
        { unit: 'input_1k' as const, quantity: event.data.usage.inputTokens },
        { unit: 'output_1k' as const, quantity: event.data.usage.outputTokens },
      ],
    }));
  return [
    // A reply of a configured model (the built-in search assistant is free); a custom GPT's reply is metered as that feature.
    metered('chat_reply.finished', credits, async (events) =>
      events.flatMap(({ id, companyId, occurredAt, actor, data }) =>
        data.builtIn || !data.usage
          ? []
          : [
              {
                companyId: companyId!,
                eventId: id,
                occurredAt: new Date(occurredAt),
                feature: data.customGptId ? ('custom_gpt' as const) : ('chat' as const),
                userId: personOf({ actor }),
                model: data.model,
                ref: pricing.priceRefOf(data.modelId),
                quantities: [
                  { unit: 'input_1k' as const, quantity: data.usage.promptTokens },
                  { unit: 'output_1k' as const, quantity: data.usage.completionTokens },
                ],
              },
            ],
      ),
    ),
    // A failed run is charged for the tokens it used too.
    metered('analysis.completed', credits, analysis),
    metered('analysis.failed', credits, analysis),
    metered('embeddings.used', credits, async (events, tx) => {
      const names = await pricing.modelNames(
        tx,
        events.map((e) => e.data.modelId),
      );
      return events.map((event) => ({
        companyId: event.companyId!,
        eventId: event.id,
        occurredAt: new Date(event.occurredAt),
        feature: 'embeddings' as const,
        userId: personOf(event),
        model: names.get(event.data.modelId) ?? event.data.modelId,
        ref: pricing.priceRefOf(event.data.modelId),
        quantities: [{ unit: 'embedding_1k' as const, quantity: event.data.tokens }],
      }));
    }),
    // Queued with an estimate: reserve it. Failed: give it back.
    on('transcript.status_changed', async (event, tx) => {
      const { data } = event;
      if (!event.companyId) return;
      if (data.status === 'failed') return credits.release(tx, event.companyId, data.fileId, event.id);
      if (data.estimatedSeconds === undefined) return;
      await credits.reserve(tx, {
        companyId: event.companyId,
        eventId: event.id,
        occurredAt: new Date(event.occurredAt),
        feature: 'transcription',
        userId: personOf(event),
        model: await nameOf(tx, data.modelId, data.engine),
        ref: pricing.priceRefOf(data.modelId, data.engine),
        subject: data.fileId,
        seconds: data.estimatedSeconds,
      });
    }),
    // Done: charge the real seconds and release the reservation.
    on('transcript.completed', async (event, tx, emit) => {
      const { data } = event;
      if (!event.companyId) return;
      await credits.settle(tx, emit, {
        companyId: event.companyId,
        eventId: event.id,
        occurredAt: new Date(event.occurredAt),
        feature: 'transcription',
        userId: personOf(event),
        model: await nameOf(tx, data.modelId, data.engine),
        ref: pricing.priceRefOf(data.modelId, data.engine),
        subject: data.fileId,
        quantities: [{ unit: 'audio_minute', quantity: data.duration }],
      });
    }),
    // Work removed before it finished gives its reservation back.
    on('transcript.deleted', async (event, tx) => {
      if (event.companyId) await credits.release(tx, event.companyId, event.data.fileId, event.id);
    }),
    on('file.deleted', async (event, tx) => {
      if (event.companyId) await credits.release(tx, event.companyId, event.data.id, event.id);
    }),
  ];
}
