// `npm run audit -- verify [--company <id>] [--file <export.jsonl|export.csv>]` checks the audit
// log's hash chains without the server: from the database the services use (DATABASE_URL, or the
// embedded one in DATA_DIR: stop the console first), or from a file the audit page exported.
// Without --company every chain is checked (each company's and the platform's own). Each chain
// gets one line; a broken one names its first broken link. Exit code 1 when any chain is broken,
// or when the file is not exactly what the export writes: a field, column or cell beyond the
// canonical form is outside every hash, so the file is refused (one REFUSED line naming it and
// its line) before any chain is looked at. `npm run audit -- follow` follows the chains live
// from Kafka instead (scripts/audit-follow.ts).
import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import type { Database } from '@earshot/kit';
import { auditService } from '../services/audit/src';
import { chainKeys } from '../services/audit/src/repositories/chain';
import {
  ChainWalker,
  GENESIS,
  chainKeyOf,
  type ChainState,
  type StoredLink,
} from '../services/audit/src/services/chain';
import { AuditChain } from '../services/audit/src/services/chain-log';
import { chainsOfExport, ExportFormatError } from '../services/audit/src/services/export-file';
import { commandConfig, mountOffline } from './offline-services';
import { followAudit, type FollowOptions } from './audit-follow';

const USAGE = [
  'usage: npm run audit -- verify [--company <id>] [--file <export.jsonl|export.csv>]',
  '       npm run audit -- follow [--company <id>|platform] [--from-seq <n>] [--group <name>]   (KAFKA_BROKERS)',
].join('\n');
/** The consumer group a follower joins unless told: one per consumer that keeps its own place. */
const FOLLOW_GROUP = 'earshot-audit-follow';

export interface AuditCommandOptions {
  env?: NodeJS.ProcessEnv;
  /** An open database (tests); otherwise the one the environment names. */
  database?: Database;
  print?: (line: string) => void;
  /** `follow`: where the notes go (stderr), what stops it, and the group's timings (tests). */
  note?: (line: string) => void;
  signal?: AbortSignal;
  timings?: FollowOptions['timings'];
}

const chainName = (companyId: string | null) => (companyId ? `company ${companyId}` : 'platform');

function describe(companyId: string | null, state: ChainState, note = ''): string {
  const head = state.head ? state.head.slice(0, 16) : '-';
  if (state.brokenAt)
    return `BROKEN ${chainName(companyId)}: ${state.brokenAt.message} (${state.entries} entries hold before it)`;
  return `ok     ${chainName(companyId)}: ${state.entries} entries, head ${head}${note}`;
}

/** An export's chain: it may start after the genesis (an export from a date on); it is verified from its first entry. */
function verifyExported(links: StoredLink[]): { state: ChainState; note: string } {
  const start = links[0]?.prevHash ?? GENESIS;
  const walker = new ChainWalker(start);
  for (const link of links) if (!walker.add(link)) break;
  const note =
    start === GENESIS
      ? ''
      : ` (from seq ${links[0]!.seq}, which follows ${start.slice(0, 16)}: the export starts mid-chain)`;
  return { state: walker.state(), note };
}

/** Runs one command; returns the process exit code (0: every chain holds, 1: one is broken or the file is refused, 2: bad usage). */
export async function runAuditCommand(argv: readonly string[], options: AuditCommandOptions = {}): Promise<number> {
  const print = options.print ?? ((line: string) => console.log(line));
  const [command, ...rest] = argv;
  const value = (flag: string) => (rest.includes(flag) ? rest[rest.indexOf(flag) + 1] : undefined);
  const company = value('--company');
  const file = value('--file');
  const known = new Set(command === 'follow' ? ['--company', '--from-seq', '--group'] : ['--company', '--file']);
  const flags = rest.filter((_, i) => i % 2 === 0);
  if (
    !['verify', 'follow'].includes(command ?? '') ||
    flags.some((flag) => !known.has(flag)) ||
    rest.length % 2 !== 0
  ) {
    print(USAGE);
    return 2;
  }
  if (command === 'follow') {
    const env = options.env ?? process.env;
    const fromSeq = value('--from-seq');
    if (!env.KAFKA_BROKERS || (fromSeq !== undefined && !/^[1-9]\d{0,15}$/.test(fromSeq))) {
      print(env.KAFKA_BROKERS ? '--from-seq must be a positive whole number' : 'follow reads Kafka: set KAFKA_BROKERS');
      return 2;
    }
    return followAudit({
      brokers: env.KAFKA_BROKERS.split(','),
      clientId: env.KAFKA_CLIENT_ID ?? 'earshot-audit-follow',
      group: value('--group') ?? FOLLOW_GROUP,
      company,
      fromSeq: fromSeq === undefined ? undefined : Number(fromSeq),
      print,
      note: options.note ?? ((line) => console.error(line)),
      signal: options.signal,
      timings: options.timings,
    });
  }
  let broken = 0;
  if (file) {
    let chains: Map<string | null, StoredLink[]>;
    try {
      chains = chainsOfExport(await readFile(file, 'utf8'));
    } catch (error) {
      if (!(error instanceof ExportFormatError)) throw error;
      print(`REFUSED ${file}: ${error.message}`);
      return 1;
    }
    const selected = company ? [[company, chains.get(company) ?? []] as const] : [...chains.entries()];
    if (selected.length === 0) print('The file holds no audit entries.');
    for (const [companyId, links] of selected) {
      const { state, note } = verifyExported(links);
      if (state.brokenAt) broken += 1;
      print(describe(companyId, state, note));
    }
    return broken > 0 ? 1 : 0;
  }
  const { database, running } = await mountOffline(
    'audit',
    [auditService],
    commandConfig([auditService], options.env ?? process.env),
    options.database,
  );
  try {
    const { db } = running.contexts.get('audit')!;
    const chain = new AuditChain(db);
    const keys = company ? [chainKeyOf(company)] : await chainKeys(db);
    for (const key of keys) {
      const state = await chain.verifyChain(key);
      if (state.brokenAt) broken += 1;
      print(describe(key || null, state));
    }
    return broken > 0 ? 1 : 0;
  } finally {
    await running.stop();
    if (!options.database) await database.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  // `follow` runs until a chain breaks or it is told to stop (Ctrl-C, a service manager's SIGTERM).
  const stop = new AbortController();
  process.once('SIGINT', () => stop.abort());
  process.once('SIGTERM', () => stop.abort());
  runAuditCommand(process.argv.slice(2), { signal: stop.signal }).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
