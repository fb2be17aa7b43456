// The page's local shapes (model.ts) must stay the server's: compared with the contracts at type
// level (tsc runs over the tests), so the contracts' zod stays out of the bundle.
import { describe, expect, it } from '@jest/globals';
import type { AiModelDto, AiProviderDto, ConnectionTestResult as ContractTestResult, UpdateAiModelBody, UpdateAiProviderBody } from '@earshot/contracts';
import type { AiModel, AiProvider, ConnectionTestResult, ModelBody, ProviderBody } from './model';

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Every body the page sends is one the server takes. */
type Accepted<A, B> = [A] extends [B] ? true : false;

const same: Array<true> = [
  true satisfies Same<AiProvider, AiProviderDto>,
  true satisfies Same<AiModel, AiModelDto>,
  true satisfies Same<ConnectionTestResult, ContractTestResult>,
  true satisfies Accepted<ProviderBody, UpdateAiProviderBody>,
  true satisfies Accepted<ModelBody, UpdateAiModelBody>,
];

describe('AI configuration shapes', () => {
  it('match the prompt contract (checked by tsc)', () => {
    expect(same.every(Boolean)).toBe(true);
  });
});
