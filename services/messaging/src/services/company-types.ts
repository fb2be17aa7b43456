import { CompanyTypeProjection } from '@earshot/kit';

/** Which companies are b2c (each member's tasks private to them, so a mention tells no one): kept from company events. */
export const companyTypes = new CompanyTypeProjection('messaging');
