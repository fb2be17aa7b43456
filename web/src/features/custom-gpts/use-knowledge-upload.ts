// Knowledge files going up: one after another (the server counts a GPT's files, so a batch that
// would pass the limit is refused file by file, with the server's 409 next to each refused one).
// Each shows its own progress; a refused one stays in the list with the server's reason (413 too
// large, 415 unsupported or not what its name says, 409 too many) until dismissed.
import { useCallback, useRef, useState } from 'react';
import { session } from '../../lib/api';
import { useAppDispatch } from '../../lib/store';
import { uploadFile, type UploadHandle } from '../../lib/upload';
import { customGptsApi, gptPath } from './custom-gpts-api';
import type { KnowledgeFile } from './model';

export interface KnowledgeUpload {
  key: number;
  name: string;
  progress: number;
  phase: 'waiting' | 'sending' | 'refused';
  status: number | null;
  message: string | null;
}

export function useKnowledgeUpload(gptId: string) {
  const dispatch = useAppDispatch();
  const [uploads, setUploads] = useState<KnowledgeUpload[]>([]);
  const queue = useRef<Array<{ key: number; file: File }>>([]);
  const current = useRef<{ key: number; handle: UploadHandle<KnowledgeFile> } | null>(null);
  const nextKey = useRef(1);
  const change = useCallback((key: number, patch: Partial<KnowledgeUpload>) => {
    setUploads((list) => list.map((upload) => (upload.key === key ? { ...upload, ...patch } : upload)));
  }, []);
  const drop = useCallback((key: number) => setUploads((list) => list.filter((upload) => upload.key !== key)), []);

  const pump = useCallback(async () => {
    if (current.current) return;
    for (let item = queue.current.shift(); item; item = queue.current.shift()) {
      const { key, file } = item;
      const handle = uploadFile<KnowledgeFile>(file, {
        session,
        dispatch,
        url: `/api${gptPath(gptId)}/files?type=knowledge`,
        onProgress: (fraction) => change(key, { progress: fraction }),
      });
      current.current = { key, handle };
      change(key, { phase: 'sending' });
      const result = await handle.done;
      current.current = null;
      if (result.ok) {
        drop(key);
        // The new file shows in the list (queued) and the GPT's file count changes.
        dispatch(customGptsApi.util.invalidateTags([{ type: 'KnowledgeFiles', id: gptId }, 'CustomGpts']));
      } else if (result.cancelled) drop(key);
      else change(key, { phase: 'refused', status: result.status, message: result.message });
    }
  }, [change, dispatch, drop, gptId]);

  const add = useCallback(
    (files: File[]) => {
      const items = files.map((file) => ({ key: nextKey.current++, file }));
      queue.current.push(...items);
      setUploads((list) => [
        ...list,
        ...items.map(({ key, file }) => ({
          key,
          name: file.name,
          progress: 0,
          phase: 'waiting' as const,
          status: null,
          message: null,
        })),
      ]);
      void pump();
    },
    [pump],
  );

  /** Stops a file being sent, takes a waiting one out of the queue, or dismisses a refusal. */
  const cancel = useCallback(
    (key: number) => {
      if (current.current?.key === key) return current.current.handle.cancel();
      queue.current = queue.current.filter((item) => item.key !== key);
      drop(key);
    },
    [drop],
  );

  return { uploads, add, cancel };
}
