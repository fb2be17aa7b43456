import { CompanyTypeProjection } from '@earshot/kit';

/** Which companies are b2c (each member's transcripts private to them): kept from company events. */
export const companyTypes = new CompanyTypeProjection('transcription');
