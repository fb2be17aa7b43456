/**
 * A stand-alone transcription worker (distributed mode): `npm run worker -w services/transcription`.
 * It serves no API, only /health and /ready on PORT for probes. It claims jobs from the shared
 * jobs table (many workers are safe: SKIP LOCKED claims, leases with heartbeats, lease-checked
 * results), publishes its status events through the outbox relay, and joins the `transcription`
 * consumer group, so file.uploaded events (Kafka) become jobs even while the API service is down.
 */
import { providerKeysFor } from '@earshot/ai';
import { defineService, runStandalone } from '@earshot/kit';
import type { TranscriptionConfig } from './config';
import { assertAudioKeysReachable } from './services/audio-encryption';
import { transcriptionService } from './index';

// Whatever the environment says, this process exists to work.
process.env.TRANSCRIPTION_WORKER = 'true';

await runStandalone(
  defineService<TranscriptionConfig>({
    ...transcriptionService,
    name: 'transcription-worker',
    prefixes: [],
    async routes() {},
    // No API, so no credit check to make: the API service's start-up check of the way to the billing
    // service would refuse a worker, which compose and k8s (rightly) do not give BILLING_SERVICE_URL.
    internalRoutes: undefined,
    async start(ctx) {
      // Refuses to start, clearly, without a way to ask the prompt service for provider keys, or the
      // file service for the audio keys of companies with encryption on.
      providerKeysFor(ctx.database, ctx.config);
      assertAudioKeysReachable(ctx);
      await transcriptionService.start?.(ctx);
    },
  }),
);
