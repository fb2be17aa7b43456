import { RetentionProjection } from '@earshot/kit';

/**
 * Retention policies and the holds of clients and companies, from the tenant's events (the file
 * service's own holds are `files.held`). Migration and handlers join the service's.
 */
export const retention = new RetentionProjection('file', ['client', 'company']);
