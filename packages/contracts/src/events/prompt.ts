import { defineEvent } from './envelope';

// Events of the prompt service join this list as the service grows.
export const promptEvents: ReturnType<typeof defineEvent>[] = [];
