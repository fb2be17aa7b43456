// The sources under a reply: transcript passages open the viewer at the moment (in the app),
// a custom GPT's file passages open the file at the cited page (in a new tab). Lazy: loaded with
// the first reply that has sources.
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { speakerName } from '@earshot/contracts/constants';
import type { Citation, FileCitation } from './model';

function clock(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}

const sourceClass = 'font-medium text-brand-700 hover:underline dark:text-brand-300';

/**
 * A custom GPT's knowledge file, opened in a new tab at the cited page (the browser's PDF viewer
 * follows #page=N). Without the GPT's id (it is in the address) the source is named, not linked.
 */
function FileSource({ citation, gptId }: { citation: FileCitation; gptId: string | null }): ReactElement {
  const { t } = useTranslation();
  const text = `[${citation.index}] ${citation.fileName}${citation.page ? ` · ${t('chat.page', { page: citation.page })}` : ''}`;
  if (!gptId) return <span data-testid="file-citation">{text}</span>;
  const href = `/api/custom-gpt/${encodeURIComponent(gptId)}/files/${encodeURIComponent(citation.fileId)}${citation.page ? `#page=${citation.page}` : ''}`;
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      title={citation.quote}
      className={sourceClass}
      data-testid="file-citation"
    >
      {text}
    </a>
  );
}

export default function Sources({ citations, gptId }: { citations: Citation[]; gptId: string | null }): ReactElement {
  const { t } = useTranslation();
  return (
    <div className="mt-3 border-t border-gray-200 pt-2 dark:border-gray-700">
      <p className="mb-1 text-xs font-semibold text-gray-600 dark:text-gray-400">{t('chat.sources')}</p>
      <ul className="space-y-1">
        {citations.map((citation) =>
          citation.kind === 'file' ? (
            <li key={`file-${citation.fileId}-${citation.index}`} className="text-xs">
              <FileSource citation={citation} gptId={gptId} />
            </li>
          ) : (
            <li key={`${citation.fileId}-${citation.start}`} className="text-xs">
              <Link to={citation.link} className={sourceClass}>
                {citation.fileName} · {speakerName(citation.speaker)} · {clock(citation.start)}
              </Link>
            </li>
          ),
        )}
      </ul>
    </div>
  );
}
