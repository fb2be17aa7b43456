import type { CompanyQueueDto } from '@earshot/contracts';
import { badRequest, companyScope, type Identity, type ServiceContext } from '@earshot/kit';
import type { TranscriptionConfig } from '../config';
import * as jobsRepo from '../repositories/jobs';

/**
 * Where a company's recordings stand in the shared transcription queue, for its ADMIN: the
 * company's cap, what runs and waits, and each waiting recording's place in the company's line.
 * Workers take companies in turn, so the company's own line is what decides when a file starts.
 */
export class QueuePositionService {
  constructor(private readonly ctx: ServiceContext<TranscriptionConfig>) {}

  async ofCompany(identity: Identity, input: { companyId?: string }): Promise<CompanyQueueDto> {
    const companyId = companyScope(identity, input.companyId);
    if (companyId === null) throw badRequest('Name the company whose queue to show', { field: 'query.companyId' });
    const queue = await jobsRepo.companyQueue(this.ctx.db, companyId, jobsRepo.STATUS_LIST_LIMIT);
    const pending =
      queue.pending.length < jobsRepo.STATUS_LIST_LIMIT
        ? queue.pending.length
        : await jobsRepo.countPending(this.ctx.db, companyId);
    return {
      companyId,
      cap: this.ctx.config.TRANSCRIPTION_COMPANY_CONCURRENCY,
      running: queue.running,
      pending,
      items: queue.pending.map((p) => ({ ...p, nextAttemptAt: p.nextAttemptAt.toISOString() })),
    };
  }
}
