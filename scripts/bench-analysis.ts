/**
 * `npm run bench:analysis`: figures for the README of services/prompt.
 *  (a) Call analytics of a 3-hour call of ~30,000 words (two speakers, ~3,000 segments, some
 *      overlapping): the pure computation, and the whole metrics route (the segments read from the
 *      database, computed, answered). Goal: < 100 ms.
 *  (b) Analysis overhead per run: from POST /analysis/transcripts to the completed run (queue,
 *      transcript and prompt reads, the prompt filled in, the provider call, zod check, the result
 *      and its event stored) against the same provider call made directly with the SDK, with a local
 *      OpenAI-compatible test provider that answers at once. The difference is what Earshot adds.
 *      Goal: < 50 ms. BENCH_RUNS (default 50) runs each, after 5 warm-up runs.
 * Embedded PostgreSQL (PGlite), or a throwaway database on the server of DATABASE_URL with
 * EARSHOT_TEST_DB=postgres; everything on 127.0.0.1. Figures depend on the machine.
 */
import { randomUUID } from 'node:crypto';
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { textParts, type Envelope, type TranscriptSegmentFact } from '@earshot/contracts';
import { outboundPolicy, providerClient } from '@earshot/ai';
import { startFakeOpenAI } from '@earshot/ai/testing';
import { buildEnvelope } from '@earshot/kit';
import { createTestStack } from '@earshot/kit/testing';
import { analysisQueue, callMetrics, promptService } from '@earshot/prompt-service';
import { ms, stats } from './bench-stats';

const RUNS = Number(process.env.BENCH_RUNS ?? 50);
const WARM_UP = 5;

const line = (label: string, samples: number[]) => {
  const s = stats(samples);
  console.log(`${label.padEnd(46)} median ${ms(s.median)}  p95 ${ms(s.p95)}  min ${ms(s.min)}  max ${ms(s.max)}`);
  return s;
};

const WORDS = [
  'the',
  'router',
  'invoice',
  'delivery',
  'refund',
  'account',
  'please',
  'check',
  'evening',
  'connection',
  'payment',
  'contract',
  'thank',
  'you',
  'again',
];

/** A 3-hour two-speaker call: ~13-word segments, a pause or a short overlap between turns. */
function longCall(seconds = 3 * 3600): TranscriptSegmentFact[] {
  const segments: TranscriptSegmentFact[] = [];
  let at = 0;
  for (let i = 0; at < seconds; i++) {
    const length = 3 + (i % 4);
    const text = Array.from({ length: 13 }, (_, w) => WORDS[(i * 7 + w) % WORDS.length]).join(' ');
    segments.push({ segmentId: `s-${i}`, speaker: i % 2 ? 'Customer' : 'Agent', start: at, end: at + length, text });
    // Every fifth turn starts before the other side finished.
    at += length + (i % 5 === 0 ? -0.4 : 0.3);
  }
  return segments;
}

