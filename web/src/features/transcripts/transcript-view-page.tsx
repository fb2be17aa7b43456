import { useCallback, useEffect, useMemo, useReducer, useRef, useState, type ReactElement } from 'react';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { PageSpinner } from '../../components/spinner';
import { ToastRegion, useToasts } from '../../components/toast';
import { AskAboutRecording } from './ask-about-recording';
import { AnalysisLink } from './analysis-link';
import { formatDate } from './format';
import { isBusy, POLL_MS, TOAST_MS } from './model';
import { PlayerContext, seek, togglePlay, type Player } from './player';
import { createPlaybackStore, PlaybackContext } from './playback-store';
import { SegmentList } from './segment-list';
import { clampStart, parseStartTime } from './start-time';
import { assignSpeakerColors } from './speaker-colors';
import { transcriptsApi, usePeaksQuery, useTranscriptQuery, useUpdateWordMutation } from './transcripts-api';
import { WaveformBar, type PlayerError } from './waveform-bar';
import { IDLE, outcomeOf, wordEditReducer } from './word-edit';
import { useAppDispatch } from '../../lib/store';
import { useFeatureTranslation } from '../../i18n/feature';
import { catalogue } from './viewer-i18n';

const SEEK_STEP = 5;

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

/** /transcripts/{fileId}: the transcript with the synchronised player and inline word correction. */
export default function TranscriptViewPage(): ReactElement {
  const { t, i18n } = useFeatureTranslation(catalogue);
  const dispatch = useAppDispatch();
  const { id = '' } = useParams();
  const [busy, setBusy] = useState(false);
  const { data, isLoading, isError } = useTranscriptQuery(id, { pollingInterval: busy ? POLL_MS : 0 });
  useEffect(() => setBusy(Boolean(data && isBusy(data.status))), [data]);
  const ready = data?.status === 'completed';
  const peaksUrl = ready ? data?.metadata.peaksUrl ?? null : null;
  const peaksQuery = usePeaksQuery(peaksUrl ?? '', { skip: !peaksUrl });
  const peaksSettled = !peaksUrl || peaksQuery.isSuccess || peaksQuery.isError;

  const store = useMemo(createPlaybackStore, []);
  const player = useRef<Player>({ media: null, duration: 0 }).current;
  const segments = useMemo(() => data?.metadata.speakerSegments ?? [], [data]);
  const duration = data?.metadata.duration ?? peaksQuery.data?.duration ?? segments.at(-1)?.end ?? 0;
  const colors = useMemo(() => assignSpeakerColors(segments), [segments]);
  useEffect(() => store.setSegments(segments, duration), [store, segments, duration]);

  // ?t=<seconds> (a chat citation): open positioned there, highlighted, without playing. Read once
  // on open; the player seeks its media to the same place when it mounts.
  const [params] = useSearchParams();
  const [startAt] = useState(() => parseStartTime(params.get('t')));
  const start = startAt === null ? null : clampStart(startAt, duration);
  const positioned = useRef(false);
  useEffect(() => {
    if (!ready || start === null || positioned.current) return;
    positioned.current = true;
    store.setTime(start);
  }, [ready, start, store]);

  const [playerError, setPlayerError] = useState<PlayerError | null>(null);
  const { toasts, show, dismiss } = useToasts(TOAST_MS);

  // Word edit.
  const [edit, dispatchEdit] = useReducer(wordEditReducer, IDLE);
  const editRef = useRef(edit);
  editRef.current = edit;
  const [updateWord] = useUpdateWordMutation();
  const onSave = useCallback(async () => {
    const current = editRef.current;
    if (current.status !== 'editing' || !data) return;
    const text = current.draft.trim();
    if (text === current.original) {
      dispatchEdit({ type: 'cancel' });
      return;
    }
    dispatchEdit({ type: 'submit' });
    let outcome: 'updated' | 'failed';
    try {
      outcome = outcomeOf(await updateWord({ transcriptId: data._id, wordId: current.wordId, text, speakerSegmentId: current.segmentId }).unwrap());
    } catch {
      outcome = 'failed';
    }
    if (outcome === 'updated') {
      dispatch(transcriptsApi.util.updateQueryData('transcript', id, (draft) => {
        const segment = draft.metadata.speakerSegments.find((s) => s._id === current.segmentId);
        const word = segment?.words.find((w) => w._id === current.wordId);
        if (segment && word) {
          word.text = text;
          segment.text = segment.words.map((w) => w.text).join(' ');
        }
      }));
      show({ kind: 'success', title: t('viewer.wordUpdated') });
    } else {
      show({ kind: 'error', title: t('viewer.wordFailed') });
    }
    dispatchEdit({ type: 'done' });
  }, [data, dispatch, id, show, t, updateWord]);
  const save = useCallback(() => void onSave(), [onSave]);

  // Space = play/pause, ←/→ = 5 s, when not typing.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || isTyping(event.target)) return;
      if (event.key === ' ') {
        event.preventDefault();
        togglePlay(player);
      } else if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') {
        event.preventDefault();
        seek(player, store, (player.media?.currentTime ?? store.getTime()) + (event.key === 'ArrowLeft' ? -SEEK_STEP : SEEK_STEP));
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [player, store]);

  let body: ReactElement;
  if (isLoading) body = <PageSpinner label={t('viewer.loading')} />;
  else if (isError || !data) body = <ErrorBox message={t('viewer.fetchTranscript')} />;
  else if (data.status === 'failed') body = <ErrorBox message={t('viewer.failed', { reason: data.reason ?? '' })} />;
  else if (!ready) body = <p className="rounded-2xl border border-gray-200 bg-white p-6 text-sm text-gray-600 dark:border-gray-800 dark:bg-gray-900 dark:text-gray-300" role="status">{t('viewer.processing')}</p>;
  else if (segments.length === 0) body = <p className="rounded-2xl border border-gray-200 bg-white p-6 text-sm text-gray-600 dark:border-gray-800 dark:bg-gray-900 dark:text-gray-300" data-testid="viewer-empty">{t('viewer.empty')}</p>;
  else body = <SegmentList segments={segments} speakers={data.metadata.speakers} colors={colors} edit={edit} dispatchEdit={dispatchEdit} onSave={save} />;

  return (
    <PlaybackContext.Provider value={store}>
      <PlayerContext.Provider value={player}>
        <section aria-labelledby="page-heading" className="pb-24">
          <ToastRegion toasts={toasts} onDismiss={dismiss} closeLabel={t('transcripts.close')} />
          <div className="mb-4 flex flex-wrap items-center gap-4">
            <Link to="/transcripts" className="inline-flex items-center gap-1 rounded-lg border border-gray-300 px-3 py-1.5 text-sm text-gray-700 hover:bg-gray-50 dark:border-gray-700 dark:text-gray-200 dark:hover:bg-gray-800" data-testid="back">
              <span aria-hidden="true">←</span> {t('viewer.back')}
            </Link>
            <div className="mr-auto min-w-0">
              <h1 id="page-heading" className="truncate text-xl font-semibold text-gray-900 dark:text-white">{data?.file.originalName ?? t('pages.transcript')}</h1>
              {data ? <p className="text-sm text-gray-500 dark:text-gray-400" data-testid="upload-date">{formatDate(data.file.uploadDate, i18n.language)}</p> : null}
            </div>
            {ready ? (
              <div className="flex flex-wrap gap-2">
                <AnalysisLink fileId={id} />
                <AskAboutRecording fileId={id} />
              </div>
            ) : null}
          </div>
          {playerError ? <ErrorBox message={t(`viewer.${playerError}`)} /> : null}
          {body}
          {ready && data && peaksSettled && duration > 0 && !playerError ? (
            <>
              <p className="mt-2 text-xs text-gray-500 dark:text-gray-400">{t('viewer.shortcuts')}</p>
              <WaveformBar audioUrl={data.file.url} peaks={peaksQuery.data ?? null} duration={duration} startAt={start} segments={segments} colors={colors} onError={setPlayerError} />
            </>
          ) : null}
        </section>
      </PlayerContext.Provider>
    </PlaybackContext.Provider>
  );
}

function ErrorBox({ message }: { message: string }): ReactElement {
  return (
    <div role="alert" data-testid="viewer-error" className="mb-4 rounded-2xl border border-red-200 bg-red-50 p-4 text-sm text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200">
      {message}
    </div>
  );
}
