// A transcript as the library, the editor and the analysis page share it: its model and calls,
// formatting, speakers and their colours, word selection and search, playback with the waveform,
// exports, the links between the viewer and the analysis page, and the tasks made from a
// transcript (a selection made into a task, an analysis run's action items).
export { catalogue as analysisCatalogue } from './analysis-i18n';
export { AnalysisLink } from './analysis-link';
export {
  type AnalysisRun,
  type AvailablePrompt,
  type CallMetrics,
  type FormatField,
  isActive,
  NO_CHAT_MODEL,
  type Pattern,
  rangePosition,
  runJson,
  runMarkdown,
  RUNS_POLL_MS,
  scorecard,
  type ScoreEntry,
} from './analysis-model';
export { ActionItemsPanel } from './action-items';
export { AskAboutRecording } from './ask-about-recording';
export { editIdOf, versionOf } from './edit-id';
export { downloadExport, downloadThrough, EXPORT_FORMATS, type ExportFormat } from './export-file';
export { findMatches, stepMatch } from './find-matches';
export { formatClock, formatDate, formatSize, formatSpan } from './format';
export {
  type FileItem,
  isBusy,
  PAGE_SIZE,
  POLL_MS,
  type Segment,
  type Speaker,
  TOAST_MS,
  type Transcript,
  type Word,
  WORD_UPDATED,
} from './model';
export { createPlaybackStore, PlaybackContext, usePlaybackStore, useRowHighlight } from './playback-store';
export { type Player, PlayerContext, seek, seekAndPlay, togglePlay, usePlayer } from './player';
export { recognitionLine } from './recognition';
export { SelectionTaskBar } from './selection-task-bar';
export { assignSpeakerColors, knownSpeakers, SPEAKER_COLORS, speakerColors, speakerInitial } from './speaker-colors';
export { clampStart, parseStartTime } from './start-time';
export { patchSegments, speakersFrom } from './transcript-patch';
export {
  type Option,
  transcriptsApi,
  useDeleteFileMutation,
  useFilesQuery,
  usePeaksQuery,
  useTranscribeMutation,
  useTranscriptQuery,
  useUpdateWordMutation,
} from './transcripts-api';
export { isUnsure, nextUnsureWord } from './unsure-words';
export { catalogue as viewerCatalogue } from './viewer-i18n';
export { type PlayerError, WaveformBar } from './waveform-bar';
export { extendSelection, selectedWordIds, type WordSelection } from './word-selection';
