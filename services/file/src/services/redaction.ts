import { RedactionModeProjection, type Db } from '@earshot/kit';
import { redactText } from '@earshot/redaction';

/** Each company's redaction mode (company.policies_changed): with it on, tags are redacted before they are stored. */
export const redactionModes = new RedactionModeProjection('file');

/**
 * Tags as they may be stored under the company's policy: with redaction on, what the detectors
 * find in a tag becomes its label, lower-cased like every tag ("card:[card number]"), so a number
 * cannot be kept as a tag nor a label renamed back into one. `redacted`: the spans hidden, which
 * the person is told of.
 */
export async function redactedTags(
  db: Db,
  companyId: string,
  tags: readonly string[],
): Promise<{ tags: string[]; redacted: number }> {
  if (!(await redactionModes.redacts(db, companyId))) return { tags: [...tags], redacted: 0 };
  let redacted = 0;
  const out = tags.map((tag) => {
    const hidden = redactText(tag);
    redacted += hidden.count;
    return hidden.count ? hidden.text.toLowerCase() : tag;
  });
  return { tags: out, redacted };
}
