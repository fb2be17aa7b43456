import { randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { createTestStack, serveUnmeteredCredits, type TestStack } from '@earshot/kit/testing';
import { fileService } from '../src';
import { announceCompany, filesUnder, uploadRequest, wavHeader } from './helpers';

// A company whose encryption is on while this server has no ENCRYPTION_MASTER_KEY (switched on in
// SQL, or by a tenant that had a key when the file service had none): its uploads cannot be
// encrypted, so they are refused 503 with a message naming the variable, and leave nothing behind.

const ENCRYPTING = randomUUID();
const PLAIN = randomUUID();
const samples = randomBytes(50_000);
const wav = Buffer.concat([wavHeader(samples.length), samples]);

let stack: TestStack;

const objectsDir = () => join(stack.dataDir, 'objects');

beforeAll(async () => {
  stack = await createTestStack([fileService]);
  serveUnmeteredCredits(stack.database);
  await announceCompany(stack, ENCRYPTING, null);
  await announceCompany(stack, PLAIN, null);
  await stack.database.db.execute(
    sql`insert into file.company_keys (company_id, wrapped_key, master_key_id, encrypt, updated_at)
        values (${ENCRYPTING}, null, null, true, now())`,
  );
}, 60_000);
afterAll(async () => stack.close());

test('an upload of an encrypting company without a master key answers 503 naming ENCRYPTION_MASTER_KEY and stores nothing', async () => {
  const admin = await stack.tokenFor('ADMIN', ENCRYPTING);
  const res = await stack.as(admin, uploadRequest(wav, 'call.wav'));
  expect(res.statusCode).toBe(503);
  expect(res.json()).toEqual({
    message: expect.stringContaining('ENCRYPTION_MASTER_KEY'),
    code: 'ENCRYPTION_KEY_MISSING',
  });

  const rows = (await stack.database.db.execute(
    sql`select id from file.files where company_id = ${ENCRYPTING}`,
  )) as unknown as { rows: unknown[] };
  expect(rows.rows).toEqual([]);
  // Neither the object nor the storage's temporary file (objects/.tmp) is left.
  expect(filesUnder(objectsDir())).toEqual([]);
  await stack.settle();
});

test('a company without encryption still uploads on the same server', async () => {
  const admin = await stack.tokenFor('ADMIN', PLAIN);
  const res = await stack.as(admin, uploadRequest(wav, 'call.wav'));
  expect(res.statusCode).toBe(201);
  expect(filesUnder(objectsDir())).toContain(res.json().path);
});
