import { execFile } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Envelope, SpeechModelDto, SpeechModelEntry } from '@earshot/contracts';
import type { ServiceContext } from '@earshot/kit';
import { createTestStack, type TestStack } from '@earshot/kit/testing';
import { transcriptionService, type TranscriptionConfig } from '../src';
import { freeBytes, SpeechModelManager, speechModelManager } from '../src/models/manager';
import { defaultWhisperModel, diarizationModels, readyModel } from '../src/models/store';
import { fakeModel, ModelMirror, sha256, writeCatalogue } from './model-mirror';
import { tmp } from './tmp';
import { runModelsCommand } from '../../../scripts/models';

const MB = 1024 * 1024;
const files = {
  alpha: fakeModel(3 * MB),
  bravo: fakeModel(3 * MB),
  charlie: fakeModel(2 * MB),
  seg: fakeModel(MB),
  emb: fakeModel(MB),
};
const whisper = (name: string, data: Buffer, sha = sha256(data)): SpeechModelEntry => ({
  name,
  kind: 'whisper',
  file: `ggml-${name}.bin`,
  languages: name.endsWith('.en') ? 'en' : 'multilingual',
  sizeBytes: data.length,
  sha256: sha,
});
const CATALOGUE: SpeechModelEntry[] = [
  whisper('alpha.en', files.alpha),
  whisper('bravo', files.bravo),
  whisper('charlie', files.charlie),
  whisper('wrong-hash', files.charlie, 'f'.repeat(64)),
  { ...whisper('moved', files.charlie), file: 'moved.bin' },
  whisper('offline', files.charlie),
  // Unpinned: the first download's hash is recorded.
  {
    name: 'diarization-segmentation',
    kind: 'diarization',
    file: 'seg.onnx',
    languages: 'multilingual',
    sizeBytes: files.seg.length,
    sha256: null,
  },
  {
    name: 'diarization-embedding',
    kind: 'diarization',
    file: 'emb.onnx',
    languages: 'multilingual',
    sizeBytes: files.emb.length,
    sha256: sha256(files.emb),
  },
];

let mirror: ModelMirror;
let stack: TestStack;
let ctx: ServiceContext<TranscriptionConfig>;
let host: string;
let modelsDir: string;
let catalogue: string;
const published: Envelope[] = [];

beforeAll(async () => {
  mirror = await new ModelMirror().listen();
  mirror.files.set('ggml-alpha.en.bin', files.alpha);
  mirror.files.set('ggml-bravo.bin', files.bravo);
  mirror.files.set('ggml-charlie.bin', files.charlie);
  mirror.files.set('ggml-wrong-hash.bin', files.charlie);
  mirror.files.set('seg.onnx', files.seg);
  mirror.files.set('emb.onnx', files.emb);
  mirror.redirects.set('moved.bin', 'file:///etc/passwd');
  const dir = tmp();
  modelsDir = join(dir, 'models');
  catalogue = writeCatalogue(dir, CATALOGUE);
  stack = await createTestStack([transcriptionService], {
    SPEECH_MODELS_URL: mirror.url,
    SPEECH_MODELS_DIR: modelsDir,
    SPEECH_MODELS_CATALOGUE: catalogue,
    TRANSCRIPTION_WORKER: 'false',
  });
  ctx = stack.running.contexts.get('transcription') as ServiceContext<TranscriptionConfig>;
  await stack.bus.subscribe({
    group: 'spy',
    topics: ['earshot.transcription'],
    handle: async (e) => void published.push(e),
  });
  host = await stack.tokenFor('HOST_ADMIN', null);
}, 120_000);
afterAll(async () => {
  await stack?.close();
  await mirror?.close();
});

const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token = host) =>
  stack.as(token, { method, url: `/api/ai/speech-models${url}` });
const list = async () => (await api('GET', '')).json() as SpeechModelDto[];
const listed = async (name: string) => (await list()).find((m) => m.name === name)!;
/** Waits for this process's download of `name` to end (the manager the routes use). */
const settled = (name: string) => speechModelManager(ctx).settled(name);
const events = async (type: string) => {
  await stack.settle();
  return published.filter((e) => e.type === type);
};
const rowOf = async (name: string) =>
  (
    await stack.database.query<{ status: string; bytes_done: string; updated_at: Date }>(
      'select status, bytes_done, updated_at from transcription.speech_models where name = $1',
      [name],
    )
  )[0];

