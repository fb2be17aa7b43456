import { type Envelope } from '@earshot/contracts';
import { buildEnvelope } from '@earshot/kit';
import { createTestStack, type TestStack } from '@earshot/kit/testing';
import { fileService } from '@earshot/file-service';
import { billingService } from '@earshot/billing-service';
import { tenantService } from '@earshot/tenant-service';
import { transcriptionService } from '@earshot/transcription-service';
import { filesUnder, uploadRequest, wavHeader } from '../../../services/file/test/helpers';

// Erasing a client contact deletes the client in the tenant service (client.deleted,
// which makes transcription unlink its calls and the file service follow) while every service
// handles privacy.erase_requested: two topics, no order between them on Kafka. Here client.deleted
// and the unlinks it causes reach the file and transcription services first, then the request.
let stack: TestStack;
let companyId = '';
let admin = '';
const partsErased: Envelope[] = [];

beforeAll(async () => {
  stack = await createTestStack([tenantService, billingService, fileService, transcriptionService], {
    TRANSCRIPTION_WORKER: 'false',
  });
  await stack.bus.subscribe({
    group: 'erase-order-spy',
    topics: ['earshot.privacy'],
    handle: async (event) => void (event.type === 'privacy.part_erased' && partsErased.push(event)),
  });
  const host = await stack.tokenFor('HOST_ADMIN', null);
  const company = await stack.as(host, {
    method: 'POST',
    url: '/api/companies',
    payload: { name: 'Order', code: 'ORDER', domain: 'order' },
  });
  expect(company.statusCode).toBe(201);
  companyId = company.json()._id;
  admin = await stack.tokenFor('ADMIN', companyId);
  await stack.settle();
}, 60_000);
afterAll(async () => stack.close());

/** A client of the company with recordings linked to it; answers the client's and the recordings' ids. */
async function clientWithCalls(
  name: string,
  calls: number,
): Promise<{ clientId: string; fileIds: string[]; transcriptIds: string[] }> {
  const created = await stack.as(admin, { method: 'POST', url: '/api/clients', payload: { name } });
  expect(created.statusCode).toBe(201);
  const clientId = created.json()._id as string;
  const fileIds: string[] = [];
  for (let i = 0; i < calls; i++) {
    const upload = await stack.as(
      admin,
      uploadRequest(Buffer.concat([wavHeader(1_600), Buffer.alloc(1_600, 3 + i)]), `${name}-${i}.wav`),
    );
    expect(upload.statusCode).toBe(201);
    fileIds.push(upload.json()._id);
  }
  await stack.settle();
  const transcriptIds: string[] = [];
  for (const fileId of fileIds) {
    const transcript = await stack.as(admin, { method: 'GET', url: `/api/transcripts/file/${fileId}` });
    expect(transcript.statusCode).toBe(200);
    transcriptIds.push(transcript.json()._id);
    const linked = await stack.as(admin, {
      method: 'PUT',
      url: '/api/transcripts/link-client',
      payload: { transcriptId: transcript.json()._id, clientId },
    });
    expect(linked.statusCode).toBe(200);
  }
  await stack.settle();
  return { clientId, fileIds, transcriptIds };
}

/** Deletes the client the tenant's way and lets client.deleted and the unlinks it causes reach every service. */
async function deleteClientFirst(clientId: string, fileIds: string[]): Promise<void> {
  expect((await stack.as(admin, { method: 'DELETE', url: `/api/clients/${clientId}` })).statusCode).toBe(200);
  await stack.settle();
  // Both copies already lost the link: an erasure selecting by it alone would find nothing.
  const linked = await stack.database.query<{ n: number }>(
    'select (select count(*) from file.files where client_id = $1) + (select count(*) from transcription.transcripts where client_id = $1) as n',
    [clientId],
  );
  expect(Number(linked[0]!.n)).toBe(0);
  const remembered = await stack.database.query<{ file_id: string }>(
    'select file_id from transcription.transcripts where unlinked_client_id = $1 order by file_id',
    [clientId],
  );
  expect(remembered.map((row) => row.file_id)).toEqual([...fileIds].sort());
}

