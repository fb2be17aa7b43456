import { randomUUID } from 'node:crypto';
import { eventDefinition, type Envelope, type EventData, type EventType } from '@earshot/contracts';
import { buildEnvelope, createStorage, type ServiceContext } from '@earshot/kit';
import { createTestStack, serveUnmeteredCredits, type TestStack } from '@earshot/kit/testing';
import { auditService } from '@earshot/audit-service';
import { chatService } from '@earshot/chat-service';
import { promptService } from '@earshot/prompt-service';
import { transcriptionService, type TranscriptionConfig } from '@earshot/transcription-service';
import { reindexSegments } from '../../transcription/src/repositories/search';
import { saveResult } from '../../transcription/src/repositories/transcripts';
import { completionEvents } from '../../transcription/src/services/queue';
import { buildSegments, speakersFor } from '../../transcription/src/services/segments';
import { makeTones, upload } from '../../transcription/test/helpers';
import { chatRetention } from '../../chat/src/services/retention';
import { fileService } from '../src';
import type { FileConfig } from '../src/config';
import { recordingRetention } from '../src/services/retention';

// Retention and legal hold across the services a recording lives in: the file service's
// job deletes what is due the way a person's delete does, and the transcript, search rows, chat's
// copies, the stored audio and the audit log show it; held recordings, clients and companies keep
// theirs. No sleeping: rows are backdated in SQL and each job is called with the time it runs at.

const ACME = randomUUID();
const OTHER = randomUUID();
const CLIENT = randomUUID();
const DAY = 86_400_000;
const system = { type: 'system' as const, id: null };
const hostActor = { type: 'user' as const, id: randomUUID(), role: 'HOST_ADMIN' as const, email: 'host@earshot.test' };

let stack: TestStack;
let fileCtx: ServiceContext<FileConfig>;
let transcriptionCtx: ServiceContext<TranscriptionConfig>;
const adminId = randomUUID();
const userId = randomUUID();
let tokens: Record<'admin' | 'user' | 'caller' | 'host' | 'otherAdmin', string>;
const audio = makeTones([{ start: 0.2, length: 0.5 }], 1);

const publish = async (...envelopes: Envelope[]) => {
  await stack.bus.publish(
    envelopes.map((envelope) => ({
      topic: eventDefinition(envelope.type).topic,
      key: envelope.companyId ?? 'platform',
      envelope,
    })),
  );
  await stack.settle();
};
const tenantEvent = <T extends EventType>(type: T, companyId: string, data: EventData<T>) =>
  buildEnvelope({ type, companyId, actor: hostActor, data } as never);
const policies = (recordingsDays: number | null, chatsDays: number | null) => ({
  redaction: 'off' as const,
  keepOriginal: false,
  encryption: false,
  retention: { recordingsDays, chatsDays, auditDays: null },
});
const query = <T>(sql: string, params: unknown[] = []) => stack.database.query<T>(sql, params);

/** A recording of ACME with a completed transcript (search rows, chat's copy), uploaded by the USER. */
async function recording(): Promise<string> {
  const fileId = await upload(stack, tokens.user, audio, 'call.wav');
  const duration = 4;
  const segments = buildSegments(
    [
      {
        speakerId: 'speaker_0',
        words: [
          { text: 'invoice', start: 0.2, end: 0.7 },
          { text: 'refund', start: 1, end: 1.5 },
        ],
      },
    ],
    duration,
    `r${randomUUID().slice(0, 6)}`,
  );
  const result = {
    engine: 'test',
    duration,
    speakers: speakersFor(1),
    segments,
    peaks: { version: 1 as const, duration, pointsPerSecond: 10, length: 0, data: [] },
  };
  await transcriptionCtx.transact(async (tx, emit) => {
    const { id, originalName } = await saveResult(tx, fileId, result);
    // As the worker does when it stores a result: the search index.
    await reindexSegments(tx, fileId);
    completionEvents(ACME, { id, fileId, fileName: originalName }, result).forEach(emit);
  });
  await query(`update transcription.jobs set status = 'completed' where file_id = $1`, [fileId]);
  await stack.settle();
  return fileId;
}

/** Where a recording still is: its row, transcript, search rows, chat's copy, stored audio. */
async function copiesOf(fileId: string) {
  const count = async (sql: string) => Number((await query<{ n: string }>(sql, [fileId]))[0]!.n) > 0;
  const [row] = await query<{ storage_key: string }>('select storage_key from file.files where id = $1', [fileId]);
  return {
    file: row !== undefined,
    transcript: await count('select count(*) as n from transcription.transcripts where file_id = $1'),
    search: await count('select count(*) as n from transcription.search_segments where file_id = $1'),
    chat: await count('select count(*) as n from chat.transcript_segments where file_id = $1'),
  };
}

