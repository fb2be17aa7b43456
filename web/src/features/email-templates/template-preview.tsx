import { useEffect, useState, type ReactElement } from 'react';
import type { EmailTemplateType, RenderedEmailDto } from '@earshot/contracts';
import { useFeatureTranslation } from '../../i18n/feature';
import { errorMessage } from '../../lib/api';
import { usePreviewEmailMutation, type TemplateDraft } from './email-api';
import { catalogue } from './i18n';

const DEBOUNCE_MS = 400;

/**
 * The draft as the server would send it (sample values, the company's branding), in a sandboxed
 * frame: no script runs and nothing in it can reach the console.
 */
export function TemplatePreview({
  type,
  companyId,
  draft,
}: {
  type: EmailTemplateType;
  companyId: string | null;
  draft: TemplateDraft;
}): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const [preview] = usePreviewEmailMutation();
  const [rendered, setRendered] = useState<RenderedEmailDto | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const { subject, html, text } = draft;

  useEffect(() => {
    if (!subject.trim() || !html.trim() || !text.trim()) return;
    const timer = setTimeout(() => {
      preview({ type, companyId, subject, html, text })
        .unwrap()
        .then(
          (answer) => {
            setRendered(answer);
            setFailure(null);
          },
          (error: unknown) => setFailure(errorMessage(error) ?? String(error)),
        );
    }, DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [preview, type, companyId, subject, html, text]);

  return (
    <section aria-label={t('email.preview')} className="flex min-h-80 flex-col gap-2">
      <h3 className="text-sm font-semibold text-gray-700 dark:text-gray-300">{t('email.preview')}</h3>
      {failure && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {t('email.previewFailed', { message: failure })}
        </p>
      )}
      {rendered && (
        <>
          <p className="truncate text-sm font-medium" data-testid="preview-subject">
            {rendered.subject}
          </p>
          <iframe
            title={t('email.preview')}
            sandbox=""
            srcDoc={rendered.html}
            className="h-96 w-full rounded-lg border border-gray-200 bg-white dark:border-gray-700"
            data-testid="preview-frame"
          />
        </>
      )}
    </section>
  );
}
