// `npm run audit -- follow`: the reference consumer of the audit trail on Kafka. It reads the
// topic `earshot.audit` in a consumer group, checks every entry as it arrives with the chain's own
// walker (services/audit/src/services/chain.ts: the link to the entry before, the hash recomputed
// from the canonical form), prints each entry as one JSON line, and stops at the first entry that
// does not hold, naming it. An entry's offset is committed only once it held: a follower started
// again in the same group reads the broken entry again rather than past it.
import { Kafka, logLevel, type ConsumerConfig, type KafkaMessage } from 'kafkajs';
import { AUDIT_TOPIC, Envelope, eventDefinition, type EventData } from '@earshot/contracts';
import { ChainWalker, GENESIS, linkOfPublished, type PublishedLink } from '../services/audit/src/services/chain';

export interface FollowOptions {
  brokers: string[];
  clientId: string;
  group: string;
  /** Only this chain: a company id, or `platform` for the platform's own. */
  company?: string;
  /** Entries before this seq are passed over; the first one at or after it starts the walk (see startNote). */
  fromSeq?: number;
  /** Each entry (and anchor) as one JSON line: stdout, for a file or a SIEM. */
  print: (line: string) => void;
  /** Where the walk started and what broke: stderr. */
  note: (line: string) => void;
  /** Stops following (exit code 0 unless a chain broke before). */
  signal?: AbortSignal;
  /** Consumer group timings (kafkajs's); tests lower them for the mock cluster. */
  timings?: Pick<ConsumerConfig, 'sessionTimeout' | 'rebalanceTimeout' | 'heartbeatInterval' | 'maxWaitTimeInMs'>;
}

const entryRecorded = eventDefinition('audit.entry_recorded');
const anchorRecorded = eventDefinition('audit.anchor_recorded');

/** Redeliveries (a relay that published again after a crash) are recognised among this many recent entries of a chain. */
const RECENT = 10_000;

interface Followed {
  walker: ChainWalker;
  lastSeq: number;
  /** seq → hash of the chain's recent entries, oldest first. */
  recent: Map<number, string>;
}

/**
 * Where a chain's walk starts: at its first entry (prevHash the genesis), or at the first entry
 * read, whose prevHash is taken as given — what the follower proves is that nothing from there on
 * was dropped, reordered or changed; the start itself is checked against the database
 * (`npm run audit -- verify`) or a daily anchor.
 */
function startNote(chain: string, link: PublishedLink): string {
  return link.prevHash === GENESIS
    ? `following ${chain} from its first entry (seq ${link.seq})`
    : `following ${chain} from seq ${link.seq}, which follows ${link.prevHash.slice(0, 16)}… (taken as given: check it against \`npm run audit -- verify\` or a daily anchor)`;
}

const chainName = (companyId: string | null) => (companyId ? `company ${companyId}` : 'platform');

/** Follows until a chain breaks (1) or `signal` aborts (0). */
export async function followAudit(options: FollowOptions): Promise<number> {
  const kafka = new Kafka({ clientId: options.clientId, brokers: options.brokers, logLevel: logLevel.WARN });
  const consumer = kafka.consumer({ groupId: options.group, maxWaitTimeInMs: 500, ...options.timings });
  const chains = new Map<string, Followed>();
  let finish: (code: number) => void = () => {};
  const finished = new Promise<number>((resolve) => (finish = resolve));
  let code: number | undefined;
  const end = (result: number) => {
    code ??= result;
    finish(code);
  };
  if (options.signal?.aborted) return 0;
  options.signal?.addEventListener('abort', () => end(0), { once: true });

  /** True when the message holds (or is not this follower's); false after naming what broke. */
  const check = (message: KafkaMessage, partition: number): boolean => {
    const where = `partition ${partition}, offset ${message.offset}`;
    let envelope: Envelope | undefined;
    try {
      const parsed = Envelope.safeParse(JSON.parse(message.value?.toString() ?? ''));
      envelope = parsed.success ? parsed.data : undefined;
    } catch {
      envelope = undefined;
    }
    if (!envelope) {
      options.note(`BROKEN ${AUDIT_TOPIC} ${where}: not an event envelope`);
      return false;
    }
    if (envelope.type === anchorRecorded.type) {
      if (!options.company) options.print(JSON.stringify({ anchor: envelope.data }));
      return true;
    }
    if (envelope.type !== entryRecorded.type || envelope.version !== entryRecorded.version) {
      options.note(
        `BROKEN ${AUDIT_TOPIC} ${where}: ${envelope.type} v${envelope.version} is not an audit entry this build reads`,
      );
      return false;
    }
    const parsed = entryRecorded.data.safeParse(envelope.data);
    if (!parsed.success) {
      options.note(
        `BROKEN ${AUDIT_TOPIC} ${where}: the entry is not in its canonical form (${parsed.error.issues[0]?.message})`,
      );
      return false;
    }
    // The raw entry, not zod's copy: whatever it carries is hashed as it came.
    const { seq, companyId } = parsed.data as EventData<'audit.entry_recorded'>;
    const published = { ...(envelope.data as unknown as PublishedLink), seq };
    const key = companyId ?? 'platform';
    if (options.company && key !== options.company) return true;
    // The key is what keeps a chain in one partition, in order: under another, order is not kept.
    if (message.key?.toString() !== key) {
      options.note(
        `BROKEN ${chainName(companyId)}: seq ${seq} was published under key "${message.key?.toString() ?? ''}", not "${key}" (${where})`,
      );
      return false;
    }
    if (options.fromSeq !== undefined && published.seq < options.fromSeq) return true;
    let chain = chains.get(key);
    if (!chain) {
      chain = { walker: new ChainWalker(published.prevHash), lastSeq: 0, recent: new Map() };
      chains.set(key, chain);
      options.note(startNote(chainName(companyId), published));
    }
    if (published.seq <= chain.lastSeq) {
      // At least once: an entry published again is passed over, if it is the very same entry.
      if (chain.recent.get(published.seq) === published.hash) return true;
      options.note(
        `BROKEN ${chainName(companyId)}: seq ${published.seq} arrives after seq ${chain.lastSeq} and is not the entry first read at that place`,
      );
      return false;
    }
    if (!chain.walker.add(linkOfPublished(published))) {
      options.note(`BROKEN ${chainName(companyId)}: ${chain.walker.broken!.message} (${where})`);
      return false;
    }
    chain.lastSeq = published.seq;
    chain.recent.set(published.seq, published.hash);
    if (chain.recent.size > RECENT) chain.recent.delete(chain.recent.keys().next().value!);
    options.print(JSON.stringify(envelope.data));
    return true;
  };

  await consumer.connect();
  try {
    await consumer.subscribe({ topics: [AUDIT_TOPIC], fromBeginning: true });
    await consumer.run({
      autoCommit: true,
      eachBatchAutoResolve: false,
      eachBatch: async ({ batch, resolveOffset, heartbeat, isRunning, isStale }) => {
        for (const message of batch.messages) {
          if (code !== undefined || !isRunning() || isStale()) return;
          if (!check(message, batch.partition)) return end(1);
          resolveOffset(message.offset);
        }
        await heartbeat();
      },
    });
    return await finished;
  } finally {
    await consumer.disconnect();
  }
}
