// `npm run events -- parked [--service X]` lists events whose handler kept failing and was parked
// (after EVENT_MAX_ATTEMPTS); `npm run events -- replay <event id>|--all [--service X]` applies them
// again once the cause is fixed. It reads the same environment as the services (DATABASE_URL, or
// the embedded database in DATA_DIR: stop the console first, PGlite allows one process).
import { pathToFileURL } from 'node:url';
import type { Database, ParkedEvent, ServiceModule } from '@earshot/kit';
import { ALL_SERVICES } from '../gateway/src/modules';
import { commandConfig, mountOffline } from './offline-services';

const USAGE =
  'usage: npm run events -- parked [--service <name>]\n       npm run events -- replay <event id>|--all [--service <name>]';

export interface EventsCommandOptions {
  env?: NodeJS.ProcessEnv;
  /** An open database (tests); otherwise the one the environment names. */
  database?: Database;
  modules?: readonly ServiceModule[];
  print?: (line: string) => void;
}

/** Runs one command; returns the process exit code (0: done, 1: something failed, 2: bad usage). */
export async function runEventsCommand(argv: readonly string[], options: EventsCommandOptions = {}): Promise<number> {
  const print = options.print ?? ((line: string) => console.log(line));
  const [command, ...rest] = argv;
  const serviceAt = rest.indexOf('--service');
  const service = serviceAt >= 0 ? rest[serviceAt + 1] : undefined;
  const args = serviceAt >= 0 ? rest.filter((_, i) => i !== serviceAt && i !== serviceAt + 1) : rest;
  const all = options.modules ?? ALL_SERVICES;
  const modules = service ? all.filter((m) => m.name === service) : all;
  if (
    (command !== 'parked' && command !== 'replay') ||
    (serviceAt >= 0 && modules.length === 0) ||
    (command === 'replay' && args.length !== 1)
  ) {
    print(
      serviceAt >= 0 && modules.length === 0
        ? `unknown service "${service}" (one of: ${all.map((m) => m.name).join(', ')})`
        : USAGE,
    );
    return 2;
  }

  // The services' handlers without their traffic: events a replayed handler emits wait in the
  // outbox for the service's own relay.
  const { database, running } = await mountOffline(
    'events',
    modules,
    commandConfig(modules, options.env ?? process.env),
    options.database,
  );
  try {
    if (command === 'parked') {
      const rows: (ParkedEvent & { service: string })[] = [];
      for (const [name, consumer] of running.consumers)
        rows.push(...(await consumer.parked()).map((p) => ({ ...p, service: name })));
      if (rows.length === 0) print('No parked events.');
      for (const r of rows)
        print(
          `${r.eventId}  ${r.service}  ${r.type}  attempts=${r.attempts}  parked=${r.parkedAt.toISOString()}  error=${r.error}`,
        );
      return 0;
    }
    const eventId = args[0] === '--all' ? undefined : args[0];
    let failures = 0;
    let replayed = 0;
    for (const [name, consumer] of running.consumers) {
      const outcome = await consumer.replay(eventId);
      replayed += outcome.replayed.length;
      for (const id of outcome.replayed) print(`replayed ${id} (${name})`);
      for (const f of outcome.failed) print(`still failing ${f.eventId} (${name}): ${f.error}`);
      failures += outcome.failed.length;
    }
    if (replayed + failures === 0) print(eventId ? `No parked event ${eventId}.` : 'No parked events.');
    return failures > 0 || (eventId && replayed === 0) ? 1 : 0;
  } finally {
    await running.stop();
    if (!options.database) await database.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runEventsCommand(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
