import { appendFile } from 'node:fs/promises';
import { createSocket } from 'node:dgram';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import { z } from 'zod';
import { SYSTEM_ACTOR } from '@earshot/contracts';
import type { Db, ServiceContext } from '@earshot/kit';
import { insertAnchor, readHeads } from '../repositories/chain';

/**
 * Where the daily anchor goes besides the log output: a file (one JSON line per day, appended) and
 * a syslog server over UDP (RFC 5424, facility "log audit", one message per chain). An auditor
 * keeps either apart from the database, so a rewritten chain and head table still disagree with it.
 */
export const anchorConfigShape = {
  AUDIT_ANCHOR_FILE: z.string().trim().min(1).optional(),
  AUDIT_ANCHOR_SYSLOG: z
    .string()
    .trim()
    .regex(/^udp:\/\/[^/:]+:\d{1,5}$/, 'must be udp://host:port')
    .optional(),
};
export interface AnchorConfig {
  AUDIT_ANCHOR_FILE?: string;
  AUDIT_ANCHOR_SYSLOG?: string;
}

/** How often the job looks whether today (UTC) has its anchor: it lands within this after midnight. */
export const ANCHOR_POLL_MS = 15 * 60 * 1000;

export interface Anchor {
  day: string;
  at: string;
  heads: { chain: string | null; entries: number; head: string | null }[];
}

/** facility 13 (log audit) × 8 + severity 6 (informational). */
const SYSLOG_PRIORITY = 13 * 8 + 6;

async function toSyslog(target: string, anchor: Anchor): Promise<void> {
  const { hostname: host, port } = new URL(target);
  const socket = createSocket(host.includes(':') ? 'udp6' : 'udp4');
  try {
    for (const head of anchor.heads) {
      const message = `<${SYSLOG_PRIORITY}>1 ${anchor.at} ${hostname()} earshot-audit - anchor - ${JSON.stringify({ day: anchor.day, ...head })}`;
      await new Promise<void>((resolve, reject) =>
        socket.send(message, Number(port), host.replace(/^\[|\]$/g, ''), (error) =>
          error ? reject(error) : resolve(),
        ),
      );
    }
  } finally {
    socket.close();
  }
}

/**
 * Writes each chain's head once per UTC day. The day's row in audit.anchors decides which replica
 * (or restart) writes it, so polling more often than daily never writes twice.
 */
export class AnchorJob {
  /**
   * `publish` (distributed mode: the service context's transact) also sends the anchor as
   * `audit.anchor_recorded`, through the outbox in the transaction that records the day's row.
   */
  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
    private readonly config: AnchorConfig,
    private readonly publish?: ServiceContext['transact'],
  ) {}

  /** Today's anchor if this call wrote it; null when the day already has one. */
  async run(now = new Date()): Promise<Anchor | null> {
    const day = now.toISOString().slice(0, 10);
    const heads = (await readHeads(this.db)).map((h) => ({
      chain: h.chainKey || null,
      entries: h.entries,
      head: h.hash,
    }));
    const anchor: Anchor = { day, at: now.toISOString(), heads };
    const written = this.publish
      ? await this.publish(async (tx, emit) => {
          const first = await insertAnchor(tx, day, heads);
          if (first) emit({ type: 'audit.anchor_recorded', companyId: null, actor: SYSTEM_ACTOR, data: { ...anchor } });
          return first;
        })
      : await insertAnchor(this.db, day, heads);
    if (!written) return null;
    this.logger.info({ auditAnchor: anchor }, `audit chain anchor ${day}: ${heads.length} chains`);
    if (this.config.AUDIT_ANCHOR_FILE)
      await appendFile(this.config.AUDIT_ANCHOR_FILE, `${JSON.stringify(anchor)}\n`, { mode: 0o640 });
    if (this.config.AUDIT_ANCHOR_SYSLOG) await toSyslog(this.config.AUDIT_ANCHOR_SYSLOG, anchor);
    return anchor;
  }
}
