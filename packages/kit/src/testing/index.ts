import type { Database } from '../db/database';
import type { CreditCode } from '@earshot/contracts';
import { creditRefusal, serveCreditGateInProcess, type CreditGate, type SpendRequest } from '../credits';
export { createThrowawayDatabase, openTestDatabase, openThrowawayDatabase } from './database';
export { TEST_JWT_SECRET, TEST_SECRETS_KEY } from './secrets';

/** Collects Set-Cookie values of an inject() response into a Cookie header. */
export function cookieHeader(setCookie: string | string[] | undefined, previous = ''): string {
  const jar = new Map<string, string>();
  for (const part of previous
    .split(';')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [k, ...v] = part.split('=');
    jar.set(k!, v.join('='));
  }
  const list = setCookie === undefined ? [] : Array.isArray(setCookie) ? setCookie : [setCookie];
  for (const cookie of list) {
    const [pair, ...attrs] = cookie.split(';');
    const [k, ...v] = pair!.trim().split('=');
    const expired = attrs.some((a) => /max-age=0/i.test(a.trim()));
    if (expired) jar.delete(k!);
    else jar.set(k!, v.join('='));
  }
  return [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
}
export { createTestStack, type TestStack } from './stack';
export { testSigningKeyPem, testSigningKeys } from './keys';
export { serviceProcesses, type ServiceProcess } from './processes';
export { multipart } from './multipart';
export { withoutEncryptionPassTimer } from './encryption-pass';

/**
 * For a test stack that mounts no billing service (which keeps credits): every credit check passes,
 * so tests of other behaviour can call models and upload. Tests of the refusals serve a gate whose
 * answers they choose, with serveCreditGateInProcess on the stack's database.
 */
export function serveUnmeteredCredits(database: Database): void {
  serveCreditGateInProcess(database, { async assertCanSpend() {} });
}

/**
 * A credit gate whose answer the test sets: the seam the billing service serves its own gate
 * through (serveCreditGateInProcess), for stacks that do not mount it. It records every request.
 */
export class ScriptedCreditGate implements CreditGate {
  /** The refusal every check answers with; null lets the work start. */
  refusal: CreditCode | null = null;
  readonly asked: SpendRequest[] = [];

  async assertCanSpend(request: SpendRequest): Promise<void> {
    this.asked.push(request);
    if (this.refusal) throw creditRefusal(this.refusal);
  }

  /** Lets everything start again and forgets what was asked (between tests). */
  reset(): void {
    this.refusal = null;
    this.asked.length = 0;
  }
}
export { startKafkaMock, type KafkaMock } from './kafka-mock';
export {
  startOtlpReceiver,
  traceToReceiver,
  type OtlpReceiver,
  type ReceivedSpan,
  type ReceivedRequest,
} from './otlp-receiver';
