// The transcript editor's calls, injected into the app's one RTK Query API. Every edit
// answers a TranscriptPatch, applied to the cached transcript in place (updateQueryData): a
// 100,000-word transcript is never fetched again for a one-segment change. Every edit sends the
// version of the cached transcript (If-Match), so an edit made on words someone else has changed
// since is refused (409, see isStaleEdit) instead of silently overwriting theirs.
import type {
  KnownPerson,
  ReplaceAnswer,
  ReplaceBody,
  SegmentEditBody,
  TranscriptEditsPage,
  TranscriptPatch,
  TranscriptSpeakers,
  TranscriptUndoStack,
} from '@earshot/contracts';
import {
  editIdOf,
  versionOf,
  type Transcript,
  patchSegments,
  speakersFrom,
  transcriptsApi,
} from '../../entities/transcripts';
import { original } from '@reduxjs/toolkit';
import { queryParams } from '../../lib/query-params';

const base = (fileId: string) => `/transcripts/${encodeURIComponent(fileId)}`;

type Renamed = { speakers: TranscriptSpeakers; editId: string | null; version?: number };
type Request = { url: string; method: string; body?: unknown };
type State = Parameters<ReturnType<typeof transcriptsApi.endpoints.transcript.select>>[0];

/** The request with the cached transcript's version as If-Match (none known: sent without, applied as before). */
function onVersion(request: Request, state: unknown, fileId: string): Request & { headers?: Record<string, string> } {
  const version = transcriptsApi.endpoints.transcript.select(fileId)(state as State).data?.version;
  return version === undefined ? request : { ...request, headers: { 'If-Match': `"${version}"` } };
}

/** A 409 because someone else edited the transcript since it was read: reload, then edit again. */
export function isStaleEdit(error: unknown): boolean {
  if (!error || typeof error !== 'object' || (error as { status?: unknown }).status !== 409) return false;
  const data = (error as { data?: { details?: { reason?: unknown } } }).data;
  return data?.details?.reason === 'stale_version';
}

/** Keeps the cached transcript's version in step with the edits this editor made. */
function setVersion(draft: Transcript, version: number | undefined): void {
  if (version !== undefined) draft.version = version;
}

/** Sets the answer's segments and speakers on a draft of the cached transcript. */
export function applyPatchToDraft(
  draft: Transcript,
  patch: Pick<TranscriptPatch, 'removed' | 'segments' | 'speakers'>,
): void {
  // The plain array, not immer's proxies: touching 10,000 drafts would cost more than the edit.
  const segments = original(draft.metadata.speakerSegments) ?? draft.metadata.speakerSegments;
  const speakers = original(draft.metadata.speakers) ?? draft.metadata.speakers;
  draft.metadata.speakerSegments = patchSegments(segments, patch);
  draft.metadata.speakers = speakersFrom(patch.speakers, speakers);
}

type FileArg = { fileId: string };

const withTags = transcriptsApi.enhanceEndpoints({ addTagTypes: ['TranscriptEdits', 'TranscriptPeople'] });

