/**
 * `npm run bench:chat`: figures for the README of services/chat.
 *  (a) Time to the first streamed reply text through the all-in-one gateway (sign-in cookie-less
 *      bearer call, checks, the question stored, transcript search, the provider call, SSE) with a
 *      local OpenAI-compatible test provider that answers at once, against calling that provider
 *      directly with the same SDK client: the difference is what we add. BENCH_RUNS (default 50)
 *      runs each, after 5 warm-up runs; each gateway run in a new conversation.
 *  (b) The built-in search assistant's whole answer (full stream) over BENCH_TRANSCRIPTS (default
 *      1,000) transcripts of ~20 segments each, seeded through transcript.completed events, for 20
 *      questions.
 * Embedded PostgreSQL (PGlite) in a temporary DATA_DIR, everything on 127.0.0.1. Figures depend on
 * the machine: compare the pairs.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { providerClient } from '@earshot/ai';
import { buildEnvelope } from '@earshot/kit';
import { startFakeOpenAI } from '@earshot/ai/testing';
import { createAllInOne } from '@earshot/gateway';
import { ms, prng, stats } from './bench-stats';

const RUNS = Number(process.env.BENCH_RUNS ?? 50);
const TRANSCRIPTS = Number(process.env.BENCH_TRANSCRIPTS ?? 1000);
const WARM_UP = 5;

/** A deterministic word salad of call-centre talk, so every run seeds the same text. */
const SUBJECTS = [
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
const PLACES = ['Tallinn', 'Riga', 'Vilnius', 'Helsinki', 'Oslo', 'Lisbon', 'Porto', 'Lyon', 'Ghent', 'Bergen'];
const VERBS = [
  'arrived late',
  'was charged twice',
  'stopped working',
  'needs renewing',
  'was cancelled',
  'was never received',
  'looks wrong',
  'was upgraded',
];
const OPENERS = [
  'I am calling because',
  'Could you check why',
  'My neighbour told me that',
  'Last week I noticed that',
  'I would like to know why',
  'The email said that',
];

function sentence(rand: Iterator<number>): string {
  const pick = <T>(list: T[]) => list[Math.floor(rand.next().value! * list.length)]!;
  return `${pick(OPENERS)} my ${pick(SUBJECTS)} from ${pick(PLACES)} ${pick(VERBS)}, reference ${Math.floor(rand.next().value! * 90000) + 10000}.`;
}

async function readStream(res: Response, onFirst: (event: string) => void): Promise<string> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let firstDelta = false;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return text;
    const chunk = decoder.decode(value, { stream: true });
    if (!firstDelta && chunk.includes('event: delta')) {
      firstDelta = true;
      onFirst('delta');
    }
    text += chunk;
  }
}

