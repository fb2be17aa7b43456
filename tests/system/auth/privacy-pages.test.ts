import { kitMigrations, migrate, type Database, type PageEnd } from '@earshot/kit';
import { openTestDatabase } from '@earshot/kit/testing';
import { migrations as messagingMigrations } from '../../../services/messaging/src/db/migrations';
import { notificationsOf } from '../../../services/messaging/src/repositories/privacy';
import { migrations as tenantMigrations } from '../../../services/tenant/src/db/migrations';
import { callsOfClient } from '../../../services/tenant/src/repositories/privacy';

// A person's export reads each list in keyset pages, each page after the last row of the one before.
// That row may be deleted between two pages (the person deletes a notification or a call while their
// export is written): the next page still starts right after it, so no row after it is missed. Rows
// a microsecond apart, or with no upload time (sorted last), are told apart exactly.
const COMPANY = '00000000-0000-0000-0000-00000000c0de';
const CLIENT = '00000000-0000-0000-0000-0000000c1e47';
const USER = 'user-pages';
const id = (n: number) => `00000000-0000-0000-0000-${String(n).padStart(12, '0')}`;

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
  await migrate(database, 'tenant', [...kitMigrations, ...tenantMigrations]);
  await migrate(database, 'messaging', [...kitMigrations, ...messagingMigrations]);
});
afterAll(async () => database.close());

const end = (row: { id: string; sortKey: string }): PageEnd => ({ id: row.id, sortKey: row.sortKey });

test('a page read after its previous page’s last row was deleted starts with the row after it', async () => {
  // Rows 2, 3 and 4 are a microsecond apart; 4 and 5 share their time and are ordered by id.
  const times = ['00:00:00', '00:00:00.000001', '00:00:00.000002', '00:00:00.000003', '00:00:00.000003', '00:00:01'];
  for (const [i, time] of times.entries())
    await database.query(
      `insert into messaging.notifications (id, user_id, company_id, kind, title, body, created_at)
       values ($1, $2, $3, 'note', $4, '', $5)`,
      [id(i + 1), USER, COMPANY, `n${i + 1}`, `2026-01-01 ${time}+00`],
    );
  const page = (after: PageEnd | null) => notificationsOf(database.db, COMPANY, USER, { after, limit: 2 });

  const first = await page(null);
  expect(first.map((row) => row.title)).toEqual(['n1', 'n2']);
  await database.query('delete from messaging.notifications where id = $1', [id(2)]);
  const second = await page(end(first[1]!));
  expect(second.map((row) => row.title)).toEqual(['n3', 'n4']);
  await database.query('delete from messaging.notifications where id = $1', [id(4)]);
  expect((await page(end(second[1]!))).map((row) => row.title)).toEqual(['n5', 'n6']);
});

test('calls without an upload time, sorted last, are paged past a deleted one too', async () => {
  const uploaded = ['2026-01-01 00:00:00.000001+00', '2026-01-01 00:00:00.000002+00', null, null, null];
  for (const [i, at] of uploaded.entries())
    await database.query(
      `insert into tenant.client_recordings (file_id, company_id, client_id, name, uploaded_at) values ($1, $2, $3, $4, $5)`,
      [id(i + 1), COMPANY, CLIENT, `c${i + 1}`, at],
    );
  const page = (after: { fileId: string; sortKey: string } | null) =>
    callsOfClient(database.db, COMPANY, CLIENT, {
      after: after && { id: after.fileId, sortKey: after.sortKey },
      limit: 2,
    });

  const first = await page(null);
  expect(first.map((row) => row.name)).toEqual(['c1', 'c2']);
  await database.query('delete from tenant.client_recordings where file_id = $1', [id(2)]);
  const second = await page(first[1]!);
  expect(second.map((row) => row.name)).toEqual(['c3', 'c4']);
  await database.query('delete from tenant.client_recordings where file_id = $1', [id(4)]);
  expect((await page(second[1]!)).map((row) => row.name)).toEqual(['c5']);
});
