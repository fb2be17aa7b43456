// What the platform has installed, as every page that depends on it reads it: whether a chat model
// is connected (chat, analysis), whether the speech models are installed (upload form), and,
// for the platform administrator, whether mail is set up (the first-run checklist).
import type { ChatModelsDto, SpeechReadinessDto } from '@earshot/contracts';
import { api } from '../../lib/api';

// The tags AI Configuration's own calls invalidate, so a change there shows here at once.
const withTags = api.enhanceEndpoints({ addTagTypes: ['ChatModels', 'SpeechModels', 'Mail'] });

export const platformApi = withTags.injectEndpoints({
  endpoints: (build) => ({
    /** The chat models everyone may pick; `builtIn` when none is connected (analysis then cannot run). */
    chatModels: build.query<ChatModelsDto, void>({
      query: () => '/chat/models',
      providesTags: ['ChatModels'],
    }),
    speechReadiness: build.query<SpeechReadinessDto, void>({
      query: () => '/ai/speech-models/readiness',
      providesTags: ['SpeechModels'],
    }),
    /** HOST_ADMIN: whether an SMTP server delivers mail (the outbox's first page, one row). */
    mailDelivery: build.query<boolean, void>({
      query: () => ({ url: '/email/outbox', params: { page: 1, pageSize: 1 } }),
      transformResponse: (body: { smtp: boolean }) => body.smtp,
      providesTags: ['Mail'],
    }),
  }),
});

export const { useChatModelsQuery, useSpeechReadinessQuery, useMailDeliveryQuery } = platformApi;
