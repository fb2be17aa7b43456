import { defineService } from '@earshot/kit';
import { migrations } from './db/migrations';

/** The tasks service: follow-ups from calls as tasks, and the company calendar. See README.md. */
export const tasksService = defineService({
  name: 'tasks',
  schema: 'tasks',
  prefixes: ['/tasks', '/calendar'],
  migrations,
  async routes() {},
});