test('every role reads what the installed models mean for a recording: nothing yet on a new machine', async () => {
  const company = '22222222-2222-4222-8222-222222222222';
  for (const token of [
    host,
    ...(await Promise.all((['ADMIN', 'USER', 'CALLER'] as const).map((role) => stack.tokenFor(role, company)))),
  ]) {
    const answer = await api('GET', '/readiness', token);
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ whisper: false, speakerSeparation: false });
  }
  expect((await stack.as(null, { method: 'GET', url: '/api/ai/speech-models/readiness' })).statusCode).toBe(401);
});

test('a download streams to a .part file, reaches progress 1 and ready with the right hash, and becomes the default', async () => {
  mirror.gated.add('ggml-alpha.en.bin');
  const started = await api('POST', '/alpha.en/download');
  expect(started.statusCode).toBe(202);
  expect(started.json()).toMatchObject({
    name: 'alpha.en',
    status: 'downloading',
    progress: 0,
    languages: 'en',
    sizeBytes: files.alpha.length,
  });

  // One chunk, then the table shows progress between 0 and 1 while the rest waits.
  mirror.release(1);
  let during = await listed('alpha.en');
  while (during.progress === 0) during = await listed('alpha.en');
  expect(during.status).toBe('downloading');
  expect(during.progress).toBeGreaterThan(0);
  expect(during.progress).toBeLessThan(1);
  expect(existsSync(join(modelsDir, 'ggml-alpha.en.bin.part'))).toBe(true);
  expect(existsSync(join(modelsDir, 'ggml-alpha.en.bin'))).toBe(false);
  expect(await readyModel(ctx.db, 'alpha.en')).toBeNull();

  mirror.release(1000);
  await settled('alpha.en');
  mirror.gated.delete('ggml-alpha.en.bin');
  const done = await listed('alpha.en');
  expect(done).toMatchObject({
    status: 'ready',
    progress: 1,
    sha256: sha256(files.alpha),
    isDefault: true,
    error: null,
  });
  expect(sha256(readFileSync(join(modelsDir, 'ggml-alpha.en.bin')))).toBe(sha256(files.alpha));
  expect(existsSync(join(modelsDir, 'ggml-alpha.en.bin.part'))).toBe(false);

  // What the engines read.
  expect(await defaultWhisperModel(ctx.db)).toEqual({
    name: 'alpha.en',
    path: join(modelsDir, 'ggml-alpha.en.bin'),
    languages: 'en',
    sizeBytes: files.alpha.length,
  });
  expect(await readyModel(ctx.db, 'alpha.en')).toMatchObject({ name: 'alpha.en', languages: 'en' });

  const [ready] = await events('speech_model.ready');
  expect(ready).toMatchObject({
    companyId: null,
    actor: { role: 'HOST_ADMIN' },
    data: { name: 'alpha.en', sha256: sha256(files.alpha), sizeBytes: files.alpha.length },
  });
  expect((await events('speech_model.default_changed')).map((e) => e.data)).toEqual([
    { name: 'alpha.en', before: null },
  ]);

  // Downloading it again is refused: it is there.
  expect((await api('POST', '/alpha.en/download')).statusCode).toBe(409);
});

test('a download cut midway fails with a reason, and Download continues it with a Range request to the right file', async () => {
  mirror.cutAfter.set('ggml-bravo.bin', MB + 12345);
  expect((await api('POST', '/bravo/download')).statusCode).toBe(202);
  await settled('bravo');
  const failed = await listed('bravo');
  expect(failed.status).toBe('failed');
  expect(failed.error).toMatch(/connection closed after .* Download again to resume/i);
  const kept = statSync(join(modelsDir, 'ggml-bravo.bin.part')).size;
  expect(kept).toBeGreaterThan(0);
  expect(kept).toBeLessThan(files.bravo.length);

  mirror.requests.length = 0;
  expect((await api('POST', '/bravo/download')).statusCode).toBe(202);
  await settled('bravo');
  expect(mirror.requests).toEqual([{ path: 'ggml-bravo.bin', range: `bytes=${kept}-` }]);
  expect(await listed('bravo')).toMatchObject({
    status: 'ready',
    progress: 1,
    sha256: sha256(files.bravo),
    isDefault: false,
  });
  expect(sha256(readFileSync(join(modelsDir, 'ggml-bravo.bin')))).toBe(sha256(files.bravo));
});

