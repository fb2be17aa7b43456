import { CompanyTypeProjection } from '@earshot/kit';

/** Which companies are b2c (each member's recordings, and so their tasks, private to them): kept from company events. */
export const companyTypes = new CompanyTypeProjection('tasks');
