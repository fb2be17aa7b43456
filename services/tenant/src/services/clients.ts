import {
  Id,
  redactedField,
  type Actor,
  type ClientCreateBody,
  type ClientDetailDto,
  type ClientDto,
  type ClientListQuery,
  type ClientPage,
  type ClientSaved,
  type ClientState,
  type ClientUpdateBody,
  type EventOf,
} from '@earshot/contracts';
import {
  actorOf,
  badRequest,
  companyScope,
  notFound,
  type Db,
  type Emit,
  type Identity,
  type ServiceContext,
} from '@earshot/kit';
import { redactFields } from '@earshot/redaction';
import type { ClientRecordingRow, ClientRow, NewClientRow } from '../db/schema';
import * as repo from '../repositories/clients';
import { isMember } from '../repositories/members';
import { findPolicies } from '../repositories/policies';
import { duplicateField, rethrowDuplicate } from './errors';
import { activeClientHolds, findClientHold } from '../repositories/holds';
import { assertClientNotHeld, toActiveHold } from './holds';

export function toClientDto(row: ClientRow): ClientDto {
  return {
    _id: row.id,
    companyId: row.companyId,
    ...toClientState(row),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const toRecording = (row: ClientRecordingRow) => ({
  fileId: row.fileId,
  name: row.name,
  status: row.status,
  duration: row.duration,
  uploadedAt: row.uploadedAt?.toISOString() ?? null,
});

export function toClientState(row: ClientRow): ClientState {
  return {
    name: row.name,
    organisation: row.organisation,
    email: row.email,
    phone: row.phone,
    externalId: row.externalId,
    notes: row.notes,
    ownerId: row.ownerId,
  };
}

/** The company a caller works in: a platform administrator has none of their own (and only reads). */
function ownCompany(identity: Identity): string {
  const companyId = companyScope(identity);
  if (!companyId) throw notFound('Client');
  return companyId;
}

async function checkFields(tx: Db, companyId: string, body: ClientUpdateBody, exceptId?: string): Promise<void> {
  if (body.ownerId && !(await isMember(tx, body.ownerId, companyId))) {
    throw badRequest('Invalid body.ownerId: not a user of this company', [
      { field: 'body.ownerId', message: 'must be a user of this company' },
    ]);
  }
  if (body.externalId && (await repo.externalIdTaken(tx, companyId, body.externalId, exceptId)))
    throw duplicateField('externalId', 'client');
}

/**
 * A client's fields as they may be stored under the company's policy: with redaction on, what the
 * detectors find in its free text (name, organisation, external id, notes) becomes the label, on
 * every create and change, so a label cannot be edited back into a number. The contact fields hold
 * an address and a number on purpose: the e-mail field keeps an e-mail address and the phone field
 * a phone number, but any other number typed there (a card, an IBAN, a national ID) is hidden.
 * `redacted`: the spans hidden across the fields, which the person is told of.
 */
async function redactedFields<T extends ClientUpdateBody>(
  tx: Db,
  companyId: string,
  body: T,
): Promise<{ values: T; redacted: number }> {
  if (((await findPolicies(tx, companyId))?.redaction ?? 'off') === 'off') return { values: body, redacted: 0 };
  const text = redactFields(body, ['name', 'organisation', 'externalId', 'notes']);
  const email = redactFields(text.record, ['email'], ['email']);
  const phone = redactFields(email.record, ['phone'], ['phone']);
  return { values: phone.record, redacted: text.count + email.count + phone.count };
}

/** A written client's answer: the client as stored, and what redaction hid in it. */
const saved = (row: ClientRow, redacted: number): ClientSaved => ({ ...toClientDto(row), ...redactedField(redacted) });

/**
 * Clients of a company: list, read (with the recordings linked to them), create, change, delete.
 * Reads are scoped by the identity (a platform administrator reads any company, optionally one);
 * writes always act in the caller's own company, so another company's client is a 404.
 */
export class ClientService {
  constructor(private readonly ctx: ServiceContext) {}

  async list(identity: Identity, query: ClientListQuery): Promise<ClientPage> {
    const { rows, total } = await repo.listClients(
      this.ctx.db,
      companyScope(identity, query.companyId),
      query.search,
      query.page,
      query.pageSize,
    );
    const holds = await activeClientHolds(
      this.ctx.db,
      rows.map((r) => r.id),
    );
    return {
      items: rows.map((r) => ({ ...toClientDto(r), hold: toActiveHold(holds.get(r.id)) })),
      page: query.page,
      pageSize: query.pageSize,
      total,
      totalPages: Math.ceil(total / query.pageSize),
    };
  }

  async dropdown(identity: Identity, query: { companyId?: string }): Promise<{ _id: string; name: string }[]> {
    return (await repo.clientDropdown(this.ctx.db, companyScope(identity, query.companyId))).map((r) => ({
      _id: r.id,
      name: r.name,
    }));
  }

  async get(identity: Identity, id: string): Promise<ClientDetailDto> {
    const row = await repo.findClient(this.ctx.db, id, companyScope(identity));
    if (!row) throw notFound('Client');
    return {
      ...toClientDto(row),
      hold: toActiveHold(await findClientHold(this.ctx.db, id)),
      recordings: (await repo.recordingsOf(this.ctx.db, id)).map(toRecording),
    };
  }

  async create(identity: Identity, body: ClientCreateBody): Promise<ClientSaved> {
    const companyId = ownCompany(identity);
    return this.ctx
      .transact(async (tx, emit) => {
        const { values, redacted } = await redactedFields(tx, companyId, body);
        await checkFields(tx, companyId, values);
        const created = await repo.insertClient(tx, { ...(values as Omit<NewClientRow, 'companyId'>), companyId });
        emit({
          type: 'client.created',
          companyId,
          actor: actorOf(identity),
          data: { id: created.id, before: null, after: toClientState(created) },
        });
        return saved(created, redacted);
      })
      .catch(rethrowDuplicate);
  }

  async update(identity: Identity, id: string, body: ClientUpdateBody): Promise<ClientSaved> {
    const companyId = ownCompany(identity);
    return this.ctx
      .transact(async (tx, emit) => {
        const before = await repo.findClientForUpdate(tx, id, companyId);
        if (!before) throw notFound('Client');
        const { values, redacted } = await redactedFields(tx, companyId, body);
        await checkFields(tx, companyId, values, id);
        const after = await repo.updateClient(tx, id, values);
        const [was, now] = [toClientState(before), toClientState(after)];
        if (JSON.stringify(was) !== JSON.stringify(now)) {
          emit({ type: 'client.updated', companyId, actor: actorOf(identity), data: { id, before: was, after: now } });
        }
        return saved(after, redacted);
      })
      .catch(rethrowDuplicate);
  }

  /** Deletes the client; its recordings stay, unlinked (here at once, in transcription through client.deleted). */
  async remove(identity: Identity, id: string): Promise<{ message: string }> {
    const companyId = ownCompany(identity);
    await this.ctx.transact(async (tx, emit) => {
      const row = await repo.findClientForUpdate(tx, id, companyId);
      if (!row) throw notFound('Client');
      await assertClientNotHeld(tx, companyId, id);
      await removeClient(tx, emit, row, actorOf(identity));
    });
    return { message: 'Client deleted' };
  }
}

/**
 * A client's removal, by its company's ADMIN or by an erasure: its recordings stay,
 * unlinked here at once and in transcription through client.deleted.
 */
export async function removeClient(tx: Db, emit: Emit, row: ClientRow, actor: Actor): Promise<void> {
  await repo.deleteClient(tx, row.id);
  await repo.unlinkRecordings(tx, row.id);
  emit({
    type: 'client.deleted',
    companyId: row.companyId,
    actor,
    data: { id: row.id, before: toClientState(row), after: null },
  });
}

const RECORDING_EVENTS = [
  'file.uploaded',
  'file.deleted',
  'transcript.status_changed',
  'transcript.completed',
  'transcript.client_linked',
  'transcript.deleted',
] as const;
type RecordingEventType = (typeof RECORDING_EVENTS)[number];
export { RECORDING_EVENTS };

/** One of the recording events, narrowed by its type. */
type RecordingEvent = { [T in RecordingEventType]: EventOf<T> }[RecordingEventType];

const isId = (value: unknown): value is string => Id.safeParse(value).success;

/**
 * Keeps the recordings projection from the file and transcription services' events. Each event
 * sets only the facts it carries, so the two topics may arrive in either order.
 */
export async function applyRecordingEvent(tx: Db, received: EventOf<RecordingEventType>): Promise<void> {
  // One handler serves all six types: its `type` tells which data it carries.
  const event = received as RecordingEvent;
  const { companyId } = event;
  if (!isId(companyId)) return;
  switch (event.type) {
    case 'file.uploaded': {
      if (!isId(event.data.id)) return;
      // The file service takes any uuid as the client: only a client of this company counts.
      const clientId =
        isId(event.data.clientId) && (await repo.findClient(tx, event.data.clientId, companyId))
          ? event.data.clientId
          : null;
      return repo.recordUpload(tx, event.data.id, companyId, {
        name: event.data.originalName,
        uploadedAt: new Date(event.occurredAt),
        clientId,
      });
    }
    case 'file.deleted':
      return isId(event.data.id) ? repo.forgetRecording(tx, event.data.id) : undefined;
    case 'transcript.deleted':
      return isId(event.data.fileId) ? repo.forgetRecording(tx, event.data.fileId) : undefined;
    case 'transcript.status_changed':
      return isId(event.data.fileId)
        ? repo.upsertRecording(tx, event.data.fileId, companyId, { status: event.data.status })
        : undefined;
    case 'transcript.completed':
      return isId(event.data.fileId)
        ? repo.upsertRecording(tx, event.data.fileId, companyId, { duration: event.data.duration })
        : undefined;
    case 'transcript.client_linked':
      return isId(event.data.fileId)
        ? repo.upsertRecording(tx, event.data.fileId, companyId, { clientId: event.data.after.clientId })
        : undefined;
  }
}
