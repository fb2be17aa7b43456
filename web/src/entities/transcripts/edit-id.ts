import { EDIT_ID_HEADER } from '@earshot/contracts/constants';

/** The edit a word edit or a rename made (their answers keep their own shapes): for the undo stack. */
export const editIdOf = (meta: { response?: Response } | undefined): string | null =>
  meta?.response?.headers.get(EDIT_ID_HEADER) ?? null;