const KEPT = { file: true, transcript: true, search: true, chat: true };
const GONE = { file: false, transcript: false, search: false, chat: false };

const audited = (type: string) =>
  query<{
    actor: { id: string | null; type: string };
    data: Record<string, unknown>;
    company_id: string;
    target_id: string | null;
  }>('select actor, data, company_id, target_id from audit.entries where type = $1 order by seq', [type]);

const hold = (token: string, fileId: string, payload: unknown) =>
  stack.as(token, { method: 'PUT', url: `/api/files/${fileId}/hold`, payload: payload as Record<string, unknown> });

beforeAll(async () => {
  stack = await createTestStack([fileService, transcriptionService, promptService, chatService, auditService], {
    TRANSCRIPTION_WORKER: 'false',
  });
  serveUnmeteredCredits(stack.database);
  fileCtx = stack.running.contexts.get('file') as ServiceContext<FileConfig>;
  transcriptionCtx = stack.running.contexts.get('transcription') as ServiceContext<TranscriptionConfig>;
  tokens = {
    admin: await stack.tokenFor('ADMIN', ACME, adminId),
    user: await stack.tokenFor('USER', ACME, userId),
    caller: await stack.tokenFor('CALLER', ACME),
    host: await stack.tokenFor('HOST_ADMIN', null),
    otherAdmin: await stack.tokenFor('ADMIN', OTHER),
  };
  const client = {
    name: 'Held Client',
    organisation: null,
    email: null,
    phone: null,
    externalId: null,
    notes: null,
    ownerId: null,
  };
  await publish(
    tenantEvent('company.policies_changed', ACME, { id: ACME, before: policies(null, null), after: policies(30, 30) }),
    tenantEvent('client.created', ACME, { id: CLIENT, before: null, after: client }),
  );
}, 120_000);
afterAll(async () => stack.close());

describe('legal hold on a recording', () => {
  test('reason is required (trimmed, 1–500 characters, no NUL or control characters) and unknown fields are refused, each naming the field', async () => {
    const fileId = await recording();
    for (const payload of [
      { hold: true },
      { hold: true, reason: '   ' },
      { hold: true, reason: 'r'.repeat(501) },
      { hold: true, reason: 'a\u0000b' },
      { hold: true, reason: 'a\u0007b' },
      { hold: 'yes', reason: 'x' },
      { hold: true, reason: 'x', until: 'never' },
    ]) {
      const res = await hold(tokens.admin, fileId, payload);
      expect(res.statusCode).toBe(400);
      expect(JSON.stringify(res.json().details ?? res.json().message)).toMatch(/body|reason|hold|until/);
    }
    const missing = await hold(tokens.admin, fileId, { hold: true });
    expect(missing.json().details[0].field).toBe('body.reason');
    expect((await hold(tokens.admin, fileId, { hold: true, reason: 'r'.repeat(500) })).statusCode).toBe(200);
    expect((await hold(tokens.admin, fileId, { hold: false, reason: ' Line one\nline two ' })).json()).toMatchObject({
      hold: false,
      reason: 'Line one\nline two',
    });
  });

  test('only HOST_ADMIN and the company’s ADMIN hold; another company’s file and an unknown one are 404', async () => {
    const fileId = await recording();
    const payload = { hold: true, reason: 'Litigation 2026-114' };
    expect((await hold(tokens.user, fileId, payload)).statusCode).toBe(403);
    expect((await hold(tokens.caller, fileId, payload)).statusCode).toBe(403);
    expect((await hold(tokens.otherAdmin, fileId, payload)).statusCode).toBe(404);
    expect((await hold(tokens.admin, randomUUID(), payload)).statusCode).toBe(404);
    const placed = await hold(tokens.host, fileId, payload);
    expect(placed.statusCode).toBe(200);
    expect(placed.json()).toEqual({
      hold: true,
      reason: 'Litigation 2026-114',
      by: expect.any(String),
      at: expect.any(String),
    });
    // Placing it again changes nothing and announces nothing.
    await hold(tokens.admin, fileId, { hold: true, reason: 'Another reason' });
    await stack.settle();
    expect((await audited('file.hold_changed')).filter((e) => e.target_id === fileId)).toHaveLength(1);
  });

  test('a held recording is not deleted (409 naming the hold) and keeps every copy; lifting is audited with who and why, then it can go', async () => {
    const fileId = await recording();
    const placed = await hold(tokens.admin, fileId, { hold: true, reason: 'Complaint 77: keep the call' });
    expect(placed.json()).toMatchObject({ hold: true, reason: 'Complaint 77: keep the call', by: adminId });
    // The recordings list and the file say so.
    expect((await stack.as(tokens.user, { method: 'GET', url: `/api/files/${fileId}` })).json()).toMatchObject({
      hold: true,
      holdReason: 'Complaint 77: keep the call',
      holdAt: expect.any(String),
    });
    await stack.settle();
    const refused = await stack.as(tokens.user, { method: 'DELETE', url: `/api/transcripts/${fileId}` });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('This recording is under legal hold: lift the hold before deleting it');
    expect(await copiesOf(fileId)).toEqual(KEPT);

    const lifted = await hold(tokens.admin, fileId, { hold: false, reason: 'Complaint 77 settled' });
    expect(lifted.statusCode).toBe(200);
    expect(lifted.json()).toEqual({ hold: false, reason: 'Complaint 77 settled', by: adminId, at: expect.any(String) });
    expect((await stack.as(tokens.user, { method: 'GET', url: `/api/files/${fileId}` })).json()).toMatchObject({
      hold: false,
      holdReason: null,
      holdAt: null,
    });
    await stack.settle();
    const changes = (await audited('file.hold_changed')).filter((e) => e.target_id === fileId);
    expect(changes.map((e) => [e.data.hold, e.data.reason, e.actor.id])).toEqual([
      [true, 'Complaint 77: keep the call', adminId],
      [false, 'Complaint 77 settled', adminId],
    ]);
    expect((await stack.as(tokens.user, { method: 'DELETE', url: `/api/transcripts/${fileId}` })).statusCode).toBe(200);
    await stack.settle();
    expect(await copiesOf(fileId)).toEqual(GONE);
  });
});

