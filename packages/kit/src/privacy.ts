import { Readable } from 'node:stream';
import { SYSTEM_ACTOR, type Actor, type EventOf, type PrivacyService, type PrivacySubject } from '@earshot/contracts';
import type { Db } from './db/database';
import { on, type Emit, type HandlerOptions, type HandlerSpec } from './bus/handlers';
import { jsonDocument } from './json-document';
import type { ObjectStorage } from './storage';

/** What a service holds about one person: its JSON, audio objects already in storage, counts. */
export interface PrivacyPart {
  /**
   * The part's JSON by section. A section (or a value inside one) may be a list read page by page
   * (an async iterable, see inPages) or JSON text kept as text (RawJson): the part is written to
   * storage as it is read (jsonDocument), so however much the person has, the service holds a page
   * of it at once and its event loop gets a turn between pages.
   */
  data: Record<string, unknown>;
  /** Counts by kind, read once the JSON is written: a list read page by page counts as it goes (`counted`). */
  counts: Record<string, number>;
  /**
   * Objects to put in the ZIP (a recording's audio): its name there and its key; `encrypted` when
   * it is stored encrypted at rest and must be read through the service's keys. Read once the JSON
   * is written, so a list read page by page may add its objects as it goes.
   */
  objects?: { name: string; key: string; encrypted?: boolean }[];
}

/**
 * The items of a part's list, each mapped to what is written and counted under `name` in `counts`
 * as it is written. The count is there (0) from the start, so an empty list still says so; several
 * lists may add to one count (the messages of each conversation).
 */
export function counted<Row, Item>(
  counts: Record<string, number>,
  name: string,
  rows: AsyncIterable<Row> | Iterable<Row>,
  map: (row: Row) => Item | Promise<Item>,
): AsyncGenerator<Item> {
  counts[name] ??= 0;
  return (async function* () {
    for await (const row of rows) {
      const item = await map(row);
      counts[name] = (counts[name] ?? 0) + 1;
      yield item;
    }
  })();
}

/** What one service's part puts in the ZIP: each file's name there and its object key. */
export type PrivacyManifest = { name: string; key: string }[];

async function putJson(storage: ObjectStorage, key: string, value: unknown): Promise<void> {
  await storage.put(key, Readable.from(jsonDocument(value)), { contentType: 'application/json' });
}

/**
 * A service's part of a person's export: on privacy.export_requested, `collect` says
 * what the service holds about the subject (in the subject's company only), and its JSON is read
 * and written, page by page, to storage under `privacy/<jobId>/<service>.json` and a manifest of what goes in the ZIP (that JSON
 * and the objects) under `privacy/<jobId>/<service>.manifest.json`; the service reports
 * privacy.part_ready with the manifest's key. A service that holds nothing about the subject still answers (empty counts):
 * the coordinator waits for every service of PRIVACY_SERVICES.
 */
export function onExportRequested(
  service: PrivacyService,
  storage: ObjectStorage,
  collect: (tx: Db, subject: PrivacySubject, companyId: string | null) => PrivacyPart | Promise<PrivacyPart>,
  /**
   * Where the part's encrypted objects are read as plain bytes: each is copied, readable, under
   * `privacy/<jobId>/`, since the coordinator that builds the ZIP holds no company key. The
   * others go into the ZIP from where they are stored.
   */
  plain?: ObjectStorage,
): HandlerSpec {
  return on('privacy.export_requested', async (event, tx, emit) => {
    const { jobId, subject } = event.data;
    const part = await collect(tx, subject, event.companyId ?? null);
    const key = `privacy/${jobId}/${service}.json`;
    await putJson(storage, key, { service, subject, ...part.data });
    const manifest = `privacy/${jobId}/${service}.manifest.json`;
    const files: PrivacyManifest = [{ name: `${service}.json`, key }];
    // One copy at a time: a person may have thousands of recordings.
    for (const { name, key: stored, encrypted } of part.objects ?? []) {
      if (!encrypted || !plain) files.push({ name, key: stored });
      else {
        const copy = `privacy/${jobId}/${name}`;
        const info = await plain.stat(stored);
        await storage.put(copy, await plain.get(stored), {
          contentType: info?.contentType ?? 'application/octet-stream',
        });
        files.push({ name, key: copy });
      }
    }
    await putJson(storage, manifest, files);
    emit({
      type: 'privacy.part_ready',
      companyId: event.companyId ?? null,
      actor: event.actor ?? SYSTEM_ACTOR,
      data: { jobId, service, manifest, counts: part.counts },
    });
  });
}

/** One service's erasure of a person, as its handler receives it. */
export interface EraseRequest {
  jobId: string;
  subject: PrivacySubject;
  /** The person's company (null: a platform administrator); a service acts inside it only. */
  companyId: string | null;
  recordings: 'delete' | 'keep';
  /** Who asked: the actor of the events the removal causes. */
  actor: Actor;
}

/**
 * A service's part of erasing a person: on privacy.erase_requested, `erase` removes or
 * anonymises what the service holds about the subject through the service's own deletion paths
 * (their events tell the others' copies), in the handler's transaction, and answers counts by
 * kind; the service reports them with privacy.part_erased in that same transaction. A service
 * that holds nothing still answers (empty counts): the coordinator waits for every service of
 * PRIVACY_SERVICES. The bus applies an event once per consumer, and a second pass would find
 * nothing left to remove, so a redelivery neither removes twice nor reports twice.
 */
export function onEraseRequested(
  service: PrivacyService,
  erase: (tx: Db, emit: Emit, request: EraseRequest) => Promise<Record<string, number>>,
  options: HandlerOptions<EventOf<'privacy.erase_requested'>> = {},
): HandlerSpec {
  return on(
    'privacy.erase_requested',
    async (event, tx, emit) => {
      const { jobId, subject, recordings } = event.data;
      const companyId = event.companyId ?? null;
      const actor = event.actor ?? SYSTEM_ACTOR;
      const counts = await erase(tx, emit, { jobId, subject, companyId, recordings, actor });
      emit({ type: 'privacy.part_erased', companyId, actor, data: { jobId, service, counts } });
    },
    options,
  );
}
