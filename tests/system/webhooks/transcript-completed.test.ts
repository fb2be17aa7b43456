import type { WebhookCreated } from '@earshot/contracts';
import { createTestStack, serveUnmeteredCredits, type TestStack } from '@earshot/kit/testing';
import { fileService } from '@earshot/file-service';
import { transcriptionService } from '@earshot/transcription-service';
import { webhooksService } from '@earshot/webhooks-service';
import { Receiver, verify } from '../../../services/webhooks/test/receiver';
import { getTranscript, makeCall, upload, waitForStatus } from '../transcription/helpers';

const ACME = '11111111-1111-4111-8111-111111111111';
const OTHER = '22222222-2222-4222-8222-222222222222';

let stack: TestStack;
let receiver: Receiver;

beforeAll(async () => {
  stack = await createTestStack([fileService, transcriptionService, webhooksService], {
    TRANSCRIPTION_POLL_MS: '100',
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    WEBHOOK_POLL_MS: '50',
  });
  // No tenant service in this stack: nothing here is metered.
  serveUnmeteredCredits(stack.database);
  receiver = await Receiver.start();
}, 60_000);
afterAll(async () => {
  await stack.close();
  await receiver.close();
});

async function register(token: string, path: string): Promise<WebhookCreated> {
  const res = await stack.as(token, {
    method: 'POST',
    url: '/api/webhooks',
    payload: { url: `${receiver.url}${path}`, events: ['file.uploaded', 'transcript.completed'] },
  });
  expect(res.statusCode).toBe(201);
  return res.json() as WebhookCreated;
}

test("a stereo call's upload and transcript.completed reach the company's CRM signed, without a word of the call", async () => {
  const admin = await stack.tokenFor('ADMIN', ACME);
  const user = await stack.tokenFor('USER', ACME);
  const crm = await register(admin, '/crm');
  const elsewhere = await register(await stack.tokenFor('ADMIN', OTHER), '/elsewhere');

  const fileId = await upload(stack, user, makeCall().audio, 'call.wav');
  expect((await waitForStatus(stack, user, fileId)).status).toBe('completed');
  const transcript = await getTranscript(stack, user, fileId);

  const [uploaded, completed] = await receiver.waitFor('/crm', 2);
  // Verified by the Standard Webhooks library, as the receiver would.
  expect(verify(crm.secret, uploaded!)).toMatchObject({
    type: 'file.uploaded',
    data: { fileId, fileName: 'call.wav' },
  });
  const payload = verify(crm.secret, completed!);
  expect(payload).toMatchObject({
    type: 'transcript.completed',
    data: { fileId, transcriptId: transcript._id, fileName: 'call.wav', speakers: 2, engine: 'pocketsphinx' },
  });
  expect(payload.data.link).toMatch(new RegExp(`/transcripts/${fileId}$`));
  expect(payload.data.words).toBeGreaterThan(0);
  // Ids, names and links: none of the words spoken.
  const spoken = transcript.metadata.speakerSegments.flatMap((s) => s.words.map((w) => w.text.toLowerCase()));
  expect(spoken.length).toBeGreaterThan(3);
  const body = completed!.body.toLowerCase();
  for (const word of spoken.filter((w) => w.length > 3)) expect(body).not.toContain(`"${word}`);
  expect(body).not.toContain('segments');

  // Another company's endpoint never hears of it.
  expect(receiver.on('/elsewhere')).toHaveLength(0);
  expect(elsewhere.companyId).toBe(OTHER);
}, 300_000);