describe('recordings retention', () => {
  test('backdated recordings are removed with every copy, held ones (own, client, company) stay, and each removal is audited', async () => {
    const [due, dueToo, held, ofHeldClient, recent] = [
      await recording(),
      await recording(),
      await recording(),
      await recording(),
      await recording(),
    ];
    await hold(tokens.admin, held, { hold: true, reason: 'Audit of Q3 calls' });
    const linked = await stack.as(tokens.admin, {
      method: 'PUT',
      url: '/api/transcripts/link-client',
      payload: { transcriptId: ofHeldClient, clientId: CLIENT },
    });
    expect(linked.statusCode).toBe(200);
    await publish(tenantEvent('client.hold_changed', ACME, { id: CLIENT, hold: true, reason: 'Client dispute' }));
    const now = new Date();
    await query(`update file.files set uploaded_at = $1 where id = any($2::uuid[])`, [
      new Date(now.getTime() - 31 * DAY),
      [due, dueToo, held, ofHeldClient],
    ]);
    await query(`update file.files set uploaded_at = $1 where id = $2`, [new Date(now.getTime() - 29 * DAY), recent]);
    const storage = createStorage(fileCtx.config);
    const keys = await query<{ id: string; storage_key: string }>(
      'select id, storage_key from file.files where id = any($1::uuid[])',
      [[due, dueToo]],
    );

    // Every other recording of the suite is newer than the cut-off: only these two are due.
    const job = recordingRetention(fileCtx, storage);
    const reports = await job.run(now);
    await stack.settle();
    expect(reports).toEqual([
      {
        service: 'file',
        removed: { recordings: 2 },
        days: 30,
        olderThan: new Date(now.getTime() - 30 * DAY).toISOString(),
        held: 2,
      },
    ]);
    for (const id of [due, dueToo]) expect(await copiesOf(id)).toEqual(GONE);
    for (const { storage_key } of keys) expect(await storage.stat(storage_key)).toBeNull();
    for (const id of [held, ofHeldClient, recent]) expect(await copiesOf(id)).toEqual(KEPT);

    // The audit log has each deletion (by the system) and the run's summary for the company.
    const deleted = (await audited('file.deleted')).filter((e) => [due, dueToo].includes(e.target_id!));
    expect(deleted).toHaveLength(2);
    expect(deleted.every((e) => e.actor.type === 'system')).toBe(true);
    const applied = await audited('retention.applied');
    expect(applied).toHaveLength(1);
    expect(applied[0]).toMatchObject({
      company_id: ACME,
      data: { service: 'file', removed: { recordings: 2 }, days: 30, held: 2 },
    });

    // A second run finds nothing and reports nothing.
    expect(await job.run(now)).toEqual([]);

    // The client's hold also stops its recording's manual delete, with the reason named.
    const refused = await stack.as(tokens.admin, { method: 'DELETE', url: `/api/transcripts/${ofHeldClient}` });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/client is under legal hold/);
  });

  test('a held company loses nothing to retention or to a manual delete until the hold is lifted', async () => {
    const fileId = await recording();
    const now = new Date();
    await query(`update file.files set uploaded_at = $1 where id = $2`, [new Date(now.getTime() - 40 * DAY), fileId]);
    await publish(tenantEvent('company.hold_changed', ACME, { id: ACME, hold: true, reason: 'Regulator inquiry' }));
    const job = recordingRetention(fileCtx, createStorage(fileCtx.config));
    expect(await job.run(now)).toEqual([]);
    const refused = await stack.as(tokens.admin, { method: 'DELETE', url: `/api/transcripts/${fileId}` });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/company is under legal hold/);
    expect(await copiesOf(fileId)).toEqual(KEPT);

    await publish(tenantEvent('company.hold_changed', ACME, { id: ACME, hold: false, reason: 'Inquiry closed' }));
    expect((await job.run(now)).map((r) => r.removed)).toEqual([{ recordings: 1 }]);
    await stack.settle();
    expect(await copiesOf(fileId)).toEqual(GONE);
  });

  test('a transcript.deleted that reaches a held file leaves the recording (a hold placed after the delete was checked)', async () => {
    const fileId = await recording();
    await hold(tokens.admin, fileId, { hold: true, reason: 'Late hold' });
    await publish(
      buildEnvelope({ type: 'transcript.deleted', companyId: ACME, actor: system, data: { id: randomUUID(), fileId } }),
    );
    expect((await copiesOf(fileId)).file).toBe(true);
  });

  test('the daily job runs once a UTC day whoever calls it, and a company without a policy keeps everything', async () => {
    const job = recordingRetention(fileCtx, createStorage(fileCtx.config));
    // The service's own timer ran today's at start.
    expect(await job.daily(new Date())).toBeNull();
    const aDayLongAgo = new Date('2020-01-01T03:00:00Z');
    expect(await job.daily(aDayLongAgo)).toEqual([]);
    expect(await job.daily(aDayLongAgo)).toBeNull();
    const otherFile = await upload(stack, tokens.otherAdmin, audio, 'other.wav');
    await query(`update file.files set uploaded_at = now() - interval '10 years' where id = $1`, [otherFile]);
    expect(await job.run(new Date())).toEqual([]);
    expect((await copiesOf(otherFile)).file).toBe(true);
  });
});

