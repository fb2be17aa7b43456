// `npm run models -- list | add <name> | remove <name> | default <name>`: the speech models of the
// machine, as AI Configuration's "Speech models" section manages them, from a terminal. It reads the
// same environment as the services (DATABASE_URL, or the embedded database in DATA_DIR, which one
// process at a time may open: stop the console first) and downloads in this process.
import { existsSync } from 'node:fs';
import { hostname, userInfo } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Actor, SpeechModelDto } from '@earshot/contracts';
import { HttpError, type ServiceContext } from '@earshot/kit';
import { transcriptionService, type TranscriptionConfig } from '../services/transcription/src/index';
import { SpeechModelManager } from '../services/transcription/src/models/manager';
import { formatBytes } from '../services/transcription/src/models/fetch';
import { commandConfig, mountOffline } from './offline-services';

const USAGE =
  'usage: npm run models -- list\n       npm run models -- add <name>\n       npm run models -- remove <name>\n       npm run models -- default <name>';

export interface ModelsCommandOptions {
  env?: NodeJS.ProcessEnv;
  print?: (line: string) => void;
  /** Where the progress bar is drawn; a bar on a terminal, a line per 10 % otherwise. */
  progress?: NodeJS.WriteStream;
}

/** Runs one command; answers the exit code (0 done, 1 failed, 2 bad usage). */
export async function runModelsCommand(argv: readonly string[], options: ModelsCommandOptions = {}): Promise<number> {
  const print = options.print ?? ((line: string) => console.log(line));
  const [command, name, ...extra] = argv;
  const needsName = command === 'add' || command === 'remove' || command === 'default';
  if (!(command === 'list' || needsName) || (needsName && !name) || extra.length > 0 || (command === 'list' && name)) {
    print(USAGE);
    return 2;
  }

  const modules = [transcriptionService];
  const config = commandConfig(modules, options.env ?? process.env);
  if (!config.DATABASE_URL) {
    // PGlite writes this file while a process has the database open, and removes it on close.
    const pid = join(config.DATA_DIR, 'pgdata', 'postmaster.pid');
    if (existsSync(pid)) {
      print(
        `The embedded database in ${join(config.DATA_DIR, 'pgdata')} is open in another process (the console, npm start): ` +
          'stop it first, or use AI Configuration → Speech models in the console. ' +
          `If nothing is running, the console stopped without closing the database: delete ${pid} and try again.`,
      );
      return 1;
    }
  }
  // The events this command emits reach the audit log through the service's own relay.
  const { database, running } = await mountOffline('models', modules, config);
  const ctx = running.contexts.get(transcriptionService.name) as ServiceContext<TranscriptionConfig>;
  const bar = progressPrinter(options.progress ?? process.stdout);
  const manager = new SpeechModelManager(ctx, { onProgress: (_name, done, total) => bar.update(done, total) });
  const actor: Actor = { type: 'system', id: `cli:${userInfo().username}@${hostname()}` };
  let interrupted = false;
  const interrupt = () => {
    interrupted = true;
    // Keeps the partial file: `add` again continues from there.
    void manager.cancel(name!).catch(() => undefined);
  };
  try {
    if (command === 'list') {
      for (const m of await manager.list()) print(describe(m));
      return 0;
    }
    if (command === 'remove') {
      print(describe(await manager.remove(name!, actor)));
      return 0;
    }
    if (command === 'default') {
      print(describe(await manager.makeDefault(name!, actor)));
      return 0;
    }
    // add: a download left behind by a stopped process is continued here rather than refused.
    await manager.start();
    if (!manager.isDownloadingHere(name!)) await manager.download(name!, actor);
    process.once('SIGINT', interrupt);
    await manager.settled(name!);
    bar.end();
    const result = await manager.get(name!);
    print(
      interrupted ? `${name}: stopped; \`npm run models -- add ${name}\` continues the download` : describe(result),
    );
    return result.status === 'ready' ? 0 : 1;
  } catch (error) {
    if (error instanceof HttpError) {
      print(error.message);
      return 1;
    }
    throw error;
  } finally {
    process.off('SIGINT', interrupt);
    await manager.stop();
    await running.stop();
    await database.close();
  }
}

function describe(m: SpeechModelDto): string {
  const state =
    m.status === 'downloading' || (m.status === 'absent' && m.progress > 0)
      ? `${m.status} ${Math.floor(m.progress * 100)}%`
      : m.status;
  const flags = [
    m.isDefault ? 'default' : '',
    m.kind === 'diarization' ? 'speakers' : m.languages === 'en' ? 'English only' : 'multilingual',
  ]
    .filter(Boolean)
    .join(', ');
  return `${m.name.padEnd(26)} ${formatBytes(m.sizeBytes).padStart(8)}  ${state.padEnd(16)} ${flags}${m.error ? `\n    ${m.error}` : ''}`;
}

/** A bar redrawn in place on a terminal; elsewhere (logs, CI) one line per 10 %. */
function progressPrinter(out: NodeJS.WriteStream) {
  let lastTenth = -1;
  let lastDraw = 0;
  let drawn = false;
  return {
    update(done: number, total: number) {
      const share = total > 0 ? Math.min(1, done / total) : 0;
      if (out.isTTY) {
        if (Date.now() - lastDraw < 100 && done < total) return;
        lastDraw = Date.now();
        const width = Math.max(10, Math.min(40, (out.columns ?? 80) - 40));
        const full = Math.round(share * width);
        out.write(
          `\r[${'#'.repeat(full)}${'.'.repeat(width - full)}] ${(share * 100).toFixed(1).padStart(5)}%  ${formatBytes(done)} / ${formatBytes(total)}  `,
        );
        drawn = true;
      } else if (Math.floor(share * 10) > lastTenth) {
        lastTenth = Math.floor(share * 10);
        out.write(`${lastTenth * 10}% (${formatBytes(done)} of ${formatBytes(total)})\n`);
      }
    },
    end() {
      if (drawn) out.write('\n');
    },
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runModelsCommand(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
