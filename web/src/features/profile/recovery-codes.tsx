import { useState, type ReactElement } from 'react';
import { buttonClass } from '../../components/form-field';
import { useFeatureTranslation } from '../../i18n/feature';
import { catalogue } from './i18n';

/** The recovery codes, shown this once: copy them or save them as a text file. */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const [copied, setCopied] = useState(false);
  const text = `${codes.join('\n')}\n`;
  const copy = async () => {
    await navigator.clipboard.writeText(text);
    setCopied(true);
  };
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'earshot-recovery-codes.txt';
    link.click();
    URL.revokeObjectURL(url);
  };
  return (
    <div
      className="flex flex-col gap-3 rounded-lg border border-amber-300 bg-amber-50 p-4 dark:border-amber-800 dark:bg-amber-950/40"
      data-testid="recovery-codes"
    >
      <h3 className="font-medium text-gray-900 dark:text-white">{t('profile.twoStep.recoveryTitle')}</h3>
      <p className="text-sm text-gray-700 dark:text-gray-300">{t('profile.twoStep.recoveryIntro')}</p>
      <ul className="grid grid-cols-2 gap-2 font-mono text-sm text-gray-900 dark:text-gray-100">
        {codes.map((code) => (
          <li key={code} data-testid="recovery-code">
            {code}
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <button type="button" className={buttonClass.secondary} onClick={() => void copy()}>
          {copied ? t('profile.twoStep.copied') : t('profile.twoStep.copy')}
        </button>
        <button type="button" className={buttonClass.secondary} onClick={download}>
          {t('profile.twoStep.download')}
        </button>
        <button type="button" className={buttonClass.primary} onClick={onDone} data-testid="recovery-done">
          {t('profile.twoStep.done')}
        </button>
      </div>
    </div>
  );
}
