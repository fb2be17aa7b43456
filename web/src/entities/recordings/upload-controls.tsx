// Choosing a recording and watching it upload, shared by the transcripts list and the client
// profile: a button opening the file picker, a progress bar with Cancel, and the hook between them.
import { useRef, useState, type ChangeEvent, type ReactElement } from 'react';
import { session } from '../../lib/api';
import { useAppDispatch } from '../../lib/store';
import { uploadFile, type UploadHandle, type UploadResult } from '../../lib/upload';

const AUDIO_TYPES = 'audio/*,.mp3,.wav,.m4a,.aac,.ogg,.opus,.webm,.flac';

export interface UploadInProgress {
  name: string;
  progress: number;
  handle: UploadHandle;
}

/** One upload at a time; `start` resolves with the result once it has ended. */
export function useFileUpload() {
  const dispatch = useAppDispatch();
  const [upload, setUpload] = useState<UploadInProgress | null>(null);
  const start = async (file: File, target: { companyId?: string; clientId?: string }): Promise<UploadResult> => {
    const handle = uploadFile(file, {
      session,
      dispatch,
      ...target,
      onProgress: (progress) => setUpload((current) => (current ? { ...current, progress } : current)),
    });
    setUpload({ name: file.name, progress: 0, handle });
    const result = await handle.done;
    setUpload(null);
    return result;
  };
  return { upload, start };
}

export function UploadButton({
  label,
  disabled,
  onFile,
  className,
}: {
  label: string;
  disabled: boolean;
  onFile: (file: File) => void;
  className: string;
}): ReactElement {
  const input = useRef<HTMLInputElement>(null);
  const onChoose = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (file) onFile(file);
  };
  return (
    <>
      <input
        ref={input}
        type="file"
        accept={AUDIO_TYPES}
        className="sr-only"
        tabIndex={-1}
        aria-hidden="true"
        data-testid="upload-input"
        onChange={onChoose}
        disabled={disabled}
      />
      <button type="button" onClick={() => input.current?.click()} disabled={disabled} className={className}>
        {label}
      </button>
    </>
  );
}

export function UploadProgress({
  upload,
  label,
  cancelLabel,
}: {
  upload: UploadInProgress;
  label: string;
  cancelLabel: string;
}): ReactElement {
  const percent = Math.round(upload.progress * 100);
  return (
    <div
      className="mb-4 flex items-center gap-3 rounded-xl border border-gray-200 bg-white p-3 dark:border-gray-800 dark:bg-gray-900"
      data-testid="upload-progress"
    >
      <div className="min-w-0 flex-1">
        <p className="truncate text-sm text-gray-700 dark:text-gray-300">{label}</p>
        <progress className="mt-2 h-2 w-full accent-brand-600" max={100} value={percent} aria-label={label} />
      </div>
      <span className="w-12 text-right text-sm tabular-nums text-gray-600 dark:text-gray-400">{percent}%</span>
      <button
        type="button"
        onClick={() => upload.handle.cancel()}
        className="rounded-lg border border-gray-300 px-3 py-1.5 text-sm hover:bg-gray-50 dark:border-gray-700 dark:text-gray-200 dark:hover:bg-gray-800"
      >
        {cancelLabel}
      </button>
    </div>
  );
}
