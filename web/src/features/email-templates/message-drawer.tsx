import { useId, type ReactElement } from 'react';
import { useModalDialog } from '../../components/use-modal-dialog';
import { useFeatureTranslation } from '../../i18n/feature';
import { useOutgoingMailQuery } from './email-api';
import { catalogue } from './i18n';
import { linksIn } from './links';
import { formatDateTime } from '../../lib/format-time';

/**
 * One outgoing message in a side panel: its links as real links (the embedded default's way to
 * follow a reset link), the HTML as sent in a sandboxed frame, and the plain text.
 */
export function MessageDrawer({ id, onClose }: { id: string | null; onClose: () => void }): ReactElement {
  const { t, i18n } = useFeatureTranslation(catalogue);
  const titleId = useId();
  const ref = useModalDialog(id !== null);
  const message = useOutgoingMailQuery(id ?? '', { skip: id === null });
  const mail = id !== null ? message.data : undefined;
  const links = mail?.text ? linksIn(mail.text) : [];

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      data-testid="mail-drawer"
      className="fixed inset-y-0 right-0 left-auto m-0 h-full max-h-none w-[42rem] max-w-full overflow-y-auto border-l border-gray-200 bg-white p-0 text-gray-900 shadow-xl backdrop:bg-gray-900/50 dark:border-gray-800 dark:bg-gray-900 dark:text-white"
    >
      {mail && (
        <div className="flex flex-col gap-5 p-6">
          <div className="flex items-start justify-between gap-4">
            <h2 id={titleId} className="text-lg font-semibold">
              {mail.subject}
            </h2>
            <button
              type="button"
              onClick={onClose}
              className="rounded-lg border border-gray-300 px-3 py-1.5 text-sm dark:border-gray-700"
            >
              {t('email.close')}
            </button>
          </div>
          <p className="text-sm">
            {mail.to} · {t(`email.outbox.status.${mail.status}`)}
          </p>
          {mail.error && (
            <p className="text-sm text-red-700 dark:text-red-300">
              <strong>{t('email.outbox.error')}:</strong> {mail.error}
            </p>
          )}
          {mail.status === 'queued' && mail.nextAttemptAt && (
            <p className="text-sm">
              {t('email.outbox.nextAttempt', { when: formatDateTime(mail.nextAttemptAt, i18n.language) })}
            </p>
          )}
          {mail.html === null && mail.text === null && (
            <p className="text-sm text-gray-600 dark:text-gray-400">{t('email.outbox.bodyGone')}</p>
          )}
          {links.length > 0 && (
            <section>
              <h3 className="mb-2 text-sm font-semibold">{t('email.outbox.links')}</h3>
              <ul className="flex flex-col gap-1">
                {links.map((link) => (
                  <li key={link}>
                    <a
                      href={link}
                      className="break-all text-sm text-brand-700 underline dark:text-brand-300"
                      data-testid="mail-link"
                    >
                      {link}
                    </a>
                  </li>
                ))}
              </ul>
            </section>
          )}
          {mail.html && (
            <section>
              <h3 className="mb-2 text-sm font-semibold">{t('email.outbox.html')}</h3>
              <iframe
                title={t('email.outbox.html')}
                sandbox=""
                srcDoc={mail.html}
                className="h-96 w-full rounded-lg border border-gray-200 bg-white dark:border-gray-700"
              />
            </section>
          )}
          {mail.text && (
            <section>
              <h3 className="mb-2 text-sm font-semibold">{t('email.outbox.text')}</h3>
              <pre className="whitespace-pre-wrap rounded-lg bg-gray-50 p-3 text-sm dark:bg-gray-800">{mail.text}</pre>
            </section>
          )}
        </div>
      )}
    </dialog>
  );
}
