/**
 * `npm run bench:knowledge`: figures for the README of services/chat (custom GPTs).
 *  (a) Indexing throughput: a generated BENCH_PAGES-page (default 300) PDF uploaded to a custom
 *      GPT, from the upload's answer until the file is ready (text extraction with page numbers,
 *      chunking, full-text index), in pages per second; then the same file again with an
 *      embeddings model configured (the local test provider answers at once: what is measured is
 *      our side, the batches and the vectors stored).
 *  (b) Retrieval over BENCH_CHUNKS (default 10,000) chunks of one GPT: full-text search alone, and
 *      hybrid (the question embedded by the test provider, cosine over the GPT's vectors, fused by
 *      reciprocal rank fusion), 50 questions each after 5 warm-up runs.
 * Embedded PostgreSQL (PGlite) in a temporary DATA_DIR (or the server BENCH_DATABASE_URL names),
 * everything on 127.0.0.1. Figures depend on the machine and its load.
 */
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { aiCatalogue } from '@earshot/ai';
import { hashedEmbedding, startFakeOpenAI } from '@earshot/ai/testing';
import type { KnowledgeFileDto } from '@earshot/contracts';
import type { ServiceContext } from '@earshot/kit';
import { multipart } from '@earshot/kit/testing';
import { ms, prng, stats } from './bench-stats';

// Embedded PostgreSQL unless BENCH_DATABASE_URL names a server (a throwaway database is made there).
process.env.EARSHOT_TEST_DB = process.env.BENCH_DATABASE_URL ? 'postgres' : 'pglite';
if (process.env.BENCH_DATABASE_URL) process.env.DATABASE_URL = process.env.BENCH_DATABASE_URL;
const { createTestStack } = await import('@earshot/kit/testing');
const { promptService } = await import('@earshot/prompt-service');
const { chatService, knowledgeQueue } = await import('@earshot/chat-service');
const { Embedder } = await import('../services/chat/src/services/knowledge/embeddings');
const { KnowledgeRetrieval } = await import('../services/chat/src/services/knowledge/retrieval');
type ChatContext = ConstructorParameters<typeof Embedder>[0];

const PAGES = Number(process.env.BENCH_PAGES ?? 300);
const CHUNKS = Number(process.env.BENCH_CHUNKS ?? 10_000);
const RUNS = 50;
const WARM_UP = 5;
/** Vectors of a small real embeddings model (all-MiniLM-L6-v2, nomic-embed-text is 768). */
const DIMENSIONS = 384;

const TOPICS = [
  'invoice',
  'delivery',
  'refund',
  'contract',
  'password',
  'warranty',
  'upgrade',
  'discount',
  'installation',
  'router',
  'subscription',
  'payment',
  'parcel',
  'appointment',
  'battery',
  'licence',
  'meter',
  'roaming',
  'mortgage',
  'insurance',
];
const ACTIONS = [
  'must be approved by',
  'is handled by',
  'is escalated to',
  'is reviewed weekly by',
  'can be changed by',
  'is reported to',
];
const TEAMS = [
  'the billing team',
  'a supervisor',
  'the logistics desk',
  'customer care',
  'the legal department',
  'the regional manager',
];
const rand = prng(7);
const pick = <T>(list: T[]) => list[Math.floor(rand.next().value! * list.length)]!;
const sentence = () =>
  `Every ${pick(TOPICS)} request ${pick(ACTIONS)} ${pick(TEAMS)} within ${Math.floor(rand.next().value! * 60) + 1} days, case ${Math.floor(rand.next().value! * 90000) + 10000}.`;

async function makePdf(pages: number): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let p = 0; p < pages; p++) {
    const page = pdf.addPage([595, 842]);
    // About 2,000 characters a page, in 40 lines: a page of a typical policy document.
    for (let line = 0; line < 40; line++)
      page.drawText(`${sentence().slice(0, 90)}`, { x: 30, y: 800 - line * 19, size: 10, font });
  }
  return Buffer.from(await pdf.save());
}

