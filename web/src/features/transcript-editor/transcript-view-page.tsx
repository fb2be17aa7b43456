import { useCallback, useEffect, useMemo, useRef, useState, type ReactElement, type ReactNode } from 'react';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { PageSpinner } from '../../components/spinner';
import { ToastRegion, useToasts } from '../../components/toast';
import { useAppDispatch } from '../../lib/store';
import {
  AskAboutRecording,
  AnalysisLink,
  downloadExport,
  type ExportFormat,
  formatDate,
  isBusy,
  POLL_MS,
  TOAST_MS,
  PlayerContext,
  seek,
  togglePlay,
  type Player,
  createPlaybackStore,
  PlaybackContext,
  clampStart,
  parseStartTime,
  knownSpeakers,
  speakerColors,
  usePeaksQuery,
  useTranscriptQuery,
  nextUnsureWord,
  recognitionLine,
  WaveformBar,
  type PlayerError,
  viewerCatalogue as catalogue,
  SelectionTaskBar,
} from '../../entities/transcripts';
import { EditHistory } from './edit-history';
import { EditorContext } from './editor-context';
import { EditorToolbar } from './editor-toolbar';
import { FindBar } from './find-bar';
import { SegmentList } from './segment-list';
import { SEEK_STEP } from './shortcuts';
import { ShortcutsDialog } from './shortcuts-dialog';
import { SpeakersPanel } from './speakers-panel';
import { StaleNotice } from './stale-notice';
import { useEditor } from './use-editor';
import { useViewerKeys } from './use-viewer-keys';
import { useWordEdit } from './use-word-edit';
import { RecordingHold } from '../../entities/holds';
import { ShowOriginal } from './original-words';
import { useFeatureTranslation } from '../../i18n/feature';
import { catalogue as editorCatalogue } from './editor-i18n';

const boxClass =
  'rounded-2xl border border-gray-200 bg-white p-6 text-sm text-gray-600 dark:border-gray-800 dark:bg-gray-900 dark:text-gray-300';

