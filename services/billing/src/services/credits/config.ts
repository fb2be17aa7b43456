import { z } from 'zod';

/**
 * Credit settings of the billing service. A new company starts with COMPANY_OPENING_CREDITS granted
 * (reason "Opening credits"), so a company that was just set up, and the embedded default's demo
 * company, can transcribe and chat before anyone has thought about credits; 0 starts it empty,
 * and then no AI work runs until the platform administrator grants some.
 */
export const creditsConfigShape = {
  COMPANY_OPENING_CREDITS: z.coerce.number().min(0).max(1_000_000_000).default(1000),
};

export interface CreditsConfig {
  COMPANY_OPENING_CREDITS: number;
}

export const OPENING_CREDITS_REASON = 'Opening credits';
