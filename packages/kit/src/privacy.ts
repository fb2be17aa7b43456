import { Readable } from 'node:stream';
import { SYSTEM_ACTOR, type PrivacyService, type PrivacySubject } from '@earshot/contracts';
import type { Db } from './db/database';
import { on, type HandlerSpec } from './bus/handlers';
import type { ObjectStorage } from './storage';

/** What a service holds about one person: its JSON, audio objects already in storage, counts. */
export interface PrivacyPart {
  data: Record<string, unknown>;
  counts: Record<string, number>;
  /** Objects to put in the ZIP as they are (a recording's audio): its name there and its key. */
  objects?: { name: string; key: string }[];
}

/** What one service's part puts in the ZIP: each file's name there and its object key. */
export type PrivacyManifest = { name: string; key: string }[];

async function putJson(storage: ObjectStorage, key: string, value: unknown): Promise<void> {
  const body = Buffer.from(JSON.stringify(value, null, 2));
  await storage.put(key, Readable.from([body]), { contentType: 'application/json', size: body.length });
}

/**
 * A service's part of a person's export (issue 25): on privacy.export_requested, `collect` reads
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
   * Where the part's objects are read as plain bytes when that is not `storage` (a company's
   * recordings encrypted at rest): each is copied, readable, under `privacy/<jobId>/`, since the
   * coordinator that builds the ZIP holds no company key.
   */
  plain?: ObjectStorage,
): HandlerSpec {
  return on('privacy.export_requested', async (event, tx, emit) => {
    const { jobId, subject } = event.data;
    const part = await collect(tx, subject, event.companyId ?? null);
    const key = `privacy/${jobId}/${service}.json`;
    await putJson(storage, key, { service, subject, ...part.data });
    const manifest = `privacy/${jobId}/${service}.manifest.json`;
    const objects = await Promise.all((part.objects ?? []).map(async (object) => {
      if (!plain) return object;
      const copy = `privacy/${jobId}/${object.name}`;
      const info = await plain.stat(object.key);
      await storage.put(copy, await plain.get(object.key), { contentType: info?.contentType ?? 'application/octet-stream' });
      return { name: object.name, key: copy };
    }));
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
