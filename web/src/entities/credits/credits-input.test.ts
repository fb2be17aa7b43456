import { describe, expect, it } from '@jest/globals';
import { CREDIT_DECIMALS } from '@earshot/contracts/constants';
import { creditsText, optionalPositiveCreditsText } from './credits-input';

const issue = (result: { success: boolean; error?: { issues: Array<{ message: string }> } }) =>
  result.success ? null : result.error?.issues[0]?.message;

describe('credits typed into a form', () => {
  it('takes zero or more credits with up to CREDIT_DECIMALS decimals, trimmed', () => {
    const rule = creditsText('creditsInvalid');
    const most = `1.${'5'.repeat(CREDIT_DECIMALS)}`;
    expect(rule.safeParse(` ${most} `)).toEqual({ success: true, data: Number(most) });
    expect(rule.safeParse('0')).toEqual({ success: true, data: 0 });
    for (const bad of [`${most}1`, '-1', '1.', '.5', '1e3', '', '1234567890123'])
      expect(issue(rule.safeParse(bad))).toBe('creditsInvalid');
  });

  it('signed and non-zero: a grant or an adjustment, never 0', () => {
    const rule = creditsText('amountInvalid', { signed: true, nonZero: true });
    expect(rule.safeParse('-12.5')).toEqual({ success: true, data: -12.5 });
    expect(rule.safeParse('40')).toEqual({ success: true, data: 40 });
    for (const bad of ['0', '-0.0000', '1.23456', '--1', 'abc'])
      expect(issue(rule.safeParse(bad))).toBe('amountInvalid');
  });

  it('optional and positive: blank is none, else more than 0', () => {
    const rule = optionalPositiveCreditsText('invalid');
    expect(rule.safeParse('  ')).toEqual({ success: true, data: null });
    expect(rule.safeParse('250.0001')).toEqual({ success: true, data: 250.0001 });
    for (const bad of ['0', '0.0000', '-5', '1.23456', 'ten']) expect(issue(rule.safeParse(bad))).toBe('invalid');
  });
});
