import { Readable } from 'node:stream';
import { SYSTEM_ACTOR, type Actor, type EventOf, type PrivacyService, type PrivacySubject } from '@earshot/contracts';
import type { Db } from './db/database';
import { on, type Emit, type HandlerOptions, type HandlerSpec } from './bus/handlers';
import type { ObjectStorage } from './storage';

/** What a service holds about one person: its JSON, audio objects already in storage, counts. */
export interface PrivacyPart {
  data: Record<string, unknown>;
  counts: Record<string, number>;
  /**
   * Objects to put in the ZIP (a recording's audio): its name there and its key; `encrypted` when
   * it is stored encrypted at rest and must be read through the service's keys.
   */
  objects?: { name: string; key: string; encrypted?: boolean }[];
}

/** What one service's part puts in the ZIP: each file's name there and its object key. */
export type PrivacyManifest = { name: string; key: string }[];

async function putJson(storage: ObjectStorage, key: string, value: unknown): Promise<void> {
  const body = Buffer.from(JSON.stringify(value, null, 2));
  await storage.put(key, Readable.from([body]), { contentType: 'application/json', size: body.length });
}

/**
 * A service's part of a person's export: on privacy.export_requested, `collect` reads
 * what the service holds about the subject (in the subject's company only), the JSON goes to
 * storage under `privacy/<jobId>/<service>.json` and a manifest of what goes in the ZIP (that JSON
 * and the objects) under `privacy/<jobId>/<service>.manifest.json`; the service reports
 * privacy.part_ready with the manifest's key. A service that holds nothing about the subject still answers (empty counts):
 * the coordinator waits for every service of PRIVACY_SERVICES.
 */
export function onExportRequested(
  service: PrivacyService,
  storage: ObjectStorage,
  collect: (tx: Db, subject: PrivacySubject, companyId: string | null) => Promise<PrivacyPart>,
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
    const objects = await Promise.all(
      (part.objects ?? []).map(async ({ name, key, encrypted }) => {
        if (!encrypted || !plain) return { name, key };
        const copy = `privacy/${jobId}/${name}`;
        const info = await plain.stat(key);
        await storage.put(copy, await plain.get(key), { contentType: info?.contentType ?? 'application/octet-stream' });
        return { name, key: copy };
      }),
    );
    const files: PrivacyManifest = [{ name: `${service}.json`, key }, ...objects];
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
