import type { FastifyInstance } from 'fastify';
import { ERROR_RESPONSES, HOST_ONLY, SaasDto } from '@earshot/contracts';
import type { ZodTypeProvider } from '@earshot/kit';
import type { SaasService } from '../services/saas';

/** The platform overview: the platform administrator's dashboard. */
export async function saasRoutes(app: FastifyInstance, saas: SaasService): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/dashboards/saas',
    {
      config: { access: HOST_ONLY },
      schema: {
        tags: ['dashboards'],
        summary:
          'Companies by status, members active within 30 days, storage against limits, credits and transcription per company and month (UTC), the top ten this month',
        response: { 200: SaasDto, ...ERROR_RESPONSES },
      },
    },
    async () => saas.overview(),
  );
}
