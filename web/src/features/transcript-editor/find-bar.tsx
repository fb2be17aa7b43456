import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type ReactElement } from 'react';
import type { Toast } from '../../components/toast';
import { errorMessage } from '../../lib/api';
import { isStaleEdit, useReplaceMutation } from './editor-api';
import { findMatches, stepMatch, type Segment, viewerCatalogue as catalogue } from '../../entities/transcripts';
import { useFeatureTranslation } from '../../i18n/feature';
import { catalogue as editorCatalogue } from './editor-i18n';

const FIND_MAX = 200;
const inputClass =
  'w-full min-w-0 rounded-lg border border-gray-300 bg-white px-2 py-1.5 text-sm text-gray-900 dark:border-gray-700 dark:bg-gray-800 dark:text-white sm:w-48';
const buttonClass =
  'rounded-lg border border-gray-300 px-2.5 py-1.5 text-sm text-gray-700 hover:bg-gray-50 disabled:opacity-50 dark:border-gray-700 dark:text-gray-200 dark:hover:bg-gray-800';

/**
 * Find & replace (Ctrl+F / Ctrl+H): matches counted over the loaded segments, next/previous outline
 * the match's turn; replace-one sends that match's segment and occurrence, replace-all every match.
 */
export function FindBar({
  fileId,
  segments,
  replaceOpen,
  focusKey,
  show,
  onEdited,
  onStale,
  onMatch,
  onClose,
}: {
  fileId: string;
  segments: readonly Segment[];
  replaceOpen: boolean;
  /** Changes each time Ctrl+F/H is pressed again: focus returns to the find field. */
  focusKey: number;
  show: (toast: Omit<Toast, 'id'>) => void;
  onEdited: (editId: string) => void;
  /** A replace refused because someone else changed the transcript since: the page's notice says so. */
  onStale: () => void;
  onMatch: (segmentId: string | null) => void;
  onClose: () => void;
}): ReactElement {
  const { t } = useFeatureTranslation(editorCatalogue, catalogue);
  const [find, setFind] = useState('');
  const [replacement, setReplacement] = useState('');
  const [matchCase, setMatchCase] = useState(false);
  const [wholeWord, setWholeWord] = useState(false);
  const [current, setCurrent] = useState(0);
  const findRef = useRef<HTMLInputElement>(null);
  const [replace, replaceState] = useReplaceMutation();
  const matches = useMemo(
    () => findMatches(segments, { find, matchCase, wholeWord }),
    [segments, find, matchCase, wholeWord],
  );
  const index = matches.length ? Math.min(Math.max(current, 0), matches.length - 1) : -1;
  const match = index >= 0 ? (matches[index] ?? null) : null;

  useEffect(() => findRef.current?.select(), [focusKey]);
  useEffect(() => onMatch(match?.segmentId ?? null), [match?.segmentId, onMatch]);
  useEffect(() => () => onMatch(null), [onMatch]);

  const go = (direction: 1 | -1) => setCurrent(stepMatch(index, matches.length, direction));
  const run = (one: boolean) => {
    if (!find || (one && !match)) return;
    const body = {
      find,
      replace: replacement,
      matchCase,
      wholeWord,
      ...(one && match ? { segmentId: match.segmentId, occurrence: match.occurrence } : {}),
    };
    replace({ fileId, body })
      .unwrap()
      .then(
        (answer) => {
          if (answer.editId) onEdited(answer.editId);
          show({ kind: 'success', title: t('editor.replaced', { count: answer.replaced }) });
        },
        (error: unknown) =>
          isStaleEdit(error)
            ? onStale()
            : show({ kind: 'error', title: t('editor.failed'), detail: errorMessage(error) }),
      );
  };
  const onFindKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      go(event.shiftKey ? -1 : 1);
    } else if (event.key === 'Escape') onClose();
  };

  return (
    <div
      role="search"
      className="mb-3 flex flex-wrap items-center gap-2 rounded-2xl border border-gray-200 bg-white p-3 dark:border-gray-800 dark:bg-gray-900"
      data-testid="find-bar"
    >
      <input
        ref={findRef}
        autoFocus
        type="search"
        value={find}
        maxLength={FIND_MAX}
        onChange={(event) => {
          setFind(event.target.value);
          setCurrent(0);
        }}
        onKeyDown={onFindKey}
        aria-label={t('editor.findLabel')}
        placeholder={t('editor.find')}
        className={inputClass}
        data-testid="find-input"
      />
      <span
        role="status"
        className="min-w-16 text-sm tabular-nums text-gray-600 dark:text-gray-300"
        data-testid="match-count"
        data-count={matches.length}
      >
        {find
          ? matches.length
            ? t('editor.matchCount', { current: index + 1, count: matches.length })
            : t('editor.noMatches')
          : ''}
      </span>
      <button
        type="button"
        onClick={() => go(-1)}
        disabled={!matches.length}
        aria-label={t('editor.previous')}
        className={buttonClass}
      >
        ↑
      </button>
      <button
        type="button"
        onClick={() => go(1)}
        disabled={!matches.length}
        aria-label={t('editor.next')}
        className={buttonClass}
        data-testid="find-next"
      >
        ↓
      </button>
      <label className="flex items-center gap-1 text-sm text-gray-700 dark:text-gray-300">
        <input type="checkbox" checked={matchCase} onChange={(event) => setMatchCase(event.target.checked)} />
        {t('editor.matchCase')}
      </label>
      <label className="flex items-center gap-1 text-sm text-gray-700 dark:text-gray-300">
        <input type="checkbox" checked={wholeWord} onChange={(event) => setWholeWord(event.target.checked)} />
        {t('editor.wholeWord')}
      </label>
      <button type="button" onClick={onClose} aria-label={t('editor.closeFind')} className={`ml-auto ${buttonClass}`}>
        ✕
      </button>
      {replaceOpen ? (
        <div className="flex w-full flex-wrap items-center gap-2">
          <input
            value={replacement}
            maxLength={FIND_MAX}
            onChange={(event) => setReplacement(event.target.value)}
            onKeyDown={(event) => event.key === 'Escape' && onClose()}
            aria-label={t('editor.replaceLabel')}
            placeholder={t('editor.replaceLabel')}
            className={inputClass}
            data-testid="replace-input"
          />
          <button
            type="button"
            onClick={() => run(true)}
            disabled={!match || replaceState.isLoading}
            className={buttonClass}
            data-testid="replace-one"
          >
            {t('editor.replaceOne')}
          </button>
          <button
            type="button"
            onClick={() => run(false)}
            disabled={!matches.length || replaceState.isLoading}
            className={buttonClass}
            data-testid="replace-all"
          >
            {t('editor.replaceAll')}
          </button>
        </div>
      ) : null}
    </div>
  );
}
