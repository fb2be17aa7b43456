// Calls of AI Configuration's "Speech models" section (HOST_ADMIN), injected into the app's one RTK Query API.
import type { SpeechModelDto } from '@earshot/contracts';
import { api } from '../../lib/api';

const withTags = api.enhanceEndpoints({ addTagTypes: ['SpeechModels'] });
const at = (name: string, action = '') => `/ai/speech-models/${encodeURIComponent(name)}${action}`;

export const speechModelsApi = withTags.injectEndpoints({
  endpoints: (build) => ({
    speechModels: build.query<SpeechModelDto[], void>({
      query: () => '/ai/speech-models',
      providesTags: ['SpeechModels'],
    }),
    downloadSpeechModel: build.mutation<SpeechModelDto, string>({
      query: (name) => ({ url: at(name, '/download'), method: 'POST' }),
      invalidatesTags: ['SpeechModels'],
    }),
    cancelSpeechModel: build.mutation<SpeechModelDto, string>({
      query: (name) => ({ url: at(name, '/cancel'), method: 'POST' }),
      invalidatesTags: ['SpeechModels'],
    }),
    deleteSpeechModel: build.mutation<SpeechModelDto, string>({
      query: (name) => ({ url: at(name), method: 'DELETE' }),
      invalidatesTags: ['SpeechModels'],
    }),
    makeSpeechModelDefault: build.mutation<SpeechModelDto, string>({
      query: (name) => ({ url: at(name, '/default'), method: 'PUT' }),
      invalidatesTags: ['SpeechModels'],
    }),
  }),
});

export const {
  useSpeechModelsQuery,
  useDownloadSpeechModelMutation,
  useCancelSpeechModelMutation,
  useDeleteSpeechModelMutation,
  useMakeSpeechModelDefaultMutation,
} = speechModelsApi;