async function main() {
  console.log(
    `bench:analysis on ${availableParallelism()} cores, load ${loadavg()
      .map((n) => n.toFixed(1))
      .join(' ')}`,
  );
  const call = longCall();
  const words = call.reduce((n, s) => n + s.text.split(' ').length, 0);
  console.log(`(a) a 3-hour call: ${call.length} segments, ${words} words`);
  const compute: number[] = [];
  for (let i = 0; i < WARM_UP + RUNS; i++) {
    const t0 = performance.now();
    callMetrics(call, 3 * 3600);
    if (i >= WARM_UP) compute.push(performance.now() - t0);
  }
  const computed = line('metrics, computed', compute);

  const fake = await startFakeOpenAI();
  const stack = await createTestStack([promptService], { AI_ALLOW_PRIVATE_URLS: 'true', ANALYSIS_POLL_MS: '600000' });
  try {
    const companyId = randomUUID();
    const host = await stack.tokenFor('HOST_ADMIN', null);
    const admin = await stack.tokenFor('ADMIN', companyId);
    const system = { type: 'system', id: null } as const;
    const seed = async (segments: TranscriptSegmentFact[]) => {
      const fileId = randomUUID();
      const id = randomUUID();
      const parts = textParts(segments);
      const envelopes: Envelope[] = [
        buildEnvelope({
          type: 'transcript.completed',
          companyId,
          actor: system,
          data: {
            id,
            fileId,
            fileName: 'call.wav',
            engine: 'bench',
            duration: segments.at(-1)!.end,
            speakers: 2,
            words,
            parts: parts.length,
          },
        }),
        ...parts.map((part, i) =>
          buildEnvelope({
            type: 'transcript.text_published',
            companyId,
            actor: system,
            data: { id, fileId, fileName: 'call.wav', part: i, parts: parts.length, segments: part },
          }),
        ),
      ];
      await stack.bus.publish(
        envelopes.map((envelope) => ({ topic: 'earshot.transcription', key: companyId, envelope })),
      );
      await stack.settle();
      return fileId;
    };
    const longFile = await seed(call);
    const route: number[] = [];
    for (let i = 0; i < WARM_UP + RUNS; i++) {
      const t0 = performance.now();
      const res = await stack.as(admin, { method: 'GET', url: `/api/analysis/transcripts/${longFile}/metrics` });
      if (res.statusCode !== 200) throw new Error(`metrics: ${res.statusCode} ${res.body}`);
      if (i >= WARM_UP) route.push(performance.now() - t0);
    }
    const routed = line('metrics route (stored when the text came)', route);

    // (b) a 5-minute call with a scorecard prompt.
    const provider = await stack.as(host, {
      method: 'POST',
      url: '/api/ai/config/provider',
      payload: { name: 'Bench', baseUrl: fake.url },
    });
    await stack.as(host, {
      method: 'POST',
      url: '/api/ai/config/model',
      payload: { providerId: provider.json()._id, name: 'bench-model', purpose: 'chat', isDefault: true },
    });
    const prompt = await stack.as(host, {
      method: 'POST',
      url: '/api/prompts',
      payload: {
        name: 'Scorecard',
        prompt: 'Rate this call:\n{{transcript}}',
        type: 'transcriptAnalysis',
        scope: 'global',
        isGlobal: true,
        expectedFormat: [
          { name: 'score', type: 'integer', range: '1-10', description: 'Overall' },
          { name: 'tone', type: 'custom', options: ['positive', 'neutral', 'negative'], description: 'Tone' },
          { name: 'resolved', type: 'boolean', description: 'Solved' },
          { name: 'summary', type: 'string', description: 'One sentence' },
        ],
      },
    });
    const shortFile = await seed(longCall(300));
    fake.setReply({ pieces: [JSON.stringify({ score: 7, tone: 'neutral', resolved: true, summary: 'Fine.' })] });
    const queue = analysisQueue(stack.database)!;
    const earshot: number[] = [];
    const accepted: number[] = [];
    for (let i = 0; i < WARM_UP + RUNS; i++) {
      const t0 = performance.now();
      const res = await stack.as(admin, {
        method: 'POST',
        url: '/api/analysis/transcripts',
        payload: { fileId: shortFile, promptId: prompt.json()._id },
      });
      if (res.statusCode !== 202) throw new Error(`run: ${res.statusCode} ${res.body}`);
      const t1 = performance.now();
      await queue.idle();
      if (i >= WARM_UP) {
        accepted.push(t1 - t0);
        earshot.push(performance.now() - t0);
      }
    }
    const runs = (
      await stack.as(admin, { method: 'GET', url: `/api/analysis/transcripts?fileId=${shortFile}` })
    ).json() as { status: string }[];
    if (runs.some((r) => r.status !== 'completed')) throw new Error('a bench run did not complete');

    // The same request, straight to the provider.
    const sent = fake.requests.at(-1)!.body!;
    const client = await providerClient(
      { baseUrl: fake.url, apiKey: null },
      outboundPolicy({ AI_ALLOW_PRIVATE_URLS: true }),
      30_000,
    );
    const direct: number[] = [];
    for (let i = 0; i < WARM_UP + RUNS; i++) {
      const t0 = performance.now();
      await client.chat.completions.create(sent as never);
      if (i >= WARM_UP) direct.push(performance.now() - t0);
    }
    line('POST /analysis/transcripts answered (202)', accepted);
    const viaEarshot = line('analysis run through Earshot (POST to completed)', earshot);
    const straight = line('the same provider call, direct', direct);
    console.log(
      `\nmetrics of a 3-hour call: ${ms(computed.median)} computed, ${ms(routed.median)} through the route (goal < 100 ms)`,
    );
    console.log(`analysis overhead per run: ${ms(viaEarshot.median - straight.median)} median (goal < 50 ms)`);
  } finally {
    await stack.close();
    await fake.close();
  }
}

await main();
