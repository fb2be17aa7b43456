import { RetentionJob, RetentionProjection, type ServiceContext } from '@earshot/kit';
import { AuditChain } from './chain-log';
import { chainKeyOf } from './chain';

/** Retention policies and company holds, from the tenant's events; migration and handlers join the service's. */
export const retention = new RetentionProjection('audit', ['company']);

/**
 * The daily audit retention: each company with `auditDays` set (at least 365, PCI DSS
 * 10.5.1) loses the entries at the start of its chain that happened before the cut-off, verified
 * before they go; the kept chain starts from the recorded base (README "Retention"). Nothing of a
 * held company goes, and the platform's own chain is never cut.
 */
export function auditRetention(ctx: ServiceContext): RetentionJob {
  const chain = new AuditChain(ctx.db);
  return new RetentionJob(ctx, retention, {
    kind: 'entries',
    field: 'auditDays',
    service: 'audit',
    batch: 5000,
    async removeDue(tx, _emit, companyId, olderThan, limit) {
      const { removed, broken } = await chain.prune(tx, chainKeyOf(companyId), olderThan, limit);
      if (broken)
        ctx.logger.error({ companyId, broken }, 'audit retention left a broken stretch of the chain in place');
      return removed;
    },
  });
}
