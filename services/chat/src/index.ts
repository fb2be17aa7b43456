import { defineService } from '@earshot/kit';

/** The chat service. See README.md for what it owns. */
export const chatService = defineService({
  name: 'chat',
  schema: 'chat',
  prefixes: ['/chat', '/custom-gpt'],
  migrations: [],
  async routes() {},
});
