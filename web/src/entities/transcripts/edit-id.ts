import { EDIT_ID_HEADER } from '@earshot/contracts/constants';

/** The edit a word edit or a rename made (their answers keep their own shapes): for the undo stack. */
export const editIdOf = (meta: { response?: Response } | undefined): string | null =>
  meta?.response?.headers.get(EDIT_ID_HEADER) ?? null;

/** The transcript's version an edit answer names in its ETag (`"<n>"`): the base of the next edit. */
export function versionOf(meta: { response?: Response } | undefined): number | undefined {
  const match = /^(?:W\/)?"(\d+)"$/.exec(meta?.response?.headers.get('etag') ?? '');
  return match ? Number(match[1]) : undefined;
}
