import type { Db } from '@earshot/kit';
import { findRedactionMode } from '../../repositories/redaction';
import { redactText } from '@earshot/redaction';
import { redactSegments } from '../../redaction';
import type { Change } from './ops';

/** A change as it may be stored under the company's policy, and how many spans redaction hid in it. */
export interface RedactedChange {
  change: Change;
  redacted: number;
}

/** The count that ends a find-and-replace summary ("3 times") is the edit's, not typed text. */
const REPLACE_COUNT = / \d+ times?$/;

/**
 * Digits left in a summary whose edit hid something: the summary quotes typed text cut to 40
 * characters, or one word of a number the detectors found across several, so a part of the
 * hidden number could remain. No part of a number is kept: those digits read as '•'.
 */
function maskDigits(summary: string): string {
  const count = REPLACE_COUNT.exec(summary)?.[0] ?? '';
  return summary.slice(0, summary.length - count.length).replace(/\p{Nd}/gu, '•') + count;
}

/**
 * What an edit writes, redacted when the company's redaction is on: the detectors run on the
 * segments it leaves (whole, so a number typed one word at a time next to digits already there is
 * found), on the speakers' names it sets and on its summary, and what they find becomes the label
 * the transcription pipeline writes. Every write path (word, segment text, find and replace,
 * speaker name, and undo or redo of any edit) records its change through commitChange, which
 * calls this in the edit's transaction, before anything is stored, indexed or published; so a
 * label cannot be edited back into a number. With redaction off the change is as typed.
 */
export async function redactedChange(tx: Db, companyId: string, change: Change): Promise<RedactedChange> {
  if ((await findRedactionMode(tx, companyId)) === 'off') return { change, redacted: 0 };
  return redactChange(change);
}

/** The redaction of one change (see redactedChange), without the policy lookup. */
export function redactChange(change: Change): RedactedChange {
  const segments = redactSegments(change.after);
  let redacted = segments.spans.length;
  const speakers = change.speakers && {
    before: change.speakers.before,
    after: change.speakers.after.map((speaker) => {
      const name = redactText(speaker.label);
      redacted += name.count;
      return name.count ? { ...speaker, label: name.text } : speaker;
    }),
  };
  if (!redacted) return { change, redacted };
  return {
    change: {
      ...change,
      summary: maskDigits(redactText(change.summary).text),
      after: segments.segments,
      ...(speakers && { speakers }),
    },
    redacted,
  };
}
