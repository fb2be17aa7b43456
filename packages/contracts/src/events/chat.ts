import { defineEvent } from './envelope';

// Events of the chat service join this list as the service grows.
export const chatEvents: ReturnType<typeof defineEvent>[] = [];
