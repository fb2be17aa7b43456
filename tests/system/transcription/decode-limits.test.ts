import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTestStack, serveUnmeteredCredits } from '@earshot/kit/testing';
import { fileService } from '@earshot/file-service';
import { transcriptionService } from '@earshot/transcription-service';
import { emitted, makeMono, tmp, upload, waitForStatus } from './helpers';

const ACME = '11111111-1111-4111-8111-111111111111';

/** A program that never ends, standing in for ffprobe or ffmpeg kept busy by a file built for it. */
function neverEnds(name: string): string {
  const path = join(tmp(), name);
  writeFileSync(path, '#!/bin/sh\nexec tail -f /dev/null\n');
  chmodSync(path, 0o755);
  return path;
}

/** Uploads the usual short recording under `env` and answers the job's final status. */
async function transcribeWith(env: Record<string, string>) {
  const stack = await createTestStack([fileService, transcriptionService], {
    TRANSCRIPTION_POLL_MS: '100',
    TRANSCRIPTION_RETRY_BASE_MS: '10',
    ...env,
  });
  serveUnmeteredCredits(stack.database);
  try {
    const user = await stack.tokenFor('USER', ACME);
    const fileId = await upload(stack, user, makeMono().audio, 'call.flac');
    const status = await waitForStatus(stack, user, fileId);
    return { status, completed: await emitted(stack, 'transcript.completed', fileId) };
  } finally {
    await stack.close();
  }
}

// Each limit kills the program (or stops the decode) and fails the job once, not retried, with a
// reason people read: a file that kept a program busy will keep it as busy the next time.
test('an audio probe that does not end is killed at FFPROBE_TIMEOUT_MS', async () => {
  const { status, completed } = await transcribeWith({
    FFPROBE_PATH: neverEnds('ffprobe-that-never-ends'),
    FFPROBE_TIMEOUT_MS: '1000',
  });
  expect(status).toMatchObject({
    status: 'failed',
    reason: 'The file could not be read as audio within 1 s',
    attempts: 1,
  });
  expect(completed).toEqual([]);
}, 60_000);

test('a decode that does not end is killed at FFMPEG_DECODE_TIMEOUT_MS', async () => {
  const { status, completed } = await transcribeWith({
    FFMPEG_PATH: neverEnds('ffmpeg-that-never-ends'),
    FFMPEG_DECODE_TIMEOUT_MS: '1000',
  });
  expect(status).toMatchObject({ status: 'failed', reason: 'The audio could not be decoded within 1 s', attempts: 1 });
  expect(completed).toEqual([]);
}, 60_000);

test('a recording longer than TRANSCRIPTION_MAX_AUDIO_SECONDS fails with the limit', async () => {
  // The recording is about six seconds long.
  const { status, completed } = await transcribeWith({ TRANSCRIPTION_MAX_AUDIO_SECONDS: '2' });
  expect(status).toMatchObject({ status: 'failed', reason: 'The recording is longer than the 2 s limit', attempts: 1 });
  expect(completed).toEqual([]);
}, 60_000);
