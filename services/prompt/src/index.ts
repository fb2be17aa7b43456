import { defineService } from '@earshot/kit';
import { promptConfigShape, type PromptConfig } from './config';
import { migrations } from './db/migrations';
import { aiConfigRoutes } from './routes/ai-config';
import { connectionTester } from './services/connection';
import { modelService } from './services/models';
import { providerService } from './services/providers';

/** The prompt service: AI providers and models (prompts and analyses come later). See README.md. */
export const promptService = defineService<PromptConfig>({
  name: 'prompt',
  schema: 'prompt',
  prefixes: ['/prompts', '/analysis', '/ai'],
  migrations,
  configShape: promptConfigShape,
  async routes(app, ctx) {
    await aiConfigRoutes(app, providerService(ctx), modelService(ctx), connectionTester(ctx));
  },
});

export type { PromptConfig } from './config';
