// The transcript editor's calls, injected into the app's one RTK Query API. Every edit
// answers a TranscriptPatch, applied to the cached transcript in place (updateQueryData): a
// 100,000-word transcript is never fetched again for a one-segment change.
import type {
  KnownPerson,
  ReplaceAnswer,
  ReplaceBody,
  SegmentEditBody,
  TranscriptEditsPage,
  TranscriptPatch,
  TranscriptSpeakers,
} from '@earshot/contracts';
import { editIdOf, type Transcript, patchSegments, speakersFrom, transcriptsApi } from '../../entities/transcripts';
import { original } from '@reduxjs/toolkit';
import { queryParams } from '../../lib/query-params';

const base = (fileId: string) => `/transcripts/${encodeURIComponent(fileId)}`;

type Renamed = { speakers: TranscriptSpeakers; editId: string | null };

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
    const patching = <Arg extends FileArg>(request: (arg: Arg) => { url: string; method: string; body?: unknown }) =>
      build.mutation<TranscriptPatch, Arg>({
        query: request,
        invalidatesTags: (result) => (result ? ['TranscriptEdits'] : []),
        async onQueryStarted(arg, { dispatch, queryFulfilled }) {
          const { data } = await queryFulfilled.catch(() => ({ data: null }));
          if (data)
            dispatch(
              transcriptsApi.util.updateQueryData('transcript', arg.fileId, (draft) => applyPatchToDraft(draft, data)),
            );
        },
      });
    return {
      renameSpeaker: build.mutation<Renamed, FileArg & { speakerId: string; name: string }>({
        query: ({ fileId, speakerId, name }) => ({
          url: `${base(fileId)}/speakers/${encodeURIComponent(speakerId)}`,
          method: 'PUT',
          body: { name },
        }),
        transformResponse: (speakers: TranscriptSpeakers, meta) => ({ speakers, editId: editIdOf(meta) }),
        invalidatesTags: (result) => (result ? ['TranscriptEdits', 'TranscriptPeople'] : []),
        async onQueryStarted({ fileId }, { dispatch, queryFulfilled }) {
          const { data } = await queryFulfilled.catch(() => ({ data: null }));
          if (data) {
            dispatch(
              transcriptsApi.util.updateQueryData('transcript', fileId, (draft) => {
                draft.metadata.speakers = speakersFrom(data.speakers, original(draft.metadata.speakers) ?? []);
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
        query: ({ fileId, body }) => ({ url: `${base(fileId)}/replace`, method: 'POST', body }),
        invalidatesTags: (result, _error, { fileId }) =>
          result && result.replaced > 0 ? [{ type: 'Transcript', id: fileId }, 'TranscriptEdits'] : [],
      }),
      edits: build.query<TranscriptEditsPage, FileArg & { cursor?: string }>({
        query: ({ fileId, cursor }) => ({ url: `${base(fileId)}/edits`, params: queryParams({ cursor }) }),
        providesTags: ['TranscriptEdits'],
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
  usePeopleQuery,
} = editorApi;