const fake = await startFakeOpenAI();
fake.embed = (text) => hashedEmbedding(text, DIMENSIONS);
const stack = await createTestStack([promptService, chatService], {
  AI_ALLOW_PRIVATE_URLS: 'true',
  AI_TIMEOUT_MS: '60000',
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
});
try {
  const company = crypto.randomUUID();
  const admin = await stack.tokenFor('ADMIN', company);
  const host = await stack.tokenFor('HOST_ADMIN', null);
  const call = async (token: string, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) => {
    const res = await stack.as(token, {
      method,
      url,
      ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}),
    });
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.json() as Record<string, unknown>;
  };
  const newGpt = async () =>
    (
      await call(admin, 'POST', '/api/custom-gpt', {
        name: 'Bench',
        instructions: 'Answer from the files.',
        visibility: 'company',
      })
    )._id as string;
  const queue = knowledgeQueue(stack.database)!;
  const uploadAndWait = async (
    gptId: string,
    name: string,
    type: string,
    data: Buffer,
  ): Promise<{ seconds: number; file: KnowledgeFileDto }> => {
    const started = performance.now();
    const res = await stack.as(admin, {
      method: 'POST',
      url: `/api/custom-gpt/${gptId}/files?type=knowledge`,
      ...multipart({}, { name, type, data }),
    });
    if (res.statusCode !== 201) throw new Error(`upload: ${res.statusCode} ${res.body}`);
    await queue.idle();
    const seconds = (performance.now() - started) / 1000;
    const files = (
      await stack.as(admin, { method: 'GET', url: `/api/custom-gpt/${gptId}/files` })
    ).json() as KnowledgeFileDto[];
    const file = files.find((f) => f._id === (res.json() as KnowledgeFileDto)._id)!;
    if (file.status !== 'ready') throw new Error(`the file ended ${file.status}: ${file.error}`);
    return { seconds, file };
  };

  // (a) Indexing throughput.
  const pdf = await makePdf(PAGES);
  const fts = await uploadAndWait(await newGpt(), 'bench.pdf', 'application/pdf', pdf);
  const provider = await call(host, 'POST', '/api/ai/config/provider', { name: 'Bench provider', baseUrl: fake.url });
  const model = await call(host, 'POST', '/api/ai/config/model', {
    providerId: provider._id,
    name: 'bench-embeddings',
    purpose: 'embeddings',
    isDefault: true,
  });
  await stack.settle();
  await queue.idle();
  const hybrid = await uploadAndWait(await newGpt(), 'bench.pdf', 'application/pdf', pdf);

  // (b) Retrieval over CHUNKS chunks: text files of ~500 paragraphs (~1 chunk each).
  const gptId = await newGpt();
  let chunks = 0;
  for (let f = 0; chunks < CHUNKS; f++) {
    const paragraphs = Array.from({ length: Math.min(500, CHUNKS - chunks) }, () =>
      Array.from({ length: 9 }, sentence).join(' '),
    );
    const { file } = await uploadAndWait(
      gptId,
      `policies-${f}.txt`,
      'text/plain',
      Buffer.from(paragraphs.join('\n\n')),
    );
    chunks += file.chunks;
  }
  const ctx = stack.running.contexts.get('chat') as unknown as ChatContext & ServiceContext;
  const retrieval = new KnowledgeRetrieval(ctx, new Embedder(ctx, aiCatalogue(ctx)));
  const questions = Array.from(
    { length: RUNS + WARM_UP },
    () => `Who approves a ${pick(TOPICS)} request for ${pick(TEAMS)}?`,
  );
  const time = async (identity: Parameters<typeof retrieval.search>[0], expectModel: boolean) => {
    const samples: number[] = [];
    for (const [i, question] of questions.entries()) {
      const started = performance.now();
      const found = await retrieval.search(identity, gptId, question, 5);
      const took = performance.now() - started;
      if (found.hits.length === 0 || (found.embeddingsModelId !== null) !== expectModel)
        throw new Error(
          `unexpected retrieval (${expectModel ? 'hybrid' : 'full-text'}, question ${i}): ${JSON.stringify({ ...found, hits: found.hits.length })}`,
        );
      if (i >= WARM_UP) samples.push(took);
    }
    return stats(samples);
  };
  const identity = {
    userId: 'bench',
    companyId: company,
    role: 'ADMIN' as const,
    email: 'bench@test.local',
    sessionId: 'bench',
    via: 'bearer' as const,
    ip: '127.0.0.1',
  };
  const hybridTimes = await time(identity, true);
  // Full-text search alone: the embeddings model switched off.
  const off = await stack.as(host, {
    method: 'PATCH',
    url: `/api/ai/config/model/${model._id as string}`,
    payload: { enabled: false },
  });
  if (off.statusCode !== 200) throw new Error(`switching the embeddings model off: ${off.statusCode} ${off.body}`);
  await stack.settle();
  const ftsTimes = await time(identity, false);

  console.log(
    `Machine: ${availableParallelism()} CPUs, load ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}; ${process.env.BENCH_DATABASE_URL ? 'PostgreSQL server' : 'embedded PostgreSQL (PGlite)'}`,
  );
  console.log(
    `Indexing a ${PAGES}-page PDF (${fts.file.chunks} chunks), full-text only: ${fts.seconds.toFixed(2)} s = ${(PAGES / fts.seconds).toFixed(1)} pages/s`,
  );
  console.log(
    `Indexing the same PDF with embeddings (${DIMENSIONS} dimensions, local test provider): ${hybrid.seconds.toFixed(2)} s = ${(PAGES / hybrid.seconds).toFixed(1)} pages/s`,
  );
  console.log(`Retrieval over ${chunks} chunks, ${RUNS} questions after ${WARM_UP} warm-up:`);
  console.log(`  full-text search: median ${ms(ftsTimes.median)}, p95 ${ms(ftsTimes.p95)}, max ${ms(ftsTimes.max)}`);
  console.log(
    `  hybrid (question embedded + cosine + RRF): median ${ms(hybridTimes.median)}, p95 ${ms(hybridTimes.p95)}, max ${ms(hybridTimes.max)}`,
  );
} finally {
  await stack.close();
  await fake.close();
}
