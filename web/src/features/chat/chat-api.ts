// Calls of the chat screen, injected into the app's one RTK Query API. The streamed reply is not
// here: it is read with fetch in chat-stream.ts.
import { api } from '../../lib/api';
import type {
  AnalysisConversations,
  CreateConversationBody,
  FeedbackBody,
  FeedbackDto,
  MessageBody,
  RenameConversationBody,
} from '@earshot/contracts';
import type { Conversation, ConversationList, Feedback, MessageList } from './model';

const withTags = api.enhanceEndpoints({ addTagTypes: ['Conversations', 'Messages'] });

export const chatApi = withTags.injectEndpoints({
  endpoints: (build) => ({
    conversations: build.query<ConversationList, { search: string; pageSize: number }>({
      query: ({ search, pageSize }) => ({
        url: '/chat/conversations',
        params: { page: 1, pageSize, ...(search ? { search } : {}) },
      }),
      providesTags: ['Conversations'],
    }),
    createConversation: build.mutation<Conversation, CreateConversationBody>({
      query: (body) => ({ url: '/chat/conversations', method: 'POST', body }),
      invalidatesTags: ['Conversations'],
    }),
    /** The recording (by file id) and the caller's conversations about it. */
    conversationsAbout: build.query<AnalysisConversations, string>({
      query: (fileId) => `/chat/conversationsByAnalysis/${encodeURIComponent(fileId)}`,
      providesTags: ['Conversations'],
    }),
    renameConversation: build.mutation<Conversation, RenameConversationBody & { id: string }>({
      query: ({ id, title }) => ({
        url: `/chat/conversations/${encodeURIComponent(id)}`,
        method: 'PATCH',
        body: { title },
      }),
      invalidatesTags: ['Conversations'],
    }),
    deleteConversation: build.mutation<MessageBody, string>({
      query: (id) => ({ url: `/chat/conversations/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: ['Conversations'],
    }),
    messages: build.query<MessageList, string>({
      query: (id) => `/chat/conversations/${encodeURIComponent(id)}/messages`,
      providesTags: (_result, _error, id) => [{ type: 'Messages', id }],
    }),
    feedback: build.mutation<FeedbackDto, FeedbackBody & { conversationId: string }>({
      query: ({ messageId, rating, comment }) => ({
        url: '/chat/feedback',
        method: 'POST',
        body: { messageId, rating, ...(comment ? { comment } : {}) },
      }),
      // The saved feedback shows at once; the list is the truth after the next fetch.
      async onQueryStarted({ conversationId, messageId, rating, comment }, { dispatch, queryFulfilled }) {
        try {
          await queryFulfilled;
        } catch {
          return;
        }
        const saved: Feedback = { rating, comment: comment ?? null };
        dispatch(
          chatApi.util.updateQueryData('messages', conversationId, (draft) => {
            const message = draft.items.find((item) => item._id === messageId);
            if (message) message.feedback = saved;
          }),
        );
      },
    }),
  }),
});

export const {
  useConversationsQuery,
  useCreateConversationMutation,
  useConversationsAboutQuery,
  useRenameConversationMutation,
  useDeleteConversationMutation,
  useMessagesQuery,
  useFeedbackMutation,
} = chatApi;
