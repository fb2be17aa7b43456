import { SYSTEM_ACTOR, isId, type Envelope } from '@earshot/contracts';
import type { Db, NewEvent, ObjectStorage } from '@earshot/kit';
import * as filesRepo from '../repositories/files';
import * as companiesRepo from '../repositories/companies';

type Emit = (event: NewEvent) => void;

/** Ids in events are checked before they reach a uuid column: a malformed one is ignored, not retried forever. */
const companyOf = (envelope: Envelope): string | null => (isId(envelope.companyId) ? envelope.companyId : null);

interface CompanyChange {
  id: string;
  after?: { maxStorage?: number | null } | null;
}

/** Keeps the quota projection: company.created/updated set maxStorage, company.deleted drops it. */
export async function applyCompanyEvent(tx: Db, envelope: Envelope): Promise<void> {
  const data = envelope.data as unknown as CompanyChange;
  if (!isId(data.id)) return;
  if (envelope.type === 'company.deleted') return companiesRepo.removeCompany(tx, data.id);
  if (envelope.type === 'company.created' || envelope.type === 'company.updated') {
    return companiesRepo.upsertCompany(tx, data.id, data.after?.maxStorage ?? null);
  }
}

/** Mirrors the transcription status of a file (the list shows it); a failure keeps its reason. */
export async function applyTranscriptStatus(tx: Db, envelope: Envelope): Promise<void> {
  const data = envelope.data as { fileId: string; status: string; reason?: string | null };
  if (!isId(data.fileId)) return;
  const error = data.status === 'failed' ? (data.reason ?? 'Transcription failed') : null;
  await filesRepo.setTranscriptionStatus(tx, data.fileId, companyOf(envelope), data.status, error);
}

/**
 * A deleted transcript takes its file with it: the row goes, file.deleted is emitted, and the
 * stored audio is removed before the transaction commits (so a failed removal is retried with the
 * event; removing a missing object is a no-op). An unknown file is already gone: nothing to do.
 */
export async function applyTranscriptDeleted(tx: Db, emit: Emit, envelope: Envelope, storage: ObjectStorage): Promise<void> {
  const data = envelope.data as { fileId: string };
  if (!isId(data.fileId)) return;
  const row = await filesRepo.deleteFile(tx, data.fileId, companyOf(envelope));
  if (!row) return;
  emit({
    type: 'file.deleted',
    companyId: row.companyId,
    actor: envelope.actor ?? SYSTEM_ACTOR,
    data: { id: row.id, storageKey: row.storageKey },
  });
  await storage.delete(row.storageKey);
}