test('a download left running by a stopped process continues when the next one starts', async () => {
  // What a process stopped mid-download leaves: the row still downloading, a part on disk.
  const half = files.charlie.subarray(0, MB);
  writeFileSync(join(modelsDir, 'ggml-charlie.bin.part'), half);
  await stack.database.query(
    `insert into transcription.speech_models (name, kind, languages, path, url, size, sha256, status, bytes_done, updated_at)
     values ('charlie', 'whisper', 'multilingual', $1, $2, $3, $4, 'downloading', $5, now() - interval '1 hour')`,
    [
      join(modelsDir, 'ggml-charlie.bin'),
      `${mirror.url}/ggml-charlie.bin`,
      files.charlie.length,
      sha256(files.charlie),
      half.length,
    ],
  );
  mirror.requests.length = 0;
  const next = new SpeechModelManager(ctx);
  await next.start();
  await next.settled('charlie');
  await next.stop();
  expect(mirror.requests).toEqual([{ path: 'ggml-charlie.bin', range: `bytes=${MB}-` }]);
  expect(await listed('charlie')).toMatchObject({ status: 'ready', sha256: sha256(files.charlie) });
});

test('a checksum mismatch fails the download and leaves no file', async () => {
  expect((await api('POST', '/wrong-hash/download')).statusCode).toBe(202);
  await settled('wrong-hash');
  const failed = await listed('wrong-hash');
  expect(failed).toMatchObject({ status: 'failed', progress: 0 });
  expect(failed.error).toContain(`not the expected ${'f'.repeat(64)}`);
  expect(existsSync(join(modelsDir, 'ggml-wrong-hash.bin'))).toBe(false);
  expect(existsSync(join(modelsDir, 'ggml-wrong-hash.bin.part'))).toBe(false);
  expect(await readyModel(ctx.db, 'wrong-hash')).toBeNull();
  expect((await api('PUT', '/wrong-hash/default')).statusCode).toBe(409);
});

test('a redirect to anything but http(s) is refused', async () => {
  expect((await api('POST', '/moved/download')).statusCode).toBe(202);
  await settled('moved');
  const failed = await listed('moved');
  expect(failed.status).toBe('failed');
  expect(failed.error).toMatch(/redirected to a file: address, which is refused/);
});

test('an unreachable host names the address it tried and the mirror setting', async () => {
  // A loopback port nothing listens on: the connection is refused at once.
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const { port } = closed.address() as AddressInfo;
  await new Promise((resolve) => closed.close(resolve));
  const offline = Object.create(ctx, {
    config: { value: { ...ctx.config, SPEECH_MODELS_URL: `http://127.0.0.1:${port}/models` } },
  }) as ServiceContext<TranscriptionConfig>;
  const manager = new SpeechModelManager(offline);
  await manager.download('offline', { type: 'system', id: null });
  await manager.settled('offline');
  const failed = await listed('offline');
  expect(failed.status).toBe('failed');
  expect(failed.error).toBe(
    `Could not download from http://127.0.0.1:${port}/models/ggml-offline.bin (fetch failed: ECONNREFUSED). ` +
      'Offline? Set SPEECH_MODELS_URL to a mirror.',
  );
  expect((await api('DELETE', '/charlie')).statusCode).toBe(200);
});

test('a disk without the space refuses the download (507) before anything starts; the real statfs gives a number', async () => {
  const tight = new SpeechModelManager(ctx, { statfs: async () => ({ bavail: 100, bsize: 4096 }) });
  const refused = await tight.download('diarization-embedding', { type: 'system', id: null }).then(
    () => null,
    (error: unknown) => error as { statusCode: number; message: string; code: string },
  );
  expect(refused).toMatchObject({ statusCode: 507, code: 'INSUFFICIENT_STORAGE' });
  expect(refused!.message).toMatch(
    /Not enough disk space to download "diarization-embedding": it needs .* and 410 KB is free/,
  );
  expect(await listed('diarization-embedding')).toMatchObject({ status: 'absent', progress: 0 });
  expect(mirror.requests.some((r) => r.path === 'emb.onnx')).toBe(false);

  const free = await freeBytes(modelsDir);
  expect(Number.isFinite(free)).toBe(true);
  expect(free).toBeGreaterThan(0);
});

