import { useRef, useState, type DragEvent, type ReactElement } from 'react';
import { buttonClass } from '../../components/form-field';
import { useFeatureTranslation } from '../../i18n/feature';
import { catalogue } from './i18n';
import { KNOWLEDGE_ACCEPT } from './model';

/** Drop files here or choose them (several at once); what is accepted is checked again by the server, by content. */
export function FileDropZone({
  onFiles,
  disabled,
}: {
  onFiles: (files: File[]) => void;
  disabled: boolean;
}): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setOver(false);
    const files = [...event.dataTransfer.files];
    if (!disabled && files.length > 0) onFiles(files);
  };
  return (
    <div
      data-testid="knowledge-drop"
      onDragOver={(event) => {
        event.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
      className={`flex flex-col items-center gap-3 rounded-xl border-2 border-dashed p-6 text-center ${over ? 'border-brand-500 bg-brand-50 dark:bg-brand-950/40' : 'border-gray-300 dark:border-gray-700'}`}
    >
      <p className="text-sm text-gray-700 dark:text-gray-300">{t('files.drop')}</p>
      <input
        ref={input}
        type="file"
        multiple
        accept={KNOWLEDGE_ACCEPT}
        className="sr-only"
        tabIndex={-1}
        aria-hidden="true"
        data-testid="knowledge-input"
        disabled={disabled}
        onChange={(event) => {
          const files = [...(event.target.files ?? [])];
          event.target.value = '';
          if (files.length > 0) onFiles(files);
        }}
      />
      <button
        type="button"
        className={buttonClass.secondary}
        disabled={disabled}
        onClick={() => input.current?.click()}
        data-testid="knowledge-choose"
      >
        {t('files.choose')}
      </button>
    </div>
  );
}
