import { RedactionModeProjection, type Db } from '@earshot/kit';
import { redactText } from '@earshot/redaction';

/** Each company's redaction mode (company.policies_changed): with it on, questions are redacted before they are stored or sent. */
export const redactionModes = new RedactionModeProjection('chat');

/**
 * A person's text as it may be stored and sent to an AI provider under their company's policy:
 * with redaction on, what the detectors find becomes its label (`count`: the spans hidden, which
 * the person is told of; `redacts`: whether the policy is on). A conversation of no company (the platform administrator's) is not redacted.
 */
export async function redactedForCompany(
  db: Db,
  companyId: string | null,
  text: string,
): Promise<{ text: string; count: number; redacts: boolean }> {
  if (!companyId || !(await redactionModes.redacts(db, companyId))) return { text, count: 0, redacts: false };
  return { ...redactText(text), redacts: true };
}

/**
 * Earlier messages of a conversation as they may be sent to a provider: with the company's redaction
 * on, each is read by the detectors again, so a message stored before redaction was turned on
 * reaches no provider with a number in it.
 */
export function redactedHistory<M extends { content: string }>(messages: readonly M[]): M[] {
  return messages.map((m) => {
    const hidden = redactText(m.content);
    return hidden.count ? { ...m, content: hidden.text } : m;
  });
}