test('cancel stops a download and keeps its part; Download resumes from it', async () => {
  mirror.gated.add('emb.onnx');
  mirror.chunkBytes = 128 * 1024;
  expect((await api('POST', '/diarization-embedding/download')).statusCode).toBe(202);
  mirror.release(2);
  while ((await listed('diarization-embedding')).progress === 0) {
    /* until the first chunks are recorded */
  }
  const cancelled = await api('POST', '/diarization-embedding/cancel');
  expect(cancelled.statusCode).toBe(202);
  expect(cancelled.json()).toMatchObject({ status: 'absent' });
  const kept = statSync(join(modelsDir, 'emb.onnx.part')).size;
  expect(kept).toBeGreaterThan(0);
  expect((await listed('diarization-embedding')).progress).toBeCloseTo(kept / files.emb.length, 1);
  expect((await api('POST', '/diarization-embedding/cancel')).statusCode).toBe(409);

  mirror.requests.length = 0;
  mirror.gated.delete('emb.onnx');
  mirror.release(1000);
  expect((await api('POST', '/diarization-embedding/download')).statusCode).toBe(202);
  await settled('diarization-embedding');
  expect(mirror.requests).toEqual([{ path: 'emb.onnx', range: `bytes=${kept}-` }]);
  expect(await listed('diarization-embedding')).toMatchObject({ status: 'ready', sha256: sha256(files.emb) });
});

test('the diarizer gets both models once both are ready; an unpinned model records its hash; neither can be the default', async () => {
  expect(await diarizationModels(ctx.db)).toBeNull();
  expect((await api('POST', '/diarization-segmentation/download')).statusCode).toBe(202);
  await settled('diarization-segmentation');
  expect(await listed('diarization-segmentation')).toMatchObject({ status: 'ready', sha256: sha256(files.seg) });
  expect(await diarizationModels(ctx.db)).toEqual({
    segmentation: join(modelsDir, 'seg.onnx'),
    embedding: join(modelsDir, 'emb.onnx'),
  });
  const refused = await api('PUT', '/diarization-segmentation/default');
  expect(refused.statusCode).toBe(409);
  expect(refused.json().message).toMatch(/only a Whisper model can be the default/);
});

test('once a Whisper model is the default and both speaker models are ready, readiness says so', async () => {
  const user = await stack.tokenFor('USER', '22222222-2222-4222-8222-222222222222');
  expect((await api('GET', '/readiness', user)).json()).toEqual({ whisper: true, speakerSeparation: true });
});

test('make default: 409 unless ready; then the default moves, with its event', async () => {
  const absent = await api('PUT', '/bravo-nope/default');
  expect(absent.statusCode).toBe(404);
  await api('DELETE', '/charlie');
  const notReady = await api('PUT', '/charlie/default');
  expect(notReady.statusCode).toBe(409);
  expect(notReady.json().message).toMatch(/not downloaded yet/);

  const moved = await api('PUT', '/bravo/default');
  expect(moved.statusCode).toBe(200);
  expect(moved.json()).toMatchObject({ name: 'bravo', isDefault: true });
  expect((await listed('alpha.en')).isDefault).toBe(false);
  expect((await defaultWhisperModel(ctx.db))?.name).toBe('bravo');
  expect((await events('speech_model.default_changed')).at(-1)).toMatchObject({
    actor: { role: 'HOST_ADMIN' },
    data: { name: 'bravo', before: 'alpha.en' },
  });
});

test('delete removes the file and the part and clears the default', async () => {
  const removed = await api('DELETE', '/bravo');
  expect(removed.statusCode).toBe(200);
  expect(removed.json()).toMatchObject({ name: 'bravo', status: 'absent', progress: 0, isDefault: false });
  expect(existsSync(join(modelsDir, 'ggml-bravo.bin'))).toBe(false);
  expect(await defaultWhisperModel(ctx.db)).toBeNull();
  expect((await events('speech_model.removed')).at(-1)).toMatchObject({
    actor: { role: 'HOST_ADMIN' },
    data: { name: 'bravo' },
  });
  expect((await events('speech_model.default_changed')).at(-1)).toMatchObject({
    data: { name: null, before: 'bravo' },
  });

  // A failed download's part goes too.
  mirror.cutAfter.set('ggml-bravo.bin', 500_000);
  await api('POST', '/bravo/download');
  await settled('bravo');
  expect(existsSync(join(modelsDir, 'ggml-bravo.bin.part'))).toBe(true);
  expect((await api('DELETE', '/bravo')).statusCode).toBe(200);
  expect(existsSync(join(modelsDir, 'ggml-bravo.bin.part'))).toBe(false);
  expect((await rowOf('bravo'))?.status).toBe('absent');
});

