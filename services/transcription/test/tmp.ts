import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from '@jest/globals';

const made: string[] = [];
// Removed when the test file ends: about a hundred of these per run were left behind in /tmp.
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh scratch directory for one test (models, audio, extracted archives), removed after the file's tests. */
export const tmp = () => {
  const dir = mkdtempSync(join(tmpdir(), 'earshot-stt-test-'));
  made.push(dir);
  return dir;
};
