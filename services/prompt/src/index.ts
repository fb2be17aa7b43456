import { serveProviderKeysInProcess } from '@earshot/ai';
import { ConfigError, defineService, type ServiceContext } from '@earshot/kit';
import { promptConfigShape, type PromptConfig } from './config';
import { migrations } from './db/migrations';
import { aiConfigRoutes } from './routes/ai-config';
import { internalRoutes } from './routes/internal';
import { patternRoutes } from './routes/patterns';
import { promptRoutes } from './routes/prompts';
import { ConnectionTester } from './services/connection';
import { ModelService } from './services/models';
import { PatternService } from './services/patterns';
import { PromptService } from './services/prompts';
import { ProviderService } from './services/providers';

function services(ctx: ServiceContext<PromptConfig>) {
  const tester = new ConnectionTester(ctx.config);
  const providers = new ProviderService(ctx, tester);
  return { providers, models: new ModelService(ctx, providers, tester) };
}

/** The prompt service: AI providers and models, prompts and analysis patterns. See README.md. */
export const promptService = defineService<PromptConfig>({
  name: 'prompt',
  schema: 'prompt',
  prefixes: ['/prompts', '/analysis', '/ai'],
  migrations,
  configShape: promptConfigShape,
  async routes(app, ctx) {
    const { providers, models } = services(ctx);
    // Chat and transcription mounted in this same process (all-in-one) ask for keys here.
    serveProviderKeysInProcess(ctx.database, providers);
    await aiConfigRoutes(app, providers, models);
    await promptRoutes(app, new PromptService(ctx));
    await patternRoutes(app, new PatternService(ctx));
  },
  async internalRoutes(app, ctx) {
    const token = ctx.config.INTERNAL_API_TOKEN;
    if (!token) throw new ConfigError(['INTERNAL_API_TOKEN: required when the prompt service runs on its own (chat and transcription ask it for provider keys)']);
    await internalRoutes(app, services(ctx).providers, token);
  },
});

export type { PromptConfig } from './config';