export const editorApi = withTags.injectEndpoints({
  endpoints: (build) => {
    /** A mutation answering a patch: applied to the cache on success; the history is read again. */
    const patching = <Arg extends FileArg>(request: (arg: Arg) => Request) =>
      build.mutation<TranscriptPatch, Arg>({
        async queryFn(arg, api, _extra, baseQuery) {
          const result = await baseQuery(onVersion(request(arg), api.getState(), arg.fileId));
          return result.error ? { error: result.error } : { data: result.data as TranscriptPatch };
        },
        invalidatesTags: (result) => (result ? ['TranscriptEdits'] : []),
        async onQueryStarted(arg, { dispatch, queryFulfilled }) {
          const { data } = await queryFulfilled.catch(() => ({ data: null }));
          if (data)
            dispatch(
              transcriptsApi.util.updateQueryData('transcript', arg.fileId, (draft) => {
                applyPatchToDraft(draft, data);
                setVersion(draft, data.version);
              }),
            );
        },
      });
    return {
      renameSpeaker: build.mutation<Renamed, FileArg & { speakerId: string; name: string }>({
        async queryFn({ fileId, speakerId, name }, api, _extra, baseQuery) {
          const request = { url: `${base(fileId)}/speakers/${encodeURIComponent(speakerId)}`, method: 'PUT' };
          const result = await baseQuery(onVersion({ ...request, body: { name } }, api.getState(), fileId));
          if (result.error) return { error: result.error };
          const speakers = result.data as TranscriptSpeakers;
          return { data: { speakers, editId: editIdOf(result.meta), version: versionOf(result.meta) } };
        },
        invalidatesTags: (result) => (result ? ['TranscriptEdits', 'TranscriptPeople'] : []),
        async onQueryStarted({ fileId }, { dispatch, queryFulfilled }) {
          const { data } = await queryFulfilled.catch(() => ({ data: null }));
          if (data) {
            dispatch(
              transcriptsApi.util.updateQueryData('transcript', fileId, (draft) => {
                draft.metadata.speakers = speakersFrom(data.speakers, original(draft.metadata.speakers) ?? []);
                setVersion(draft, data.version);
              }),
            );
          }
        },
      }),
      mergeSpeakers: patching<FileArg & { from: string; into: string }>(({ fileId, from, into }) => ({
        url: `${base(fileId)}/speakers/merge`,
        method: 'POST',
        body: { from, into },
      })),
      editSegment: patching<FileArg & { segmentId: string; body: SegmentEditBody }>(({ fileId, segmentId, body }) => ({
        url: `${base(fileId)}/segments/${encodeURIComponent(segmentId)}`,
        method: 'PUT',
        body,
      })),
      splitSegment: patching<FileArg & { segmentId: string; wordId: string }>(({ fileId, segmentId, wordId }) => ({
        url: `${base(fileId)}/segments/${encodeURIComponent(segmentId)}/split`,
        method: 'POST',
        body: { wordId },
      })),
      mergeSegment: patching<FileArg & { segmentId: string }>(({ fileId, segmentId }) => ({
        url: `${base(fileId)}/segments/${encodeURIComponent(segmentId)}/merge`,
        method: 'POST',
        body: {},
      })),
      undoEdit: patching<FileArg & { editId: string }>(({ fileId, editId }) => ({
        url: `${base(fileId)}/edits/${encodeURIComponent(editId)}/undo`,
        method: 'POST',
        body: {},
      })),
      redoEdit: patching<FileArg & { editId: string }>(({ fileId, editId }) => ({
        url: `${base(fileId)}/edits/${encodeURIComponent(editId)}/redo`,
        method: 'POST',
        body: {},
      })),
      /** Replace answers a count, not a patch: the transcript is read again (replace-all may touch every segment). */
      replace: build.mutation<ReplaceAnswer, FileArg & { body: ReplaceBody }>({
        async queryFn({ fileId, body }, api, _extra, baseQuery) {
          const result = await baseQuery(
            onVersion({ url: `${base(fileId)}/replace`, method: 'POST', body }, api.getState(), fileId),
          );
          return result.error ? { error: result.error } : { data: result.data as ReplaceAnswer };
        },
        invalidatesTags: (result, _error, { fileId }) =>
          result && result.replaced > 0 ? [{ type: 'Transcript', id: fileId }, 'TranscriptEdits'] : [],
      }),
      edits: build.query<TranscriptEditsPage, FileArg & { cursor?: string }>({
        query: ({ fileId, cursor }) => ({ url: `${base(fileId)}/edits`, params: queryParams({ cursor }) }),
        providesTags: ['TranscriptEdits'],
      }),
      /** The caller's own undo and redo stacks, read when the editor opens (its reducer follows the session). */
      undoStack: build.query<TranscriptUndoStack, string>({
        query: (fileId) => `${base(fileId)}/edits/mine`,
        keepUnusedDataFor: 0,
      }),
      people: build.query<KnownPerson[], string>({
        query: (fileId) => ({ url: '/transcripts/people', params: queryParams({ fileId }) }),
        providesTags: ['TranscriptPeople'],
      }),
    };
  },
});

export const {
  useRenameSpeakerMutation,
  useMergeSpeakersMutation,
  useEditSegmentMutation,
  useSplitSegmentMutation,
  useMergeSegmentMutation,
  useUndoEditMutation,
  useRedoEditMutation,
  useReplaceMutation,
  useEditsQuery,
  useLazyUndoStackQuery,
  usePeopleQuery,
} = editorApi;
