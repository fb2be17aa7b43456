import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { jest } from '@jest/globals';
import type { Envelope } from '@earshot/contracts';
import { createTestStack, serveUnmeteredCredits, type TestStack } from '@earshot/kit/testing';
import { fileService } from '../src';
import { announceCompany, makeAudioFixtures, transcriptionEvent, uploadRequest, type Fixture } from './helpers';

jest.setTimeout(60_000);

const ACME = randomUUID();
const GLOBEX = randomUUID();
let stack: TestStack;
let audio: Record<Fixture, Buffer>;
let acme: string;
const fileEvents: Envelope[] = [];

const upload = async () =>
  (await stack.as(acme, uploadRequest(audio.wav, 'call.wav'))).json() as { _id: string; path: string; url: string };
const item = async (id: string) => stack.as(acme, { method: 'GET', url: `/api/files/${id}` });

beforeAll(async () => {
  audio = makeAudioFixtures('events test');
  stack = await createTestStack([fileService]);
  // No tenant service in this stack: nothing here is metered.
  serveUnmeteredCredits(stack.database);
  await stack.bus.subscribe({ group: 'spy', topics: ['earshot.file'], handle: async (e) => void fileEvents.push(e) });
  await announceCompany(stack, ACME, null);
  acme = await stack.tokenFor('ADMIN', ACME);
});
afterAll(async () => stack?.close());

describe('transcription status projection', () => {
  test('status changes show in the list; a failure keeps its reason; a retry clears it', async () => {
    const file = await upload();
    expect((await item(file._id)).json()).toMatchObject({ transcriptionStatus: 'pending', transcriptionError: null });

    await transcriptionEvent(stack, 'transcript.status_changed', ACME, {
      fileId: file._id,
      status: 'processing',
      reason: null,
    });
    expect((await item(file._id)).json()).toMatchObject({
      transcriptionStatus: 'processing',
      transcriptionError: null,
    });

    await transcriptionEvent(stack, 'transcript.status_changed', ACME, {
      fileId: file._id,
      status: 'failed',
      reason: 'The speech engine is not installed',
    });
    expect((await item(file._id)).json()).toMatchObject({
      transcriptionStatus: 'failed',
      transcriptionError: 'The speech engine is not installed',
    });

    await transcriptionEvent(stack, 'transcript.status_changed', ACME, { fileId: file._id, status: 'completed' });
    const list = await stack.as(acme, { method: 'GET', url: '/api/files' });
    expect(list.json().items.find((i: { _id: string }) => i._id === file._id)).toMatchObject({
      transcriptionStatus: 'completed',
      transcriptionError: null,
    });
  });

  test("an event under another company does not touch this company's file", async () => {
    const file = await upload();
    await transcriptionEvent(stack, 'transcript.status_changed', GLOBEX, {
      fileId: file._id,
      status: 'failed',
      reason: 'nope',
    });
    expect((await item(file._id)).json().transcriptionStatus).toBe('pending');
  });

  test('an unknown or malformed file id is ignored, not retried forever', async () => {
    // A handler that threw would be retried with back-off and settle() would never return.
    const events = [
      await transcriptionEvent(stack, 'transcript.status_changed', ACME, { fileId: randomUUID(), status: 'completed' }),
      await transcriptionEvent(stack, 'transcript.status_changed', ACME, { fileId: 'not-a-uuid', status: 'completed' }),
      await transcriptionEvent(stack, 'transcript.deleted', ACME, { id: null, fileId: 'not-a-uuid' }),
    ];
    const ledger = await stack.database.query<{ event_id: string }>(
      "select event_id from file.applied_events where consumer = 'file'",
    );
    expect(ledger.map((r) => r.event_id)).toEqual(expect.arrayContaining(events.map((e) => e.id)));
  });
});

describe('transcript.deleted', () => {
  test('removes the row and the stored audio, and emits file.deleted once', async () => {
    const file = await upload();
    const object = join(stack.dataDir, 'objects', file.path);
    expect(existsSync(object)).toBe(true);
    const before = fileEvents.length;

    const deleted = await transcriptionEvent(stack, 'transcript.deleted', ACME, { id: randomUUID(), fileId: file._id });
    expect((await item(file._id)).statusCode).toBe(404);
    expect((await stack.as(acme, { method: 'GET', url: file.url })).statusCode).toBe(404);
    expect(existsSync(object)).toBe(false);
    const emitted = fileEvents.slice(before).filter((e) => e.type === 'file.deleted');
    expect(emitted).toHaveLength(1);
    expect(emitted[0]).toMatchObject({ companyId: ACME, data: { id: file._id, storageKey: file.path } });

    // Redelivered, or deleted again: nothing more happens.
    await stack.bus.publish([{ topic: 'earshot.transcription', key: ACME, envelope: deleted }]);
    await stack.settle();
    await transcriptionEvent(stack, 'transcript.deleted', ACME, { id: null, fileId: file._id });
    expect(fileEvents.slice(before).filter((e) => e.type === 'file.deleted')).toHaveLength(1);
  });

  test("another company's transcript.deleted cannot remove this company's file", async () => {
    const file = await upload();
    await transcriptionEvent(stack, 'transcript.deleted', GLOBEX, { id: null, fileId: file._id });
    expect((await item(file._id)).statusCode).toBe(200);
    expect(existsSync(join(stack.dataDir, 'objects', file.path))).toBe(true);
  });

  test('the freed space counts again for the quota', async () => {
    const SMALL = randomUUID();
    await announceCompany(stack, SMALL, audio.wav.length + 10);
    const small = await stack.tokenFor('USER', SMALL);
    const first = (await stack.as(small, uploadRequest(audio.wav, 'a.wav'))).json();
    expect((await stack.as(small, uploadRequest(audio.wav, 'b.wav'))).statusCode).toBe(413);
    await transcriptionEvent(stack, 'transcript.deleted', SMALL, { id: null, fileId: first._id });
    expect((await stack.as(small, uploadRequest(audio.wav, 'b.wav'))).statusCode).toBe(201);
  });
});