test('only the platform administrator manages speech models; names are validated', async () => {
  const company = '22222222-2222-4222-8222-222222222222';
  for (const role of ['ADMIN', 'USER', 'CALLER'] as const) {
    const token = await stack.tokenFor(role, company);
    expect((await api('GET', '', token)).statusCode).toBe(403);
    expect((await api('POST', '/bravo/download', token)).statusCode).toBe(403);
    expect((await api('POST', '/bravo/cancel', token)).statusCode).toBe(403);
    expect((await api('DELETE', '/alpha.en', token)).statusCode).toBe(403);
    expect((await api('PUT', '/alpha.en/default', token)).statusCode).toBe(403);
  }
  expect(await listed('alpha.en')).toMatchObject({ status: 'ready' });
  expect((await api('POST', '/not-in-catalogue/download')).statusCode).toBe(404);
  const bad = await api('POST', '/..%2Fetc/download');
  expect(bad.statusCode).toBe(400);
  expect(bad.json().details).toEqual([expect.objectContaining({ field: 'params.name' })]);
  expect((await stack.as(null, { method: 'GET', url: '/api/ai/speech-models' })).statusCode).toBe(401);
});

test('the configuration refuses a download address that is not http(s), and an invalid catalogue', async () => {
  await expect(
    createTestStack([transcriptionService], { SPEECH_MODELS_URL: 'ftp://mirror.local/models' }),
  ).rejects.toThrow(/SPEECH_MODELS_URL/);
  const broken = join(tmp(), 'broken.json');
  writeFileSync(broken, JSON.stringify([{ name: '../x', kind: 'whisper' }]));
  await expect(createTestStack([transcriptionService], { SPEECH_MODELS_CATALOGUE: broken })).rejects.toThrow(
    /SPEECH_MODELS_CATALOGUE/,
  );
});

describe('npm run models', () => {
  const run = promisify(execFile);
  const root = join(import.meta.dirname, '..', '..', '..');
  const cli = (dataDir: string, ...args: string[]) => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATA_DIR: dataDir,
      SPEECH_MODELS_URL: mirror.url,
      SPEECH_MODELS_CATALOGUE: catalogue,
      LOG_LEVEL: 'warn',
    };
    delete env.DATABASE_URL;
    return run(join(root, 'node_modules', '.bin', 'tsx'), [join(root, 'scripts', 'models.ts'), ...args], {
      cwd: root,
      env,
    }).then(
      (r) => ({ code: 0, out: r.stdout }),
      (e: { code: number; stdout: string }) => ({ code: e.code, out: e.stdout }),
    );
  };

  // Each run starts tsx and opens the embedded database: a minute on a busy machine, so few runs.
  test('add and list work on the embedded database with progress lines, and a database in use is named', async () => {
    const dataDir = tmp();
    const added = await cli(dataDir, 'add', 'charlie');
    expect(added.code).toBe(0);
    // Not a terminal: plain percentage lines, up to 100 %.
    expect(added.out).toMatch(/^0% \(/m);
    expect(added.out).toMatch(/^100% \(2\.1 MB of 2\.1 MB\)$/m);
    expect(added.out).toMatch(/^charlie\s+2\.1 MB\s+ready\s+default, multilingual$/m);
    expect(sha256(readFileSync(join(dataDir, 'models', 'ggml-charlie.bin')))).toBe(sha256(files.charlie));

    const listedByCli = await cli(dataDir, 'list');
    expect(listedByCli.code).toBe(0);
    expect(listedByCli.out).toMatch(/^alpha\.en\s+3\.1 MB\s+absent\s+English only$/m);
    expect(listedByCli.out).toMatch(/^charlie\s+2\.1 MB\s+ready\s+default, multilingual$/m);

    // The console holding the embedded database: the command says so and touches nothing.
    writeFileSync(join(dataDir, 'pgdata', 'postmaster.pid'), '-42\n');
    const locked = await cli(dataDir, 'list');
    expect(locked.code).toBe(1);
    expect(locked.out).toMatch(/is open in another process \(the console, npm start\): stop it first/);
  }, 600_000);

  test('a wrong command prints the usage', async () => {
    const lines: string[] = [];
    expect(await runModelsCommand(['frobnicate'], { print: (line) => lines.push(line) })).toBe(2);
    expect(await runModelsCommand(['add'], { print: (line) => lines.push(line) })).toBe(2);
    expect(lines.join('\n')).toMatch(/usage: npm run models -- list/);
  });
});
