import { CREDIT_CODES } from '@earshot/contracts';
import { creditRefusal, type CreditGate, type ServiceContext, type SpendRequest } from '@earshot/kit';
import * as repo from '../../repositories/credits';
import * as pricing from '../../repositories/pricing';
import { monthOf, toUnits } from './amounts';

/**
 * The answer to "may this work start?" (the kit's CreditGate), asked by the chat, prompt, file and
 * transcription services before any provider call: in-process in all-in-one, over
 * POST /internal/credits/check otherwise. Refused, in this order, when the company has nothing left
 * to spend (balance ≤ 0, or this month's spend has reached its monthly budget: the budget mail says
 * new work stops), when the person's spend this month has reached their cap, and when the model or
 * engine has no price in force. The built-in search assistant is free and never asks.
 */
export class CreditGateService implements CreditGate {
  constructor(private readonly ctx: ServiceContext) {}

  async assertCanSpend(request: SpendRequest): Promise<void> {
    const { db } = this.ctx;
    const now = new Date();
    const ref = pricing.priceRefOf(request.modelId, request.engine);
    const [state, priced] = await Promise.all([
      repo.spendingState(db, request.companyId, request.userId, monthOf(now)),
      ref ? pricing.hasPriceAt(db, ref, now) : true,
    ]);
    const reached = (spent: number, limit: number | null) => limit !== null && toUnits(spent) >= toUnits(limit);
    if (!state || toUnits(state.balance) <= 0 || reached(state.companySpent, state.monthlyBudget))
      throw creditRefusal(CREDIT_CODES.CREDITS_EXHAUSTED);
    if (request.userId && reached(state.userSpent, state.cap)) throw creditRefusal(CREDIT_CODES.USER_CAP_REACHED);
    if (!priced) throw creditRefusal(CREDIT_CODES.MODEL_NOT_PRICED);
  }
}
