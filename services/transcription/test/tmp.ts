import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh scratch directory for one test (models, audio, extracted archives). */
export const tmp = () => mkdtempSync(join(tmpdir(), 'earshot-stt-test-'));
