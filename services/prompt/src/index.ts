import { defineService } from '@earshot/kit';

/** The prompt service. See README.md for what it owns. */
export const promptService = defineService({
  name: 'prompt',
  schema: 'prompt',
  prefixes: ['/prompts', '/analysis', '/ai'],
  migrations: [],
  async routes() {},
});