const fake = await startFakeOpenAI();
fake.setReply({ pieces: ['Instant', ' answer', '.'] });
const dataDir = mkdtempSync(join(tmpdir(), 'earshot-bench-chat-'));
const password = `bench-${randomBytes(6).toString('hex')}`;
const earshot = await createAllInOne({
  env: {
    LOG_LEVEL: 'silent',
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    SEED_DEMO: 'true',
    DEMO_PASSWORD: password,
    ADMIN_EMAIL: 'root@earshot.bench',
    ADMIN_PASSWORD: `admin-${password}`,
    RATE_LIMIT_MAX: '100000000',
    // The test provider listens on loopback, which providers may use only when allowed.
    AI_ALLOW_PRIVATE_URLS: 'true',
    TRANSCRIPTION_WORKER: 'false',
  },
});
try {
  await earshot.app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(earshot.app.server.address() as AddressInfo).port}`;
  const call = async (token: string, method: string, path: string, body?: unknown) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'x-requested-with': 'XMLHttpRequest',
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res;
  };
  const signIn = async (email: string, secret: string, domain?: string) => {
    const res = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: secret, domain }),
    });
    if (res.status !== 200) throw new Error(`sign-in ${email}: ${res.status} ${await res.text()}`);
    const token = res.headers
      .getSetCookie()
      .map((c) => /^earshot_at=([^;]+)/.exec(c)?.[1])
      .find(Boolean)!;
    return { token, user: ((await res.json()) as { user: { companyId: string | null } }).user };
  };
  const host = await signIn('root@earshot.bench', `admin-${password}`);
  const { token, user } = await signIn('user@acme.test', password, 'acme');

  // The provider and its default chat model, configured as an administrator does.
  const provider = (await (
    await call(host.token, 'POST', '/api/ai/config/provider', {
      name: 'Bench provider',
      baseUrl: fake.url,
      apiKey: 'sk-bench-0000',
    })
  ).json()) as { _id: string };
  await call(host.token, 'POST', '/api/ai/config/model', {
    providerId: provider._id,
    name: 'bench-model',
    purpose: 'chat',
    isDefault: true,
  });
  await earshot.settle();
  const models = (await (await call(token, 'GET', '/api/chat/models')).json()) as { builtIn: boolean };
  if (models.builtIn) throw new Error('the chat service did not learn of the configured model');

  // (a) First reply text: through the gateway, then straight to the provider.
  const conversations: string[] = [];
  for (let i = 0; i < RUNS + WARM_UP; i++) {
    conversations.push(
      ((await (await call(token, 'POST', '/api/chat/conversations', {})).json()) as { _id: string })._id,
    );
  }
  const viaGateway: number[] = [];
  const viaGatewayFirstByte: number[] = [];
  for (const [i, id] of conversations.entries()) {
    const started = performance.now();
    const res = await call(token, 'POST', `/api/chat/conversations/${id}/chat/stream`, {
      message: 'What did the customer say about the delivery?',
    });
    const firstByte = performance.now() - started;
    let firstDelta = 0;
    const body = await readStream(res, () => (firstDelta = performance.now() - started));
    if (!body.includes('event: done')) throw new Error(`the gateway stream did not finish: ${body.slice(0, 300)}`);
    if (i >= WARM_UP) {
      viaGateway.push(firstDelta);
      viaGatewayFirstByte.push(firstByte);
    }
  }
  const client = await providerClient({ baseUrl: fake.url, apiKey: 'sk-bench-0000' }, { allowPrivate: true }, 60_000);
  const direct: number[] = [];
  for (let i = 0; i < RUNS + WARM_UP; i++) {
    const started = performance.now();
    const stream = await client.chat.completions.create({
      model: 'bench-model',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'What did the customer say about the delivery?' }],
    });
    let first = 0;
    for await (const chunk of stream)
      if (!first && chunk.choices[0]?.delta?.content) first = performance.now() - started;
    if (i >= WARM_UP) direct.push(first);
  }
  const g = stats(viaGateway);
  const b = stats(viaGatewayFirstByte);
  const d = stats(direct);
  console.log(`(a) first reply text, ${RUNS} runs each after ${WARM_UP} warm-up runs, test provider answering at once`);
  console.log(`    provider called directly (same SDK client):   median ${ms(d.median)}, p95 ${ms(d.p95)}`);
  console.log(`    through the all-in-one gateway, first delta:  median ${ms(g.median)}, p95 ${ms(g.p95)}`);
  console.log(`    through the gateway, first byte (headers):    median ${ms(b.median)}, p95 ${ms(b.p95)}`);
  console.log(
    `    added by gateway + chat service: median ${ms(g.median - d.median)} (${(g.median / d.median).toFixed(1)}x), p95 ${ms(g.p95 - d.p95)}`,
  );

  // (b) The built-in assistant over many transcripts of the user's company.
  const rand = prng(42);
  const companyId = user.companyId!;
  const segmentsPer = 20;
  const seedStarted = performance.now();
  for (let batch = 0; batch < TRANSCRIPTS; batch += 100) {
    // As the transcription service announces a transcript: transcript.completed, then its text in one part.
    const envelopes = Array.from({ length: Math.min(100, TRANSCRIPTS - batch) }, (_, k) => {
      const segments = Array.from({ length: segmentsPer }, (_, s) => ({
        segmentId: `s-${s}`,
        speaker: s % 2 ? 'Customer' : 'Agent',
        start: s * 9.5,
        end: s * 9.5 + 9,
        text: sentence(rand),
      }));
      const transcript = { id: randomUUID(), fileId: randomUUID(), fileName: `call-${batch + k}.wav` };
      const actor = { type: 'system' as const, id: null };
      return [
        buildEnvelope({
          type: 'transcript.completed',
          companyId,
          actor,
          data: {
            ...transcript,
            engine: 'bench',
            duration: segmentsPer * 9.5,
            speakers: 2,
            words: segmentsPer * 14,
            parts: 1,
          },
        }),
        buildEnvelope({
          type: 'transcript.text_published',
          companyId,
          actor,
          data: { ...transcript, part: 0, parts: 1, segments },
        }),
      ];
    }).flat();
    await earshot.bus.publish(
      envelopes.map((envelope) => ({ topic: 'earshot.transcription', key: companyId, envelope })),
    );
    await earshot.settle();
  }
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  const questions = Array.from({ length: 20 }, (_, i) =>
    i % 2
      ? `Why was my ${SUBJECTS[i]} from ${PLACES[i % PLACES.length]} ${VERBS[i % VERBS.length]}?`
      : `${SUBJECTS[i]} ${PLACES[(i + 3) % PLACES.length]}`,
  );
  const answers: number[] = [];
  let quoted = 0;
  for (const [i, question] of [...questions.slice(0, WARM_UP), ...questions].entries()) {
    const id = ((await (await call(token, 'POST', '/api/chat/conversations', {})).json()) as { _id: string })._id;
    const started = performance.now();
    const res = await call(token, 'POST', `/api/chat/conversations/${id}/chat/stream`, {
      message: question,
      modelId: 'built-in',
    });
    const body = await readStream(res, () => undefined);
    const elapsed = performance.now() - started;
    if (!body.includes('event: done')) throw new Error(`the built-in stream did not finish: ${body.slice(0, 300)}`);
    if (i >= WARM_UP) {
      answers.push(elapsed);
      quoted += (
        /"citations":(\[.*?\])\}/.exec(body.slice(body.lastIndexOf('event: done')))?.[1]?.match(/"fileId"/g) ?? []
      ).length;
    }
  }
  const a = stats(answers);
  console.log(
    `\n(b) built-in search assistant, whole streamed answer, ${TRANSCRIPTS} transcripts × ${segmentsPer} segments (${TRANSCRIPTS * segmentsPer} segments; seeded through events in ${seedSeconds.toFixed(1)} s)`,
  );
  console.log(
    `    ${answers.length} questions: median ${ms(a.median)}, p95 ${ms(a.p95)}, max ${ms(a.max)}; ${(quoted / answers.length).toFixed(1)} passages quoted per answer`,
  );
  console.log(
    `\n    machine: ${availableParallelism()} cores, 1-min load ${loadavg()[0]!.toFixed(1)}; embedded PostgreSQL (PGlite)`,
  );
} finally {
  await earshot.close();
  await fake.close();
  rmSync(dataDir, { recursive: true, force: true });
}
