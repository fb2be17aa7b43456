import { RedactionModeProjection } from '@earshot/kit';

/** Each company's redaction mode (company.policies_changed): with it on, titles and descriptions are redacted before they are stored. */
export const redactionModes = new RedactionModeProjection('tasks');
