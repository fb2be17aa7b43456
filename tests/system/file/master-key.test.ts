import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { CSRF_HEADER, type Database } from '@earshot/kit';
import type { AllInOne } from '@earshot/gateway';
import { startApiProduct, type ApiProduct } from '../all-in-one';
import { filesUnder, wavHeader } from '../../../services/file/test/helpers';

// `npm start` on a fresh machine: no ENCRYPTION_MASTER_KEY, and the all-in-one composition makes
// none. Over real HTTP on loopback, as the console calls it: turning encryption on is refused
// naming the variable, and a company whose switch is on anyway cannot upload (503, nothing kept).
const ADMIN_EMAIL = 'root@master-key.test';
const ADMIN_PASSWORD = 'master-key-password-1';

let product: ApiProduct;
let earshot: AllInOne;
let database: Database;
let dataDir: string;
let origin: string;
let token: string;
let companyId: string;

const CSRF_HEADER_VALUE = { [CSRF_HEADER]: 'XMLHttpRequest' };

/** The fields of the answers these tests read. */
interface Answer {
  _id: string;
  message: string;
  details: unknown;
  encryption: boolean;
}

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; json: Answer }> {
  const response = await fetch(`${origin}/api${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...CSRF_HEADER_VALUE,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Answer };
}

const policies = (encryption: boolean) => ({
  redaction: 'off',
  keepOriginal: false,
  encryption,
  retention: { recordingsDays: null, chatsDays: null, auditDays: null },
});

beforeAll(async () => {
  // No ENCRYPTION_MASTER_KEY: the all-in-one composition makes none.
  product = await startApiProduct('master-key', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
  ({ earshot, database, dataDir } = product);
  origin = await earshot.app.listen({ host: '127.0.0.1', port: 0 });
  const login = await fetch(`${origin}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...CSRF_HEADER_VALUE },
    body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
  });
  expect(login.status).toBe(200);
  const hostId = ((await login.json()) as { user: { _id: string } }).user._id;
  token = await earshot.signer.sign({ userId: hostId, companyId: null, role: 'HOST_ADMIN', email: ADMIN_EMAIL });
  const company = await call('POST', '/companies', { name: 'Key Co', code: 'KEY-CO', domain: 'key-co', maxUsers: 5 });
  expect(company.status).toBe(201);
  companyId = company.json._id;
  await earshot.settle();
}, 120_000);
afterAll(async () => product?.close());

test('all in one without a master key: turning encryption on is 409 naming ENCRYPTION_MASTER_KEY, and nothing changes', async () => {
  const refused = await call('PUT', `/companies/${companyId}/policies`, policies(true));
  expect(refused.status).toBe(409);
  expect(refused.json.message).toContain('ENCRYPTION_MASTER_KEY');
  expect(refused.json.details).toEqual([{ field: 'body.encryption', message: refused.json.message }]);
  await earshot.settle();
  expect((await call('GET', `/companies/${companyId}/policies`)).json.encryption).toBe(false);
  // No service was told: the file service keeps no switch for the company.
  const keys = (await database.db.execute(
    sql`select encrypt from file.company_keys where company_id = ${companyId}`,
  )) as unknown as { rows: unknown[] };
  expect(keys.rows).toEqual([]);
});

test('all in one without a master key: an upload of a company encrypting anyway is 503 naming ENCRYPTION_MASTER_KEY and keeps nothing', async () => {
  // The switch as a company.policies_changed of a tenant that had a key would have left it.
  await database.db.execute(sql`update tenant.companies set encryption = true where id = ${companyId}`);
  await database.db.execute(
    sql`insert into file.company_keys (company_id, wrapped_key, master_key_id, encrypt, updated_at)
        values (${companyId}, null, null, true, now())`,
  );
  const samples = randomBytes(40_000);
  const form = new FormData();
  form.append('file', new Blob([wavHeader(samples.length), samples], { type: 'audio/wav' }), 'call.wav');
  const response = await fetch(`${origin}/api/files/upload?companyId=${companyId}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, ...CSRF_HEADER_VALUE },
    body: form,
  });
  expect(response.status).toBe(503);
  expect(await response.json()).toEqual({
    message: expect.stringContaining('ENCRYPTION_MASTER_KEY'),
    code: 'ENCRYPTION_KEY_MISSING',
  });
  await earshot.settle();
  const rows = (await database.db.execute(
    sql`select id from file.files where company_id = ${companyId}`,
  )) as unknown as { rows: unknown[] };
  expect(rows.rows).toEqual([]);
  expect(filesUnder(join(dataDir, 'objects'))).toEqual([]);
});
