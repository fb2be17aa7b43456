// The prompt messages arrive in English (from the contracts' schema in the form, from the server
// otherwise); known ones are shown in the reader's language, anything else as it came.
import { useCallback } from 'react';
import { useFeatureTranslation } from '../../i18n/feature';
import { catalogue } from './i18n';
import { PROMPT_MESSAGES } from './model';

const KEYS = new Map<string, string>(Object.entries(PROMPT_MESSAGES).map(([key, text]) => [text, key]));

export function useMessageText(): (message: string | undefined) => string | undefined {
  const { t } = useFeatureTranslation(catalogue);
  return useCallback(
    (message) => {
      if (!message) return undefined;
      const key = KEYS.get(message);
      return key ? t(`messages.${key}`) : message;
    },
    [t],
  );
}
