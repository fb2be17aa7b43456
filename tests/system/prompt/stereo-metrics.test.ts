import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CallMetricsDto } from '@earshot/contracts';
import { createTestStack, serveUnmeteredCredits, type TestStack } from '@earshot/kit/testing';
import { fileService } from '@earshot/file-service';
import { transcriptionService } from '@earshot/transcription-service';
import { tmp, upload, waitForStatus } from '../transcription/helpers';
import { promptService } from '@earshot/prompt-service';

// Call analytics on a real stereo call through the real offline pipeline (file upload, PocketSphinx
// per channel, transcript events, this service's copy): voices made with espeak-ng, placed with sox
// at known times, the customer starting one second before the agent's first turn ends. Recognised
// word times are not the audio's to the millisecond (PocketSphinx may drop a short word at an edge),
// so this test allows TOLERANCE seconds; the exact values are asserted in metrics.test.ts.
const TOLERANCE = 0.6;
const OVERLAP = 1;
const PAUSE = 1.5;

const sox = (...args: string[]) => execFileSync('sox', ['-V1', ...args]);
const length = (path: string) => Number(execFileSync('soxi', ['-D', path]).toString().trim());

/** A voice saying `text`, without the silence espeak-ng puts around it: its length is its speech. */
function voice(dir: string, name: string, spec: string, text: string): string {
  const raw = join(dir, `${name}-raw.wav`);
  const trimmed = join(dir, `${name}.wav`);
  execFileSync('espeak-ng', ['-v', spec, '-s', '160', '-w', raw, text]);
  sox(raw, trimmed, 'silence', '1', '0.02', '1%', 'reverse', 'silence', '1', '0.02', '1%', 'reverse');
  return trimmed;
}

function makeOverlappingCall() {
  const dir = tmp();
  const agent1 = voice(dir, 'a1', 'en-us+m1', 'hello. one two three four five six seven.');
  const customer = voice(dir, 'c1', 'en-us+f5', 'thank you very much. four five six seven eight nine.');
  const agent2 = voice(dir, 'a2', 'en-us+m1', 'good morning. good bye.');
  const a1 = { start: 0.5, end: 0.5 + length(agent1) };
  const c1 = { start: a1.end - OVERLAP, end: a1.end - OVERLAP + length(customer) };
  const a2 = { start: c1.end + PAUSE, end: c1.end + PAUSE + length(agent2) };
  const total = a2.end + 0.5;
  const left = join(dir, 'left.wav');
  const right = join(dir, 'right.wav');
  const gap = join(dir, 'gap.wav');
  sox('-n', '-r', '22050', '-c', '1', gap, 'trim', '0', String(a2.start - a1.end));
  sox(agent1, gap, agent2, join(dir, 'agent.wav'));
  sox(join(dir, 'agent.wav'), left, 'pad', String(a1.start), String(total - a2.end));
  sox(customer, right, 'pad', String(c1.start), String(total - c1.end));
  const call = join(dir, 'call.wav');
  sox('-M', left, right, call);
  return { audio: readFileSync(call), duration: length(call), a1, c1, a2 };
}

let stack: TestStack;
beforeAll(async () => {
  stack = await createTestStack([fileService, transcriptionService, promptService], { TRANSCRIPTION_POLL_MS: '100' });
  // No tenant service in this stack: nothing here is metered.
  serveUnmeteredCredits(stack.database);
}, 60_000);
afterAll(async () => stack.close());

test('a stereo call with one deliberate overlap: talk times, the overlap and the silences, as placed', async () => {
  const call = makeOverlappingCall();
  const token = await stack.tokenFor('ADMIN', '33333333-3333-4333-8333-333333333333');
  const fileId = await upload(stack, token, call.audio, 'overlap.wav');
  expect((await waitForStatus(stack, token, fileId)).status).toBe('completed');
  const res = await stack.as(token, { method: 'GET', url: `/api/analysis/transcripts/${fileId}/metrics` });
  expect(res.statusCode).toBe(200);
  const m = res.json() as CallMetricsDto;
  const near = (actual: number | undefined, expected: number) =>
    expect(Math.abs((actual ?? NaN) - expected)).toBeLessThanOrEqual(TOLERANCE);

  expect(m.duration).toBeCloseTo(call.duration, 2);
  const agent = m.speakers.find((s) => s.speakerId === 'Agent');
  const customer = m.speakers.find((s) => s.speakerId === 'Customer');
  near(agent?.talkTime, call.a1.end - call.a1.start + call.a2.end - call.a2.start);
  near(customer?.talkTime, call.c1.end - call.c1.start);
  expect(agent!.share + customer!.share).toBeCloseTo(1, 9);
  expect([agent!.turns, customer!.turns]).toEqual([2, 1]);
  expect(m.overlaps.count).toBe(1);
  near(m.overlaps.total, OVERLAP);
  near(m.silence.longest, PAUSE);
  near(m.silence.total, 0.5 + PAUSE + 0.5);
}, 300_000);
