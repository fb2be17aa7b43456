import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventDefinition, SYSTEM_ACTOR, type CompanyPolicies, type Envelope } from '@earshot/contracts';
import { buildEnvelope } from '@earshot/kit';
import type { TestStack } from '@earshot/kit/testing';
import { emitted, listenOnLoopback, makeTones, speechProviderStack, upload, waitForStatus } from './helpers';

// Encryption at rest in the all-in-one process: the transcription service reads an
// encrypted company's recording through the file service's key ring, and when audio redaction
// rewrites the recording, it is written back encrypted, never in plain.

const ACME = randomUUID();
const words = ['my', 'card', 'is', '4111', '1111', '1111', '1111', 'thanks'].map((word, i) => ({
  word,
  start: 0.1 + i * 0.2,
  end: 0.28 + i * 0.2,
}));
const provider: Server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        task: 'transcribe',
        language: 'english',
        duration: 2,
        text: words.map((w) => w.word).join(' '),
        words,
        segments: [],
      }),
    );
  });
});

let stack: TestStack;
let user: string;

beforeAll(async () => {
  stack = await speechProviderStack(await listenOnLoopback(provider), {
    ENCRYPTION_MASTER_KEY: randomBytes(32).toString('hex'),
  });
  user = await stack.tokenFor('USER', ACME);
  const policies = (encryption: boolean): CompanyPolicies => ({
    redaction: encryption ? 'text_audio' : 'off',
    keepOriginal: false,
    encryption,
    retention: { recordingsDays: null, chatsDays: null, auditDays: null },
  });
  const envelope = buildEnvelope({
    type: 'company.policies_changed',
    companyId: ACME,
    actor: SYSTEM_ACTOR,
    data: { id: ACME, before: policies(false), after: policies(true) },
  }) as Envelope;
  await stack.bus.publish([{ topic: eventDefinition(envelope.type).topic, key: ACME, envelope }]);
  await stack.settle();
}, 60_000);
afterAll(async () => {
  await stack.close();
  await new Promise((resolve) => provider.close(resolve));
});

test('an encrypted recording is transcribed, and its redacted rewrite is stored encrypted and still plays', async () => {
  const audio = makeTones([{ start: 0.1, length: 1.6 }], 2);
  const fileId = await upload(stack, user, audio, 'call.wav');
  expect((await waitForStatus(stack, user, fileId)).status).toBe('completed');
  const redacted = await emitted(stack, 'transcript.audio_redacted', fileId);
  expect(redacted).toHaveLength(1);
  const file = (await stack.as(user, { method: 'GET', url: `/api/files/${fileId}` })).json() as {
    path: string;
    size: number;
  };
  expect(file.size).toBe(redacted[0]!.data.size);
  const raw = readFileSync(join(stack.dataDir, 'objects', file.path));
  expect(raw.subarray(0, 4).toString('latin1')).toBe('ESC1');
  expect(raw.includes(Buffer.from('RIFF'))).toBe(false);
  const played = await stack.as(user, { method: 'GET', url: `/api/uploads/${file.path}` });
  expect(played.statusCode).toBe(200);
  expect(played.rawPayload.length).toBe(file.size);
  expect(played.rawPayload.subarray(0, 4).toString('latin1')).toBe('RIFF');
});
