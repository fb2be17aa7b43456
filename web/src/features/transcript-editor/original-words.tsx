// "Show original": the company's ADMIN may read the unredacted words of a transcript
// whose company keeps originals (the transcript says `hasOriginal` only to them). Each opening asks
// the server again (one audited read); the words are shown read-only under a banner saying so.
import { useState, type ReactElement } from 'react';
import type { OriginalWordsDto, SpeakerInfo } from '@earshot/contracts';
import { useFeatureTranslation } from '../../i18n/feature';
import { errorMessage } from '../../lib/api';
import { formatClock } from '../../entities/transcripts';
import { useReadOriginalMutation } from './original-api';
import { catalogue } from './original-i18n';

const buttonClass =
  'rounded-lg border border-amber-400 px-3 py-1.5 text-sm text-amber-900 hover:bg-amber-50 dark:border-amber-700 dark:text-amber-200 dark:hover:bg-amber-950';

export function ShowOriginal({ fileId, speakers }: { fileId: string; speakers: readonly SpeakerInfo[] }): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const [read, state] = useReadOriginalMutation();
  const [open, setOpen] = useState(false);
  const toggle = () => {
    setOpen(!open);
    if (!open) void read(fileId);
  };
  return (
    <div className="mb-4" data-testid="original">
      <button type="button" aria-expanded={open} onClick={toggle} className={buttonClass} data-testid="show-original">
        {t(open ? 'original.hide' : 'original.show')}
      </button>
      {open ? (
        <section
          aria-label={t('original.title')}
          className="mt-3 rounded-2xl border border-amber-300 bg-amber-50 p-4 dark:border-amber-800 dark:bg-amber-950"
          data-testid="original-words"
        >
          <p
            role="note"
            className="mb-3 text-sm font-medium text-amber-900 dark:text-amber-200"
            data-testid="original-banner"
          >
            {t('original.banner')}
          </p>
          {state.isLoading ? (
            <p role="status" className="text-sm">
              {t('original.loading')}
            </p>
          ) : null}
          {state.isError ? (
            <p role="alert" className="text-sm text-red-700 dark:text-red-300">
              {t('original.failed')}: {errorMessage(state.error)}
            </p>
          ) : null}
          {state.data ? <OriginalSegments original={state.data} speakers={speakers} /> : null}
        </section>
      ) : null}
    </div>
  );
}

function OriginalSegments({
  original,
  speakers,
}: {
  original: OriginalWordsDto;
  speakers: readonly SpeakerInfo[];
}): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const nameOf = (id: string) => {
    const index = speakers.findIndex((speaker) => speaker.id === id);
    return speakers[index]?.label || t('original.speaker', { n: index < 0 ? '?' : index + 1 });
  };
  return (
    <ol className="flex flex-col gap-2 text-sm text-gray-800 dark:text-gray-100">
      {original.speakerSegments.map((segment) => (
        <li key={segment._id}>
          <span className="mr-2 font-medium">{nameOf(segment.speakerId)}</span>
          <span className="mr-2 text-xs text-gray-500 dark:text-gray-400">{formatClock(segment.start)}</span>
          <span>{segment.words.map((word) => word.text).join(' ')}</span>
        </li>
      ))}
    </ol>
  );
}
