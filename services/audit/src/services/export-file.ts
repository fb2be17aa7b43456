import type { AuditExportEntry } from '@earshot/contracts';
import { chainEntryOf, type StoredLink } from './chain';
import { CSV_COLUMNS } from './export';

/** Reads back what the CSV export defused: a leading ' before a formula character was added by it. */
const DEFUSED = /^'(?=[=+\-@\t\r])/;

/**
 * Why the verifier refuses a file before looking at any chain: it is not what the export writes.
 * Whatever an entry carries beyond the canonical form is outside its hash, so a file that carries
 * more could say anything there unchecked; it is refused rather than verified around.
 */
export class ExportFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExportFormatError';
  }
}

/** One CSV record and the line of the file it starts on (a quoted cell may hold line breaks). */
interface CsvRecord {
  cells: string[];
  line: number;
}

/** RFC 4180 records (CRLF or LF, quoted fields with "" and line breaks inside). */
function csvRecords(text: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let start = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\n') line++;
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
      if (c === '\r') {
        i++;
        line++;
      }
      row.push(field);
      records.push({ cells: row, line: start });
      row = [];
      field = '';
      start = line;
    } else field += c;
  }
  if (field !== '' || row.length > 0) records.push({ cells: [...row, field], line: start });
  return records;
}

/** The cells of each record, without where they start. */
export function parseCsv(text: string): string[][] {
  return csvRecords(text).map((record) => record.cells);
}

const cellText = (cell: string | undefined): string | null =>
  cell === undefined || cell === '' ? null : cell.replace(DEFUSED, '');

/**
 * The members of an exported entry, at each level the canonical form reads (see chain.ts): `_id`
 * is its id, and seq, prevHash and hash place it in the chain. Written out here rather than taken
 * from the export's schema: a member added there without a new CHAIN_VERSION is outside the hash,
 * and the verifier must refuse it, not pass it.
 */
const ENTRY_FIELDS = [
  '_id',
  'occurredAt',
  'type',
  'version',
  'companyId',
  'actor',
  'target',
  'before',
  'after',
  'data',
  'seq',
  'prevHash',
  'hash',
] as const;
const ACTOR_FIELDS = ['type', 'id', 'email', 'role', 'ip'];
const TARGET_FIELDS = ['type', 'id'];

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** `field "a" is` or `fields "a", "b" are`: a refusal names what it refuses. */
const named = (what: string, names: readonly string[]): string =>
  `${what}${names.length === 1 ? '' : 's'} ${names.map((name) => JSON.stringify(name)).join(', ')} ${names.length === 1 ? 'is' : 'are'}`;
const OUTSIDE = 'outside the canonical form, which the hash does not cover';

/** Fields of `value` that `allowed` does not name, as paths (`actor.nickname`). */
const unknownFields = (value: Record<string, unknown>, allowed: readonly string[], path = ''): string[] =>
  Object.keys(value)
    .filter((key) => !allowed.includes(key))
    .map((key) => `${path}${key}`);

/** One JSON Lines entry, checked to hold exactly the fields the export writes; `line` counts from 1. */
function entryOfJsonLine(text: string, line: number): AuditExportEntry {
  let entry: unknown;
  try {
    entry = JSON.parse(text);
  } catch {
    throw new ExportFormatError(`line ${line}: not a JSON entry`);
  }
  if (!isObject(entry)) throw new ExportFormatError(`line ${line}: not a JSON entry`);
  if (typeof entry.seq !== 'number' || !('hash' in entry))
    throw new ExportFormatError(`not an audit export with hashes: line ${line} has no seq or hash`);
  const at = `line ${line} (entry ${typeof entry._id === 'string' ? entry._id : 'without an id'})`;
  for (const name of ['actor', 'target'] as const)
    if (!isObject(entry[name])) throw new ExportFormatError(`${at}: field "${name}" is not an object`);
  const extra = [
    ...unknownFields(entry, ENTRY_FIELDS),
    ...unknownFields(entry.actor as Record<string, unknown>, ACTOR_FIELDS, 'actor.'),
    ...unknownFields(entry.target as Record<string, unknown>, TARGET_FIELDS, 'target.'),
  ];
  if (extra.length > 0) throw new ExportFormatError(`${at}: ${named('field', extra)} ${OUTSIDE}`);
  const missing = ENTRY_FIELDS.filter((name) => !(name in entry));
  if (missing.length > 0) throw new ExportFormatError(`${at}: ${named('field', missing)} missing`);
  return entry as unknown as AuditExportEntry;
}

function linkOfExport(entry: AuditExportEntry): StoredLink {
  return {
    seq: entry.seq,
    prevHash: entry.prevHash,
    hash: entry.hash,
    entry: chainEntryOf({ ...entry, id: entry._id }),
  };
}

function linksOfCsv(text: string): { companyId: string | null; link: StoredLink }[] {
  const [head, ...records] = csvRecords(text);
  const header = head?.cells ?? [];
  const missing = CSV_COLUMNS.filter((name) => !header.includes(name));
  if (missing.length > 0)
    throw new ExportFormatError(`not an audit export with hashes: the CSV has no ${missing.join(', ')} column`);
  const unknown = header.filter((name) => !(CSV_COLUMNS as readonly string[]).includes(name));
  if (unknown.length > 0) throw new ExportFormatError(`line 1: ${named('column', unknown)} ${OUTSIDE}`);
  const twice = [...new Set(header.filter((name, i) => header.indexOf(name) !== i))];
  if (twice.length > 0) throw new ExportFormatError(`line 1: ${named('column', twice)} in the header more than once`);
  const at = Object.fromEntries(header.map((name, i) => [name, i]));
  return records.map(({ cells: row, line }) => {
    if (row.length > header.length)
      throw new ExportFormatError(
        `line ${line}: ${row.length} cells where the header names ${header.length} columns: cell ${header.length + 1} has no column`,
      );
    if (row.length < header.length)
      throw new ExportFormatError(
        `line ${line}: ${row.length} cells where the header names ${header.length} columns: no cell for column "${header[row.length]}"`,
      );
    const cell = (name: (typeof CSV_COLUMNS)[number]) => row[at[name]!];
    const cellJson = (name: 'before' | 'after' | 'data'): unknown => {
      const value = cellText(cell(name));
      try {
        return value === null ? null : JSON.parse(value);
      } catch {
        throw new ExportFormatError(`line ${line}: column "${name}" is not JSON`);
      }
    };
    const companyId = cellText(cell('companyId'));
    const seq = Number(cell('seq'));
    if (!Number.isInteger(seq)) throw new ExportFormatError(`line ${line}: seq is not a number`);
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
          before: cellJson('before'),
          after: cellJson('after'),
          data: cellJson('data'),
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
    ? text.split('\n').flatMap((line, i) => {
        if (line.trim() === '') return [];
        const entry = entryOfJsonLine(line, i + 1);
        return [{ companyId: entry.companyId, link: linkOfExport(entry) }];
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