describe('chats retention', () => {
  const conversation = async (token: string) => {
    const res = await stack.as(token, {
      method: 'POST',
      url: '/api/chat/conversations',
      payload: { title: 'About invoices' },
    });
    expect(res.statusCode).toBe(201);
    return (res.json() as { _id: string })._id;
  };

  test('conversations last active before the cut-off are deleted as their owner would, the rest stay; a held company keeps all', async () => {
    const [old, active, otherCompany] = [
      await conversation(tokens.user),
      await conversation(tokens.user),
      await conversation(tokens.otherAdmin),
    ];
    const now = new Date();
    const longAgo = new Date(now.getTime() - 31 * DAY);
    await query(
      'update chat.conversations set created_at = $1, updated_at = $1, last_message_at = $1 where id = any($2::uuid[])',
      [longAgo, [old, otherCompany]],
    );
    // Started long ago but written in last week: not due.
    await query('update chat.conversations set created_at = $1, updated_at = $1, last_message_at = $2 where id = $3', [
      longAgo,
      new Date(now.getTime() - 7 * DAY),
      active,
    ]);
    const chatCtx = stack.running.contexts.get('chat') as ServiceContext;
    const job = chatRetention(chatCtx);

    await publish(tenantEvent('company.hold_changed', ACME, { id: ACME, hold: true, reason: 'Regulator inquiry' }));
    expect(await job.run(now)).toEqual([]);
    await publish(tenantEvent('company.hold_changed', ACME, { id: ACME, hold: false, reason: 'Inquiry closed' }));

    const reports = await job.run(now);
    await stack.settle();
    expect(reports).toEqual([
      {
        service: 'chat',
        removed: { conversations: 1 },
        days: 30,
        olderThan: new Date(now.getTime() - 30 * DAY).toISOString(),
        held: 0,
      },
    ]);
    const left = await query<{ id: string }>(
      'select id from chat.conversations where id = any($1::uuid[]) order by id',
      [[old, active, otherCompany]],
    );
    expect(left.map((r) => r.id).sort()).toEqual([active, otherCompany].sort());
    expect(
      (await stack.as(tokens.user, { method: 'GET', url: `/api/chat/conversations/${old}/messages` })).statusCode,
    ).toBe(404);
    const deleted = (await audited('conversation.deleted')).filter((e) => e.target_id === old);
    expect(deleted).toEqual([
      expect.objectContaining({ company_id: ACME, actor: expect.objectContaining({ type: 'system' }) }),
    ]);
    expect((await audited('retention.applied')).filter((e) => e.data.service === 'chat')).toHaveLength(1);
  });
});