/** /transcripts/{fileId}: the transcript with the synchronised player, and the editor. */
export default function TranscriptViewPage(): ReactElement {
  const { t, i18n } = useFeatureTranslation(catalogue, editorCatalogue);
  const dispatch = useAppDispatch();
  const { id = '' } = useParams();
  const [busy, setBusy] = useState(false);
  const { data, isLoading, isError, error } = useTranscriptQuery(id, { pollingInterval: busy ? POLL_MS : 0 });
  useEffect(() => setBusy(Boolean(data && isBusy(data.status))), [data]);
  const ready = data?.status === 'completed';
  const recognised = data && ready ? recognitionLine(data, i18n.language) : null;
  const peaksUrl = ready ? (data?.metadata.peaksUrl ?? null) : null;
  const peaksQuery = usePeaksQuery(peaksUrl ?? '', { skip: !peaksUrl });
  const peaksSettled = !peaksUrl || peaksQuery.isSuccess || peaksQuery.isError;

  const store = useMemo(createPlaybackStore, []);
  const player = useRef<Player>({ media: null, duration: 0 }).current;
  const segments = useMemo(() => data?.metadata.speakerSegments ?? [], [data]);
  const speakers = useMemo(() => knownSpeakers(data?.metadata.speakers ?? [], segments), [data, segments]);
  const duration = data?.metadata.duration ?? peaksQuery.data?.duration ?? segments.at(-1)?.end ?? 0;
  const colors = useMemo(() => speakerColors(speakers, segments), [speakers, segments]);
  useEffect(() => store.setSegments(segments, duration), [store, segments, duration]);

  // ?t=<seconds> (a chat citation, a copied moment): open positioned there, highlighted, without
  // playing. Read once on open; the player seeks its media to the same place when it mounts.
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
  const editor = useEditor(id, segments, show, t);
  const { edit, dispatchEdit, save } = useWordEdit(id, data, show, t, editor.recordEdit, editor.markStale);
  const [find, setFind] = useState<{ replace: boolean; key: number } | null>(null);
  const [match, setMatch] = useState<string | null>(null);
  const [overlay, setOverlay] = useState<'history' | 'help' | null>(null);
  const segmentsRef = useRef(segments);
  segmentsRef.current = segments;

  const onExport = useCallback(
    (format: ExportFormat) => {
      void downloadExport(id, format, dispatch).then((message) => {
        if (message !== null) show({ kind: 'error', title: t('editor.exportFailed'), detail: message || undefined });
      });
    },
    [dispatch, id, show, t],
  );
  const openFind = (replace: boolean) =>
    setFind((open) => ({ replace: replace || Boolean(open?.replace), key: (open?.key ?? 0) + 1 }));
  const jump = (delta: number) => seek(player, store, (player.media?.currentTime ?? store.getTime()) + delta);

  useViewerKeys({
    togglePlay: () => togglePlay(player),
    back: () => jump(-SEEK_STEP),
    forward: () => jump(SEEK_STEP),
    undo: () => void editor.step('undo'),
    redo: () => void editor.step('redo'),
    find: () => openFind(false),
    replace: () => openFind(true),
    help: () => setOverlay('help'),
    nextUnsure: () => {
      const word = nextUnsureWord(segmentsRef.current, player.media?.currentTime ?? store.getTime());
      if (word) seek(player, store, word.start);
      else show({ kind: 'success', title: t('editor.noUnsure') });
    },
  });

  let body: ReactElement;
  if (isLoading) body = <PageSpinner label={t('viewer.loading')} />;
  else if (isError && error && 'status' in error && error.status === 404)
    body = (
      <ErrorBox message={t('viewer.notFound')}>
        <Link to="/transcripts" className="mt-2 inline-block font-medium underline">
          {t('viewer.toLibrary')}
        </Link>
      </ErrorBox>
    );
  else if (isError || !data) body = <ErrorBox message={t('viewer.fetchTranscript')} />;
  else if (data.status === 'failed') body = <ErrorBox message={t('viewer.failed', { reason: data.reason ?? '' })} />;
  else if (!ready)
    body = (
      <p className={boxClass} role="status">
        {t('viewer.processing')}
      </p>
    );
  else if (segments.length === 0)
    body = (
      <p className={boxClass} data-testid="viewer-empty">
        {t('viewer.empty')}
      </p>
    );
  else {
    body = (
      <EditorContext.Provider value={editor.actions}>
        <SpeakersPanel
          fileId={id}
          speakers={speakers}
          colors={colors}
          show={show}
          onEdited={editor.recordEdit}
          onStale={editor.markStale}
        />
        <SelectionTaskBar
          fileId={id}
          clientId={data.clientId}
          segments={segments}
          selection={editor.selection}
          onClear={editor.actions.clearSelection}
        />
        {find ? (
          <FindBar
            fileId={id}
            segments={segments}
            replaceOpen={find.replace}
            focusKey={find.key}
            show={show}
            onEdited={editor.recordEdit}
            onStale={editor.markStale}
            onMatch={setMatch}
            onClose={() => setFind(null)}
          />
        ) : null}
        <SegmentList
          segments={segments}
          speakers={speakers}
          colors={colors}
          edit={edit}
          textEdit={editor.textEdit}
          selection={editor.selection}
          match={find ? match : null}
          dispatchEdit={dispatchEdit}
          onSave={save}
        />
      </EditorContext.Provider>
    );
  }

  return (
    <PlaybackContext.Provider value={store}>
      <PlayerContext.Provider value={player}>
        <section aria-labelledby="page-heading" className="pb-36 sm:pb-24">
          <ToastRegion toasts={toasts} onDismiss={dismiss} closeLabel={t('transcripts.close')} />
          {editor.stale ? <StaleNotice onReload={editor.reload} /> : null}
          <div className="mb-4 flex flex-wrap items-center gap-4">
            <Link
              to="/transcripts"
              className="inline-flex items-center gap-1 rounded-lg border border-gray-300 px-3 py-1.5 text-sm text-gray-700 hover:bg-gray-50 dark:border-gray-700 dark:text-gray-200 dark:hover:bg-gray-800"
              data-testid="back"
            >
              <span aria-hidden="true">←</span> {t('viewer.back')}
            </Link>
            <div className="mr-auto min-w-0 flex-1 basis-64">
              <h1 id="page-heading" className="truncate text-xl font-semibold text-gray-900 dark:text-white">
                {data?.file.originalName ?? t('pages.transcript')}
              </h1>
              {data ? (
                <p className="text-sm text-gray-500 dark:text-gray-400" data-testid="upload-date">
                  {formatDate(data.file.uploadDate, i18n.language)}
                </p>
              ) : null}
              {recognised ? (
                <p className="text-xs text-gray-500 dark:text-gray-400" data-testid="recognition">
                  {t(recognised.key, recognised.values)}
                </p>
              ) : null}
            </div>
            {data ? (
              <RecordingHold
                fileId={id}
                name={data.file.originalName}
                onChanged={(message) => show({ kind: 'success', title: message })}
              />
            ) : null}
            {ready ? (
              <div className="flex flex-wrap items-center gap-2">
                <AnalysisLink fileId={id} />
                <AskAboutRecording fileId={id} />
                <EditorToolbar
                  canUndo={editor.undo.undo.length > 0}
                  canRedo={editor.undo.redo.length > 0}
                  onUndo={() => void editor.step('undo')}
                  onRedo={() => void editor.step('redo')}
                  onFind={() => openFind(true)}
                  onHistory={() => setOverlay('history')}
                  onExport={onExport}
                  onHelp={() => setOverlay('help')}
                />
              </div>
            ) : null}
          </div>
          {ready && data?.hasOriginal ? <ShowOriginal fileId={id} speakers={speakers} /> : null}
          {playerError ? <ErrorBox message={t(`viewer.${playerError}`)} /> : null}
          {body}
          {ready && data && peaksSettled && duration > 0 && !playerError ? (
            <>
              <p className="mt-2 text-xs text-gray-500 dark:text-gray-400">{t('editor.shortcutsHint')}</p>
              <WaveformBar
                audioUrl={data.file.url}
                peaks={peaksQuery.data ?? null}
                duration={duration}
                startAt={start}
                segments={segments}
                speakers={speakers}
                colors={colors}
                onError={setPlayerError}
              />
            </>
          ) : null}
          {ready ? <EditHistory fileId={id} open={overlay === 'history'} onClose={() => setOverlay(null)} /> : null}
          {overlay === 'help' ? <ShortcutsDialog onClose={() => setOverlay(null)} /> : null}
        </section>
      </PlayerContext.Provider>
    </PlaybackContext.Provider>
  );
}

function ErrorBox({ message, children }: { message: string; children?: ReactNode }): ReactElement {
  return (
    <div
      role="alert"
      data-testid="viewer-error"
      className="mb-4 rounded-2xl border border-red-200 bg-red-50 p-4 text-sm text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200"
    >
      <p>{message}</p>
      {children}
    </div>
  );
}
