// "New chat with…": the custom GPTs the caller may use. Lazy (with its strings and the call),
// fetched when the button is first pressed.
import type { ReactElement } from 'react';
import { Modal } from '../../components/modal';
import { NameAvatar } from '../../components/name-avatar';
import { Alert } from '../../components/text-field';
import { useFeatureTranslation } from '../../i18n/feature';
import { useChatGptOptionsQuery } from './gpt-api';
import { catalogue } from './gpt-i18n';

export default function GptPicker({
  onChoose,
  onClose,
}: {
  onChoose: (gptId: string) => void;
  onClose: () => void;
}): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  // Fresh each time it opens: an administrator may have added or hidden one meanwhile.
  const options = useChatGptOptionsQuery(undefined, { refetchOnMountOrArgChange: true });
  const list = options.data ?? [];
  return (
    <Modal open label={t('pickerTitle')} onClose={onClose} testId="gpt-picker">
      <div className="mb-4 flex items-start justify-between gap-3">
        <div>
          <h2 className="text-lg font-semibold">{t('pickerTitle')}</h2>
          <p className="mt-1 text-sm text-gray-600 dark:text-gray-400">{t('pickerHint')}</p>
        </div>
        <button
          type="button"
          onClick={onClose}
          aria-label={t('close')}
          className="rounded px-2 text-xl leading-none text-gray-600 hover:text-gray-900 dark:text-gray-400 dark:hover:text-white"
        >
          ×
        </button>
      </div>
      {options.isLoading ? <p className="text-sm text-gray-600 dark:text-gray-400">{t('loading')}</p> : null}
      {options.isError ? <Alert>{t('loadFailed')}</Alert> : null}
      {options.isSuccess && list.length === 0 ? (
        <p className="text-sm text-gray-600 dark:text-gray-400" data-testid="gpt-picker-empty">
          {t('none')}
        </p>
      ) : null}
      <ul className="flex flex-col gap-1">
        {list.map((gpt) => (
          <li key={gpt._id}>
            <button
              type="button"
              onClick={() => onChoose(gpt._id)}
              className="flex w-full items-center gap-3 rounded-xl p-2 text-left hover:bg-gray-100 dark:hover:bg-gray-800"
              data-testid="gpt-option"
            >
              <NameAvatar name={gpt.name} src={gpt.avatar} size="sm" />
              <span className="min-w-0">
                <span className="block font-medium">{gpt.name}</span>
                {gpt.description ? (
                  <span className="line-clamp-2 block text-xs text-gray-600 dark:text-gray-400">{gpt.description}</span>
                ) : null}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </Modal>
  );
}
