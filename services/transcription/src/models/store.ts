// What the engines read: the speech models that are ready to use. A model is ready only after its
// download completed and its SHA-256 matched; the engine still re-checks the file's size (and its
// magic) before loading it, and never opens a `.part` file (those are never a ready model's path).
import { DIARIZATION_EMBEDDING, DIARIZATION_SEGMENTATION, type SpeechModelLanguages } from '@earshot/contracts';
import type { Db } from '@earshot/kit';
import { defaultModelRow, modelRow, readyRows, type SpeechModelRow } from '../repositories/speech-models';

export interface ReadyModel {
  name: string;
  /** Absolute path of the checked file. */
  path: string;
  /** 'en' for English-only models: they must refuse any other language. */
  languages: SpeechModelLanguages;
  /** The size the file had when its hash was checked: a file of another size must not be used. */
  sizeBytes: number;
}

const ready = (row: SpeechModelRow): ReadyModel => ({
  name: row.name,
  path: row.path,
  languages: row.languages,
  sizeBytes: row.size,
});

/** The model `name` when it is downloaded and checked; null when absent, downloading or failed. */
export async function readyModel(db: Db, name: string): Promise<ReadyModel | null> {
  const row = await modelRow(db, name);
  return row?.status === 'ready' ? ready(row) : null;
}

/** The default Whisper model when one is ready (the offline engine then uses it); else null. */
export async function defaultWhisperModel(db: Db): Promise<ReadyModel | null> {
  const row = await defaultModelRow(db);
  return row?.status === 'ready' && row.kind === 'whisper' ? ready(row) : null;
}

/** Both diarization models' files when both are ready (one alone is useless); else null. */
export async function diarizationModels(db: Db): Promise<{ segmentation: string; embedding: string } | null> {
  const rows = await readyRows(db, [DIARIZATION_SEGMENTATION, DIARIZATION_EMBEDDING]);
  const path = (name: string) => rows.find((r) => r.name === name)?.path;
  const segmentation = path(DIARIZATION_SEGMENTATION);
  const embedding = path(DIARIZATION_EMBEDDING);
  return segmentation && embedding ? { segmentation, embedding } : null;
}
