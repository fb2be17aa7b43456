import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../src';

let scratch: string;
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'earshot-pglite-template-'));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

test('a new data directory starts as a copy of the template, and keeps its own data after', async () => {
  // A template made the way the build makes one (initdb, closed cleanly), with a row to recognise it by.
  const made = await openDatabase({ dataDir: join(scratch, 'template'), template: null });
  await made.query('create table marker (label text)');
  await made.query("insert into marker values ('from the template')");
  await made.close();
  const template = join(scratch, 'template', 'pgdata');

  const dataDir = join(scratch, 'data');
  // What an interrupted copy left behind is replaced, never opened.
  mkdirSync(join(dataDir, 'pgdata.copying', 'base'), { recursive: true });
  const copied = await openDatabase({ dataDir, template });
  expect(await copied.query('select label from marker')).toEqual([{ label: 'from the template' }]);
  await copied.query("insert into marker values ('its own')");
  await copied.close();
  expect(existsSync(join(dataDir, 'pgdata.copying'))).toBe(false);

  // A restart opens the directory as it is: the template is not copied over it again.
  const reopened = await openDatabase({ dataDir, template });
  expect((await reopened.query<{ label: string }>('select label from marker order by 1')).map((r) => r.label)).toEqual([
    'from the template',
    'its own',
  ]);
  await reopened.close();
});

test('without a template a new data directory is made by initdb', async () => {
  const database = await openDatabase({ dataDir: join(scratch, 'fresh'), template: join(scratch, 'missing') });
  expect(await database.query<{ n: number }>('select 1 as n')).toEqual([{ n: 1 }]);
  await database.close();
  expect(existsSync(join(scratch, 'fresh', 'pgdata', 'PG_VERSION'))).toBe(true);
});
