import type { AuditExportEntry } from '@earshot/contracts';
import type { StoredLink } from './chain';
import { CSV_COLUMNS } from './export';

/** Reads back what the CSV export defused: a leading ' before a formula character was added by it. */
const DEFUSED = /^'(?=[=+\-@\t\r])/;

/** RFC 4180 records (CRLF or LF, quoted fields with "" and line breaks inside). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || (c === '\r' && text[i + 1] === '\n')) {
      if (c === '\r') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows;
}

const cellText = (cell: string | undefined): string | null =>
  cell === undefined || cell === '' ? null : cell.replace(DEFUSED, '');
const cellJson = (cell: string | undefined): unknown => {
  const value = cellText(cell);
  return value === null ? null : JSON.parse(value);
};

function linkOfExport(entry: AuditExportEntry): StoredLink {
  return {
    seq: entry.seq,
    prevHash: entry.prevHash,
    hash: entry.hash,
    entry: {
      id: entry._id,
      occurredAt: entry.occurredAt,
      type: entry.type,
      version: entry.version,
      companyId: entry.companyId,
      actor: entry.actor,
      targetType: entry.target.type,
      targetId: entry.target.id,
      before: entry.before,
      after: entry.after,
      data: entry.data,
    },
  };
}

function linksOfCsv(text: string): { companyId: string | null; link: StoredLink }[] {
  const [header, ...rows] = parseCsv(text);
  const missing = CSV_COLUMNS.filter((name) => !header?.includes(name));
  if (missing.length > 0)
    throw new Error(`not an audit export with hashes: the CSV has no ${missing.join(', ')} column`);
  const at = Object.fromEntries(header!.map((name, i) => [name, i]));
  return rows.map((row, line) => {
    const cell = (name: (typeof CSV_COLUMNS)[number]) => row[at[name]!];
    const companyId = cellText(cell('companyId'));
    const seq = Number(cell('seq'));
    if (!Number.isInteger(seq)) throw new Error(`line ${line + 2}: seq is not a number`);
    return {
      companyId,
      link: {
        seq,
        prevHash: cellText(cell('prevHash')),
        hash: cellText(cell('hash')),
        entry: {
          id: cellText(cell('id')) ?? '',
          occurredAt: cellText(cell('occurredAt')) ?? '',
          type: cellText(cell('type')) ?? '',
          version: Number(cell('version')),
          companyId,
          actor: {
            type: cellText(cell('actorType')) ?? '',
            id: cellText(cell('actorId')),
            email: cellText(cell('actorEmail')),
            role: cellText(cell('actorRole')),
            ip: cellText(cell('actorIp')),
          },
          targetType: cellText(cell('targetType')) ?? '',
          targetId: cellText(cell('targetId')),
          before: cellJson(cell('before')),
          after: cellJson(cell('after')),
          data: cellJson(cell('data')),
        },
      },
    };
  });
}

/**
 * An export file (JSON Lines or CSV, as GET /api/audit/export writes them) as chains: each
 * company's links, and the platform's (key null), in seq order.
 */
export function chainsOfExport(text: string): Map<string | null, StoredLink[]> {
  const jsonLines = text.trimStart().startsWith('{');
  const links = jsonLines
    ? text
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => {
          const entry = JSON.parse(line) as AuditExportEntry;
          if (typeof entry.seq !== 'number' || !('hash' in entry))
            throw new Error('not an audit export with hashes: a line has no seq or hash');
          return { companyId: entry.companyId, link: linkOfExport(entry) };
        })
    : linksOfCsv(text);
  const chains = new Map<string | null, StoredLink[]>();
  for (const { companyId, link } of links) {
    const key = companyId || null;
    const list = chains.get(key) ?? [];
    if (list.length === 0) chains.set(key, list);
    list.push(link);
  }
  for (const list of chains.values()) list.sort((a, b) => a.seq - b.seq);
  return chains;
}