/** privacy.erase_requested for the client, delivered after its deletion; answers the services' counts. */
async function eraseAfterwards(
  clientId: string,
  recordings: 'delete' | 'keep',
): Promise<Record<string, Record<string, number>>> {
  const jobId = crypto.randomUUID();
  const envelope = buildEnvelope({
    type: 'privacy.erase_requested',
    companyId,
    actor: { type: 'user', id: crypto.randomUUID() },
    data: { jobId, subject: { kind: 'client', id: clientId }, recordings },
  });
  await stack.bus.publish([{ topic: 'earshot.privacy', key: companyId, envelope }]);
  await stack.settle();
  const parts = partsErased
    .filter((event) => (event.data as { jobId: string }).jobId === jobId)
    .map((event) => event.data as { service: string; counts: Record<string, number> });
  return Object.fromEntries(parts.map((part) => [part.service, part.counts]));
}

async function listed(fileId: string): Promise<boolean> {
  const res = await stack.as(admin, { method: 'GET', url: '/api/files?pageSize=100' });
  expect(res.statusCode).toBe(200);
  return (res.json().items as { _id: string }[]).some((item) => item._id === fileId);
}

test("recordings deleted: the client's calls go even when its deletion's unlinks arrived first; a call unlinked by hand before stays", async () => {
  const { clientId, fileIds, transcriptIds } = await clientWithCalls('Dora', 3);
  // The third call was unlinked by someone before the erasure: it is no longer the client's call.
  const [kept] = fileIds.splice(2, 1);
  const unlinked = await stack.as(admin, {
    method: 'PUT',
    url: '/api/transcripts/link-client',
    payload: { transcriptId: transcriptIds[2], clientId: null },
  });
  expect(unlinked.statusCode).toBe(200);
  await stack.settle();
  const [{ storage_key: storageKey }] = (await stack.database.query<{ storage_key: string }>(
    'select storage_key from file.files where id = $1',
    [fileIds[0]],
  )) as [{ storage_key: string }];
  expect(filesUnder(stack.dataDir).some((path) => path.endsWith(storageKey.split('/').at(-1)!))).toBe(true);

  await deleteClientFirst(clientId, fileIds);
  const parts = await eraseAfterwards(clientId, 'delete');

  expect(parts.transcription).toEqual({ transcriptsDeleted: 2, held: 0 });
  expect(parts.tenant).toEqual({ clientsDeleted: 0 });
  for (const fileId of fileIds) {
    expect(await listed(fileId)).toBe(false);
    expect((await stack.as(admin, { method: 'GET', url: `/api/transcripts/file/${fileId}` })).statusCode).toBe(404);
  }
  const left = await stack.database.query<{ n: number }>(
    'select (select count(*) from file.files where id = any($1::uuid[])) + (select count(*) from transcription.transcripts where file_id = any($1::uuid[])) as n',
    [fileIds],
  );
  expect(Number(left[0]!.n)).toBe(0);
  expect(filesUnder(stack.dataDir).some((path) => path.endsWith(storageKey.split('/').at(-1)!))).toBe(false);
  expect(await listed(kept!)).toBe(true);
});

test('recordings kept: the calls stay, and no longer carry the erased client id', async () => {
  const { clientId, fileIds } = await clientWithCalls('Otto', 2);
  await deleteClientFirst(clientId, fileIds);
  const parts = await eraseAfterwards(clientId, 'keep');

  expect(parts.transcription).toEqual({ clientLinksCleared: 2 });
  for (const fileId of fileIds) expect(await listed(fileId)).toBe(true);
  const named = await stack.database.query<{ n: number }>(
    'select count(*) as n from transcription.transcripts where unlinked_client_id = $1',
    [clientId],
  );
  expect(Number(named[0]!.n)).toBe(0);
});
