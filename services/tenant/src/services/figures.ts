import { isId, type EventOf } from '@earshot/contracts';
import type { Db } from '@earshot/kit';
import { addFile, removeFile } from '../repositories/figures';

/** Keeps each company's stored bytes from the file service's events (the companies list shows them). */
export async function applyFileEvent(tx: Db, event: EventOf<'file.uploaded'> | EventOf<'file.deleted'>): Promise<void> {
  if (!isId(event.data.id)) return;
  if (event.type === 'file.deleted') return removeFile(tx, event.data.id);
  if (isId(event.companyId)) await addFile(tx, event.data.id, event.companyId, event.data.size);
}
