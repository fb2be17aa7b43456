// A stand-in service for routing tests: on the contracts' own prefixes of a service, it answers
// every request with the service's name and the path it was asked, so a test reads which upstream
// the gateway chose and that the path reached it unchanged.
import { SERVICE_ROUTES } from '@earshot/contracts';
import { defineService } from '@earshot/kit';

/** Stand-ins answering with their name and the path they were asked, on the contracts' own prefixes. */
export function pathEcho(name: string) {
  const prefixes = SERVICE_ROUTES.find((s) => s.name === name)!.prefixes;
  return defineService({
    name,
    schema: `${name}_prefix_test`,
    prefixes,
    migrations: [],
    async routes(app) {
      for (const prefix of prefixes) {
        for (const path of [prefix, `${prefix}/*`]) {
          app.route({
            method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
            url: path,
            config: { access: 'public', csrfExempt: true },
            handler: async (request) => ({ service: name, url: request.url }),
          });
        }
      }
    },
  });
}
