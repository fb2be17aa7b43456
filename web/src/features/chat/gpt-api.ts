// The custom GPTs the caller may chat with. Only the lazy picker and intro import this file, so
// the chat page's own chunk does not grow with it.
import { api } from '../../lib/api';
import type { GptOption } from './model';

export const gptOptionsApi = api.injectEndpoints({
  endpoints: (build) => ({
    chatGptOptions: build.query<GptOption[], void>({ query: () => '/custom-gpt/dropdown' }),
  }),
});

export const { useChatGptOptionsQuery } = gptOptionsApi;
