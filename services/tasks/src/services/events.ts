import { isId, type EventOf } from '@earshot/contracts';
import { on, onCompanyDeleted, type Db, type HandlerSpec } from '@earshot/kit';
import { deleteCompanyData } from '../repositories/company-removal';
import { deleteProposalsOfFile, saveProposals } from '../repositories/proposals';
import * as models from '../repositories/read-models';
import { companyTypes } from './company-types';
import { redactionModes } from './redaction';

type UserEvent = EventOf<'user.created'> | EventOf<'user.updated'> | EventOf<'user.deleted'>;

/**
 * Members, from auth's user events: who a task may be given to and whose name an action item's
 * owner is. A person deleted, moved to another company or disabled also loses their feed.
 */
async function applyUser(tx: Db, event: UserEvent): Promise<void> {
  const { id, after } = event.data;
  if (!isId(id)) return;
  if (!after || !after.companyId || !isId(after.companyId) || after.role === 'HOST_ADMIN') {
    await models.removeMember(tx, id);
    await models.removeFeed(tx, id);
    return;
  }
  const before = event.data.before;
  if (before?.companyId !== after.companyId || after.status === 'disabled') await models.removeFeed(tx, id);
  await models.upsertMember(tx, {
    id,
    companyId: after.companyId,
    firstName: after.firstName,
    lastName: after.lastName,
    status: after.status ?? null,
  });
}

/** A recording deleted leaves the calendar, and its action items are no longer offered (tasks already made stay). */
async function removeRecording(tx: Db, fileId: string): Promise<void> {
  if (!isId(fileId)) return;
  await models.removeRecording(tx, fileId);
  await deleteProposalsOfFile(tx, fileId);
}

/** The events this service keeps its read models and proposals from, and its part of deleting a company. */
export function subscriptions(): HandlerSpec[] {
  return [
    // Per person and per client, the newest event wins: a late update cannot bring back a deleted one.
    ...(['user.created', 'user.updated', 'user.deleted'] as const).map((type) =>
      on(type, (event, tx) => applyUser(tx, event), { entity: (event) => event.data.id }),
    ),
    ...(['client.created', 'client.updated', 'client.deleted'] as const).map((type) =>
      on(
        type,
        async (event, tx) => {
          const { id, after } = event.data;
          if (!isId(id) || !isId(event.companyId)) return;
          await (after ? models.upsertClient(tx, id, event.companyId) : models.removeClient(tx, id));
        },
        { entity: (event) => event.data.id },
      ),
    ),
    // A recording's day is when it was uploaded: no event carries when it was recorded.
    on('file.uploaded', async (event, tx) => {
      const { id, originalName, clientId, uploadedBy } = event.data;
      if (!isId(id) || !isId(event.companyId)) return;
      await models.upsertRecording(tx, {
        fileId: id,
        companyId: event.companyId,
        originalName,
        uploadedAt: new Date(event.occurredAt),
        clientId: isId(clientId) ? clientId : null,
        uploadedBy: isId(uploadedBy) ? uploadedBy : null,
      });
    }),
    on('transcript.client_linked', async (event, tx) => {
      const { fileId, after } = event.data;
      if (isId(fileId))
        await models.linkRecordingClient(tx, fileId, after.clientId && isId(after.clientId) ? after.clientId : null);
    }),
    on('file.deleted', async (event, tx) => removeRecording(tx, event.data.id)),
    on('transcript.deleted', async (event, tx) => removeRecording(tx, event.data.fileId)),
    on('analysis.action_items_proposed', async (event, tx) => {
      const { runId, fileId, items } = event.data;
      if (!isId(runId) || !isId(fileId) || !isId(event.companyId)) return;
      await saveProposals(tx, { runId, companyId: event.companyId, fileId, items });
    }),
    // Which companies are b2c: there a member's tasks and recordings are theirs alone.
    ...companyTypes.handlers(),
    // Each company's redaction mode: with it on, what a task says is redacted before it is stored.
    ...redactionModes.handlers(),
    onCompanyDeleted('tasks', (tx, companyId) => deleteCompanyData(tx, companyId)),
  ];
}
