import { defineService } from '@earshot/kit';
import { migrations } from './db/migrations';

/** The messaging service: a person's notifications and inbox, e-mail templates and outgoing mail. See README.md. */
export const messagingService = defineService({
  name: 'messaging',
  schema: 'messaging',
  prefixes: ['/inbox'],
  migrations,
  async routes() {},
});
