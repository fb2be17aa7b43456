import { providerKeysFor } from '@earshot/ai';
import { defineService } from '@earshot/kit';
import type { TranscriptionConfig } from './config';
import { assertAudioKeysReachable } from './services/audio-encryption';
import { transcriptionService } from './index';

/**
 * The stand-alone worker's module: the transcription service without its API. Its name is its
 * consumer group's (`transcription-worker`), the group whose lag KEDA reads (k8s/transcription-worker-scaler.yaml).
 */
export const transcriptionWorkerService = defineService<TranscriptionConfig>({
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
});
