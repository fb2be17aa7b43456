import type { Db } from '@earshot/kit';
import { diarizationModels } from '../models/store';
import type { PipelineDeps } from '../services/pipeline';
import { DiarizerHost, type DiarizerOptions } from './host';

/**
 * The worker's speaker diarization: the two diarization models when both are downloaded and
 * checked (asked per job, so a download applies to the next job), run by one reused diarizer.
 */
export function diarization(
  db: Db,
  options: DiarizerOptions,
): { diarize: NonNullable<PipelineDeps['diarize']>; close: () => Promise<void> } {
  const host = new DiarizerHost(options);
  return {
    async diarize(wavPath, speakers, signal) {
      const models = await diarizationModels(db);
      return models ? host.diarize(models, wavPath, speakers, signal) : null;
    },
    close: () => host.close(),
  };
}
