import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTestStack, serveUnmeteredCredits } from '@earshot/kit/testing';
import { fileService } from '@earshot/file-service';
import { transcriptionService } from '@earshot/transcription-service';
import { emitted, makeMono, tmp, upload, waitForStatus } from './helpers';

const ACME = '11111111-1111-4111-8111-111111111111';

// A program that never answers stands in for ffprobe kept busy by a file built for it (a huge
// stream with no header to stop at): it is killed at FFPROBE_TIMEOUT_MS and the job fails with
// the reason, once, not retried.
test('an audio probe that does not end is killed at its limit and the job fails with the reason', async () => {
  const probe = join(tmp(), 'ffprobe-that-never-ends');
  writeFileSync(probe, '#!/bin/sh\nexec tail -f /dev/null\n');
  chmodSync(probe, 0o755);
  const stack = await createTestStack([fileService, transcriptionService], {
    TRANSCRIPTION_POLL_MS: '100',
    TRANSCRIPTION_RETRY_BASE_MS: '10',
    FFPROBE_PATH: probe,
    FFPROBE_TIMEOUT_MS: '1000',
  });
  serveUnmeteredCredits(stack.database);
  try {
    const user = await stack.tokenFor('USER', ACME);
    const fileId = await upload(stack, user, makeMono().audio, 'slow.flac');
    const status = await waitForStatus(stack, user, fileId);
    expect(status).toMatchObject({
      status: 'failed',
      reason: 'The file could not be read as audio within 1 s',
      attempts: 1,
    });
    expect(await emitted(stack, 'transcript.completed', fileId)).toEqual([]);
  } finally {
    await stack.close();
  }
}, 60_000);
