import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LedgerEntryDto, TranscriptDto as Transcript } from '@earshot/contracts';
import { runAuditCommand } from '../audit';
import { GatewayClient, type Session } from './api';
import { stereoCall } from './audio';
import { waitFor } from './processes';
import { scalingScenario } from './scaling';
import type { Steps } from './steps';
import { ADMIN_EMAIL, ADMIN_PASSWORD, type System } from './system';

/** Polls `read` until `done` holds for what it read; that value. */
async function until<T>(
  what: string,
  read: () => Promise<T>,
  done: (value: T) => boolean,
  limitMs = 60_000,
): Promise<T> {
  let last: T | undefined;
  try {
    await waitFor(what, async () => done((last = await read())), limitMs);
  } catch (error) {
    throw new Error(`${(error as Error).message}; last seen: ${JSON.stringify(last)?.slice(0, 2000)}`, {
      cause: error,
    });
  }
  return last!;
}

interface Ledger {
  balance: number;
  reserved: number;
  ledger: { items: LedgerEntryDto[] };
}

/**
 * The charges of a ledger by the event that caused them (a reply is charged in two lines, input and
 * output): each event's feature and total, and whether any unit was charged twice for it.
 */
function chargesByEvent(
  items: readonly LedgerEntryDto[],
): Map<string, { feature: string | null; total: number; units: string[] }> {
  const byEvent = new Map<string, { feature: string | null; total: number; units: string[] }>();
  for (const entry of items.filter((e) => e.kind === 'charge')) {
    const key = entry.eventId ?? `no-event-${entry._id}`;
    const seen = byEvent.get(key) ?? { feature: entry.feature, total: 0, units: [] };
    seen.total = round4(seen.total + entry.amount);
    seen.units.push(entry.unit ?? '');
    byEvent.set(key, seen);
  }
  for (const [event, { units }] of byEvent)
    assert.equal(
      new Set(units).size,
      units.length,
      `event ${event} was charged twice for one unit: ${units.join(', ')}`,
    );
  return byEvent;
}

interface AuditEntry {
  _id: string;
  type: string;
  companyId: string | null;
  data: Record<string, unknown>;
}
// Prices the suite sets (credits): tokens per 1,000, audio per minute.
const INPUT_1K = 2;
const OUTPUT_1K = 4;
const AUDIO_MINUTE = 6;
const GRANT = 1000;
/** Every fake reply reports these tokens: 1,000 in at 2 and 500 out at 4 = 4 credits a reply. */
const USAGE = { prompt_tokens: 1000, completion_tokens: 500, total_tokens: 1500 };
const REPLY_COST = (USAGE.prompt_tokens / 1000) * INPUT_1K + (USAGE.completion_tokens / 1000) * OUTPUT_1K;
const round4 = (n: number) => Math.round(n * 10_000) / 10_000;

export async function scenario(system: System, steps: Steps): Promise<void> {
  const infra = await steps.run(
    'infrastructure: PostgreSQL + db-roles.sql, Kafka mock (3 brokers), s3rver, Redis',
    () => system.startInfrastructure(),
  );
  steps.note(`infrastructure up (ms): ${JSON.stringify(infra)}`);
  const ready = await steps.run('processes: 10 services (chat twice), transcription worker, gateway', () =>
    system.startProcesses(),
  );
  steps.note(`each process ready after (ms): ${JSON.stringify(ready)}`);
  const api = new GatewayClient(system.gatewayUrl);
  const fake = system.fake!;

  // ── The happy path ──────────────────────────────────────────────────────────────────────────
  const host = await steps.run('sign in: platform administrator', () => api.signIn(ADMIN_EMAIL, ADMIN_PASSWORD));

  const companies = await steps.run(
    'two companies, an ADMIN of each, signed in (auth learns of each company over Kafka)',
    async () => {
      const made: Record<'A' | 'B', { id: string; domain: string; admin: Session }> = {} as never;
      // Side by side: each waits on auth hearing of its company over Kafka.
      const make = async (key: 'A' | 'B') => {
        const domain = `dist-${key.toLowerCase()}-${Date.now().toString(36)}`;
        const company = await api.expect<{ _id: string }>(201, host, 'POST', '/companies', {
          name: `Distributed ${key}`,
          code: `DIST-${key}-${Date.now().toString(36)}`.toUpperCase(),
          domain,
          type: 'enterprise',
          status: 'active',
          maxUsers: 100,
          maxStorage: 1024 ** 3,
          language: 'en',
        });
        const email = `admin@${domain}.test`;
        const password = `admin-${key}-password-1`;
        // The auth service refuses a person of a company it has not heard of yet: asked again until it has.
        await until(
          `auth to know company ${key}`,
          () =>
            api.call(host, 'POST', '/users/register', {
              firstName: 'Admin',
              lastName: key,
              email,
              password,
              role: 'ADMIN',
              companyId: company._id,
            }),
          (a) => a.status === 201 || a.status === 409,
        );
        made[key] = { id: company._id, domain, admin: await api.signIn(email, password, domain) };
      };
      await Promise.all([make('A'), make('B')]);
      return made;
    },
  );
  const A = companies.A.admin;
  const B = companies.B.admin;

  const { modelId, promptId, opening } = await steps.run(
    'AI set-up: the fake provider and its model (default), prices, a company prompt, 1,000 credits for A',
    async () => {
      const modelId = await api.defaultModel(
        host,
        { name: 'Fake provider', baseUrl: fake.url, apiKey: 'sk-distributed-1234' },
        { name: 'fake-model', purpose: 'chat' },
      );
      // The billing service prices only models it has heard of (ai_model.created over Kafka).
      for (const [unit, credits] of [
        ['input_1k', INPUT_1K],
        ['output_1k', OUTPUT_1K],
      ] as const) {
        await until(
          `billing to price ${unit}`,
          () => api.call(host, 'POST', '/pricing', { modelId, unit, credits }),
          (a) => a.status === 201,
        );
      }
      await api.expect(201, host, 'POST', '/pricing', {
        engine: 'pocketsphinx',
        unit: 'audio_minute',
        credits: AUDIO_MINUTE,
      });
      const prompt = await api.expect<{ _id: string }>(201, host, 'POST', '/prompts', {
        name: 'Distributed summary',
        prompt: 'Summarise {{transcript}}',
        type: 'summary',
        expectedFormat: [{ name: 'summary', type: 'string', description: 'The summary' }],
        scope: 'company',
        companies: [companies.A.id],
      });
      // A new company may start with credits of its type: the balance it had before the grant counts.
      const opening = (await api.expect<Ledger>(200, host, 'GET', `/companies/${companies.A.id}/credits`)).balance;
      await api.expect(201, host, 'POST', `/companies/${companies.A.id}/credits`, {
        amount: GRANT,
        reason: 'distributed suite',
      });
      return { modelId, promptId: prompt._id, opening };
    },
  );

  const call = stereoCall();
  const file = await steps.run(
    `upload a stereo call (${call.duration.toFixed(1)} s, two espeak-ng voices left/right) to S3 through the file service`,
    async () => {
      const answer = await api.upload<{ _id: string }>(A, '/files/upload', {
        name: 'call.wav',
        type: 'audio/wav',
        data: call.data,
      });
      assert.equal(answer.status, 201, `upload answered ${answer.status}: ${answer.text.slice(0, 300)}`);
      return answer.body;
    },
  );

  const transcript = await steps.run(
    'the transcript arrives (file.uploaded → API or worker over Kafka → the worker runs PocketSphinx)',
    () =>
      until(
        'the transcript',
        () => api.expect<Transcript>(200, A, 'GET', `/transcripts/file/${file._id}`),
        (t) => {
          assert.notEqual(t.status, 'failed', 'the transcription failed');
          return t.status === 'completed';
        },
        120_000,
      ),
  );
  const segments = transcript.metadata.speakerSegments ?? [];
  assert.ok(segments.length >= 2, `a stereo call has both sides in its transcript (segments: ${segments.length})`);
  assert.ok(new Set(segments.map((s) => s.speakerId)).size >= 2, 'left and right channels are two speakers');
  const segment = segments.find((s) => s.words.length > 0)!;

  await steps.run('a word edit (transcript.word_edited reaches chat and prompt over Kafka)', async () => {
    await api.expect(200, A, 'PUT', `/transcripts/${transcript._id}/metadata/words/${segment.words[0]!._id}`, {
      text: 'zeppelin',
      speakerSegmentId: segment._id,
    });
    // Chat must have the edit before the question about the recording (the suite's own look, as superuser).
    await waitFor('chat to apply the word edit', () =>
      system.superuser(
        async (c) =>
          (
            await c.query(`select 1 from chat.transcript_segments where file_id = $1 and text like '%zeppelin%'`, [
              file._id,
            ])
          ).rowCount! > 0,
      ),
    );
  });

  const conversation = await steps.run('chat about the recording with the fake provider', async () => {
    fake.setReply({ pieces: ['The caller', ' counted to nine.'], usage: USAGE });
    const sent = fake.requests.length;
    const reply = await api.stream(A, '/chat/analysis-conversations/chat/stream', {
      fileId: file._id,
      message: 'Summarize this recording',
      modelId,
    });
    assert.equal(reply.status, 200, reply.text.slice(0, 300));
    assert.ok(reply.done, `the reply finished: ${reply.text.slice(-300)}`);
    const asked = JSON.stringify(fake.requests.slice(sent).map((r) => r.body));
    assert.match(asked, /zeppelin/, 'the model was sent the transcript as edited');
    return String(/"conversationId":"([^"]+)"/.exec(reply.text)?.[1]);
  });

  await steps.run('an analysis run (prompt service, the fake provider answers JSON)', async () => {
    fake.setReply({ pieces: [JSON.stringify({ summary: 'A short call.' })], usage: USAGE });
    // The prompt service learns of the transcript from transcript.completed: asked again until it has.
    await until(
      'the analysis to be accepted',
      () => api.call(A, 'POST', '/analysis/transcripts', { fileId: file._id, promptId }),
      (a) => a.status === 202,
    );
    const runs = await until(
      'the analysis to complete',
      () =>
        api.expect<{ status: string; error: string | null }[]>(
          200,
          A,
          'GET',
          `/analysis/transcripts?fileId=${file._id}`,
        ),
      (list) => {
        assert.ok(!list.some((r) => r.status === 'failed'), `the analysis failed: ${JSON.stringify(list)}`);
        return list.length > 0 && list.every((r) => r.status === 'completed');
      },
    );
    assert.equal(runs.length, 1);
  });

  const credits = () => api.expect<Ledger>(200, host, 'GET', `/companies/${companies.A.id}/credits?pageSize=100`);
  await steps.run('credits charged once: the transcription, the chat reply, the analysis', async () => {
    // The endpoint reads the balance and the ledger from one snapshot: once the charges are in, the
    // balance read with them is final (read apart, a busy machine once showed a charge in one only).
    const account = await until(
      'three charged events and no open reservation',
      credits,
      (c) => c.reserved === 0 && chargesByEvent(c.ledger.items).size === 3,
    );
    const charged = [...chargesByEvent(account.ledger.items).values()];
    assert.deepEqual(
      charged.map((c) => c.feature).sort(),
      ['analysis', 'chat', 'transcription'],
      'one charged event per step',
    );
    assert.equal(charged.find((c) => c.feature === 'chat')!.total, -REPLY_COST);
    assert.equal(charged.find((c) => c.feature === 'analysis')!.total, -REPLY_COST);
    // Audio by the minute, to 4 decimals of a minute: within a cent of a credit of the call's length.
    const seconds = transcript.metadata.duration ?? call.duration;
    const audio = -charged.find((c) => c.feature === 'transcription')!.total;
    assert.ok(Math.abs(audio - (seconds * AUDIO_MINUTE) / 60) < 0.01, `the call (${seconds} s) was charged ${audio}`);
    assert.equal(
      account.balance,
      round4(opening + GRANT - audio - 2 * REPLY_COST),
      'the balance is what the company had, plus the grant, less each charge once',
    );
  });

  const audit = (query: string) =>
    api.expect<{ items: AuditEntry[] }>(200, host, 'GET', `/audit?companyId=${companies.A.id}&pageSize=200&${query}`);
  const ofFile = (entries: AuditEntry[], fileId: string) =>
    entries.filter((e) => e.data.fileId === fileId || e.data.id === fileId);
  await steps.run('every step in the audit log, once', async () => {
    const wanted = [
      'user.signed_in',
      'file.uploaded',
      'transcript.completed',
      'transcript.word_edited',
      'chat_reply.finished',
      'analysis.completed',
      'credits.granted',
    ];
    const entries = await until(
      'the audit log to have every step',
      () => audit('').then((a) => a.items),
      (items) => wanted.every((t) => items.some((e) => e.type === t)),
    );
    for (const type of ['file.uploaded', 'transcript.completed', 'transcript.word_edited', 'analysis.completed']) {
      assert.equal(
        ofFile(
          entries.filter((e) => e.type === type),
          file._id,
        ).length,
        1,
        `${type} of the call is in the audit log once`,
      );
    }
    assert.equal(
      entries.filter((e) => e.type === 'chat_reply.finished').length,
      1,
      'the chat reply is in the audit log once',
    );
    // The company's starting credits are a grant of their own.
    assert.equal(
      entries.filter((e) => e.type === 'credits.granted' && e.data.reason === 'distributed suite').length,
      1,
      'the grant is in the audit log once',
    );
    assert.equal(new Set(entries.map((e) => e._id)).size, entries.length);
  });

  await steps.run('another company sees none of it (404s through the gateway)', async () => {
    const probes: [string, string, unknown?][] = [
      ['GET', `/files/${file._id}`],
      ['GET', `/transcripts/file/${file._id}`],
      [
        'PUT',
        `/transcripts/${transcript._id}/metadata/words/${segment.words[0]!._id}`,
        { text: 'mine', speakerSegmentId: segment._id },
      ],
      ['GET', `/chat/conversations/${conversation}/messages`],
      ['GET', `/analysis/transcripts?fileId=${file._id}`],
      [
        'POST',
        '/chat/analysis-conversations/chat/stream',
        { fileId: file._id, message: 'What was said?', modelId: 'built-in' },
      ],
    ];
    for (const [method, path, body] of probes) {
      const answer = await api.call(B, method, path, body);
      assert.equal(answer.status, 404, `${method} ${path} by another company's ADMIN answered ${answer.status}`);
    }
    const theirs = await api.expect<{ items: { _id: string }[] }>(200, B, 'GET', '/files');
    assert.equal(theirs.items.length, 0, 'another company lists no recordings');
  });

  // Encryption at rest across processes: the file service keeps B's audio key, the
  // separate worker reads the recording with it (the file service's internal route, wrapped key).
  await steps.run(
    'a company with encryption on: its stereo call is stored encrypted, transcribed by the separate worker, played back decrypted',
    async () => {
      const policies = {
        redaction: 'off',
        keepOriginal: false,
        encryption: true,
        retention: { recordingsDays: null, chatsDays: null, auditDays: null },
      };
      await api.expect(200, host, 'PUT', `/companies/${companies.B.id}/policies`, policies);
      await api.expect(201, host, 'POST', `/companies/${companies.B.id}/credits`, {
        amount: 100,
        reason: 'distributed suite, encryption',
      });
      // The file service learns of the switch from company.policies_changed (Kafka).
      await until(
        'the file service to encrypt B',
        () => api.expect<{ encrypt: boolean }>(200, B, 'GET', `/files/encryption/${companies.B.id}`),
        (s) => s.encrypt,
      );
      const encryptedCall = stereoCall();
      const uploaded = await api.upload<{ _id: string; path: string }>(B, '/files/upload', {
        name: 'encrypted-call.wav',
        type: 'audio/wav',
        data: encryptedCall.data,
      });
      assert.equal(uploaded.status, 201, uploaded.text);
      const stored = readFileSync(join(system.s3Dir, 'earshot-audio', `${uploaded.body.path}._S3rver_object`));
      assert.equal(stored.subarray(0, 4).toString('latin1'), 'ESC1', 'the object is stored in the encrypted format');
      assert.ok(
        !stored.includes(Buffer.from('RIFF')) && !stored.includes(Buffer.from('WAVE')),
        'no WAV header in what is stored',
      );
      const done = await until(
        "B's transcript",
        () => api.expect<Transcript>(200, B, 'GET', `/transcripts/file/${uploaded.body._id}`),
        (t) => {
          assert.notEqual(
            t.status,
            'failed',
            `the transcription of the encrypted call failed: ${JSON.stringify(t).slice(0, 500)}`,
          );
          return t.status === 'completed';
        },
        120_000,
      );
      const heard = (done.metadata.speakerSegments ?? []).map(
        (s) => `${s.speakerId} ${s.start}-${s.end}: ${s.words.map((w) => w.text).join(' ')}`,
      );
      assert.ok(
        (done.metadata.speakerSegments ?? []).filter((s) => s.words.length > 0).length >= 2,
        `both channels were heard: the worker decrypted the audio (duration ${done.metadata.duration}; segments: ${JSON.stringify(heard)})`,
      );
      const played = await api.call(B, 'GET', `/uploads/${uploaded.body.path}`);
      assert.equal(played.status, 200);
      assert.ok(played.text.startsWith('RIFF'), 'playback through the gateway is the WAV, decrypted');
    },
  );

  // ── Faults ──────────────────────────────────────────────────────────────────────────────────
  // Long enough that the kill lands mid-job (checked below: the job ran a second time), short
  // enough that decoding it again after the restart does not dominate the step.
  const longCall = stereoCall(2);
  const jobFile = await steps.run(
    `kill -9 the transcription worker during a job (${longCall.duration.toFixed(0)} s call), restart it: the job completes once`,
    async () => {
      const answer = await api.upload<{ _id: string }>(A, '/files/upload', {
        name: 'long-call.wav',
        type: 'audio/wav',
        data: longCall.data,
      });
      assert.equal(answer.status, 201, answer.text);
      const fileId = answer.body._id;
      await waitFor(
        'the worker to claim the job',
        () =>
          system.superuser(
            async (c) =>
              (
                await c.query(
                  `select 1 from transcription.jobs where file_id = $1 and status = 'processing' and locked_by is not null`,
                  [fileId],
                )
              ).rowCount! > 0,
          ),
        120_000,
      );
      await system.processes.kill9('transcription-worker');
      const restarted = Date.now();
      const { readyMs } = await system.processes.restart('transcription-worker', system.spec('transcription-worker'));
      await until(
        'the job to complete after the restart',
        () => api.expect<Transcript>(200, A, 'GET', `/transcripts/file/${fileId}`),
        (t) => {
          assert.notEqual(t.status, 'failed', 'the transcription failed after the restart');
          return t.status === 'completed';
        },
        180_000,
      );
      const { attempts } = (
        await system.superuser((c) =>
          c.query<{ attempts: number }>(`select attempts from transcription.jobs where file_id = $1`, [fileId]),
        )
      ).rows[0]!;
      assert.ok(
        attempts >= 2,
        `the kill came mid-job: the restarted worker claimed the job again (attempts: ${attempts})`,
      );
      steps.note(
        `worker killed mid-job: the job completed ${((Date.now() - restarted) / 1000).toFixed(1)} s after the restart began (ready after ${(readyMs / 1000).toFixed(1)} s)`,
      );
      return fileId;
    },
  );
  await steps.run('…exactly once: one transcript.completed, one transcription charge', async () => {
    const completed = await until(
      'transcript.completed in the audit log',
      () => audit('type=transcript.completed').then((a) => ofFile(a.items, jobFile)),
      (list) => list.length > 0,
    );
    assert.equal(completed.length, 1, 'the job completed once');
    const account = await until(
      'the charge of the second call',
      credits,
      (c) => c.reserved === 0 && c.ledger.items.some((e) => e.kind === 'charge' && e.eventId === completed[0]!._id),
    );
    const transcriptions = [...chargesByEvent(account.ledger.items).values()].filter(
      (c) => c.feature === 'transcription',
    );
    assert.equal(transcriptions.length, 2, 'two calls, two transcription charges');
  });

  // A burst of chat replies, each charged by the billing service from chat_reply.finished; the
  // billing service is killed once a few charges are in, while the rest are still coming.
  await steps.run(
    'kill -9 the billing service during a burst of charges, restart it: the balance is exact',
    async () => {
      fake.setReply({ pieces: ['Noted.'], usage: USAGE });
      const before = await until('a settled balance', credits, (c) => c.reserved === 0);
      const chargedBefore = chargesByEvent(before.ledger.items).size;
      const linesBefore = before.ledger.items.filter((e) => e.kind === 'charge').length;
      const BURST = 16;
      const chats = await Promise.all(
        Array.from({ length: BURST }, () =>
          api.expect<{ _id: string }>(201, A, 'POST', '/chat/conversations', { title: 'Burst' }),
        ),
      );
      let finished = 0;
      let refused = 0;
      let killed = false;
      const ask = async (id: string) => {
        const reply = await api.stream(A, `/chat/conversations/${id}/chat/stream`, {
          message: 'One more thing',
          modelId,
        });
        if (reply.done) finished++;
        else refused++;
      };
      const queue = chats.map((c) => c._id);
      const workers = Array.from({ length: 3 }, async () => {
        for (let id = queue.shift(); id; id = queue.shift()) await ask(id);
      });
      const killer = (async () => {
        await waitFor(
          'a few charges of the burst',
          () =>
            system.superuser(
              async (c) =>
                Number(
                  (await c.query(`select count(*) as n from billing.credit_ledger where kind = 'charge'`)).rows[0].n,
                ) >=
                linesBefore + 3,
            ),
          120_000,
        );
        await system.processes.kill9('billing');
        killed = true;
      })();
      await Promise.all([...workers, killer]);
      assert.ok(killed);
      const restarted = Date.now();
      const { readyMs } = await system.processes.restart('billing', system.spec('billing'));
      const expected = round4(before.balance - finished * REPLY_COST);
      const account = await until(
        `the balance to reach ${expected}`,
        credits,
        (c) =>
          Math.abs(c.balance - expected) < 0.0002 && chargesByEvent(c.ledger.items).size >= chargedBefore + finished,
        120_000,
      );
      steps.note(
        `billing killed in a burst of ${BURST} replies: ${finished} finished, ${refused} refused while it was down; balance exact ${((Date.now() - restarted) / 1000).toFixed(1)} s after the restart began (ready after ${(readyMs / 1000).toFixed(1)} s)`,
      );
      const charged = [...chargesByEvent(account.ledger.items).values()];
      assert.equal(charged.length, chargedBefore + finished, 'one charged event per finished reply');
      assert.ok(
        charged.filter((c) => c.feature === 'chat').every((c) => c.total === -REPLY_COST),
        'each reply charged its cost once',
      );
    },
  );

  // Word edits flow to the audit log (and to both chat replicas); the audit service is killed
  // once a few are recorded, and must end with every one exactly once.
  await steps.run('kill -9 the audit service while events flow, restart it: every entry once', async () => {
    const EDITS = 30;
    const words = segments.flatMap((s) => s.words.map((w) => ({ segmentId: s._id, wordId: w._id })));
    const recorded = async () =>
      Number(
        (
          await system.superuser((c) =>
            c.query(`select count(*) as n from audit.entries where type = 'transcript.word_edited'`),
          )
        ).rows[0].n,
      );
    const baseline = await recorded();
    let killed = false;
    const killer = (async () => {
      await waitFor('a few edits in the audit log', async () => (await recorded()) >= baseline + 3, 120_000);
      await system.processes.kill9('audit');
      killed = true;
    })();
    const started = Date.now();
    for (let i = 0; i < EDITS; i++) {
      const word = words[i % words.length]!;
      await api.expect(200, A, 'PUT', `/transcripts/${transcript._id}/metadata/words/${word.wordId}`, {
        text: `edit${i}`,
        speakerSegmentId: word.segmentId,
      });
    }
    await killer;
    assert.ok(killed);
    const editsMs = Date.now() - started;
    const restarted = Date.now();
    const { readyMs } = await system.processes.restart('audit', system.spec('audit'));
    const entries = await until(
      `all ${EDITS + 1} word edits in the audit log`,
      () => audit('type=transcript.word_edited').then((a) => a.items),
      (items) => items.length >= EDITS + 1,
      120_000,
    );
    const caughtUp = Date.now() - restarted;
    assert.equal(entries.length, EDITS + 1, 'every word edit once');
    assert.equal(new Set(entries.map((e) => e._id)).size, entries.length);
    steps.note(
      `audit killed while ${EDITS} word edits flowed (${((EDITS / editsMs) * 1000).toFixed(1)} edits/s through the gateway): all recorded once ${(caughtUp / 1000).toFixed(1)} s after the restart began (ready after ${(readyMs / 1000).toFixed(1)} s)`,
    );
  });

  // The audit trail as a SIEM reads it: company A's chain on earshot.audit, through the kill -9
  // above (a relay may publish an entry again), and the same chain through the gateway's stream.
  await steps.run(
    "company A's audit trail on Kafka and through the gateway: every entry linked to the one before",
    async () => {
      const stored = (
        await system.superuser((c) =>
          c.query<{ seq: string; hash: string }>(
            'select e.seq::text as seq, e.hash from audit.entries e where e.company_id = $1 order by e.seq',
            [companies.A.id],
          ),
        )
      ).rows;
      const lines: string[] = [];
      const notes: string[] = [];
      const stop = new AbortController();
      // Bounded: a follower that never saw every entry stops here and the comparison below fails.
      const limit = setTimeout(() => stop.abort(), 120_000);
      const code = await runAuditCommand(['follow', '--company', companies.A.id, '--group', 'siem-distributed'], {
        env: { KAFKA_BROKERS: system.kafka!.brokers },
        print: (line) => {
          lines.push(line);
          if (lines.length >= stored.length) stop.abort();
        },
        note: (line) => notes.push(line),
        signal: stop.signal,
        // The mock cluster answers a fetch only once its wait is over: short waits, a quick join.
        timings: { sessionTimeout: 6_000, rebalanceTimeout: 3_000, heartbeatInterval: 500, maxWaitTimeInMs: 100 },
      });
      clearTimeout(limit);
      assert.equal(code, 0, notes.join('\n'));
      const followed = lines.map((line) => JSON.parse(line) as { seq: number; hash: string });
      assert.deepEqual(
        followed.map((l) => [String(l.seq), l.hash]),
        stored.map((s) => [s.seq, s.hash]),
      );

      const response = await fetch(
        `${system.gatewayUrl}/api/audit/stream?companyId=${companies.A.id}&fromSeq=${stored[0]!.seq}`,
        { headers: { authorization: `Bearer ${host.token}` } },
      );
      assert.equal(response.status, 200);
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
      let text = '';
      while (text.split('\n').filter(Boolean).length < stored.length) {
        const { value, done } = await reader.read();
        if (done) throw new Error('the audit stream ended');
        text += value;
      }
      await reader.cancel();
      const streamed = text.split('\n').filter(Boolean).slice(0, stored.length);
      assert.deepEqual(
        streamed.map((line) => (JSON.parse(line) as { hash: string }).hash),
        stored.map((s) => s.hash),
      );
      steps.note(`${stored.length} entries of company A followed on earshot.audit and streamed through the gateway`);
    },
  );

  await steps.run('two chat replicas in one consumer group: each event applied once', async () => {
    // librdkafka's mock answers no DescribeGroups, so the group's members cannot be listed here:
    // both replicas are up and joined the one group `chat` (same KAFKA_CLIENT_ID and group as compose's).
    for (const replica of ['chat-1', 'chat-2'] as const) {
      const answer = await fetch(`${system.url(replica)}/ready`);
      assert.equal(answer.status, 200, `${replica} is up`);
    }
    // Every word edit reached chat's copy, each event applied by one replica once.
    const applied = await system.superuser((c) =>
      c.query<{ event_id: string; n: string }>(
        `select e.event_id, count(*) as n from chat.applied_events e where e.event_id in (select id from audit.entries where type = 'transcript.word_edited') group by 1`,
      ),
    );
    assert.equal(applied.rowCount, 31, 'chat applied every word edit');
    assert.ok(applied.rows.every((r) => Number(r.n) === 1));
    const text = (
      await system.superuser((c) =>
        c.query<{ text: string }>(
          `select string_agg(text, ' ') as text from chat.transcript_segments where file_id = $1`,
          [file._id],
        ),
      )
    ).rows[0]!.text;
    assert.match(text, /edit29/, 'chat has the last edit');
  });

  await steps.run('events/s through Kafka: a burst of edits, timed until the audit log has them all', async () => {
    const N = 60;
    const words = segments.flatMap((s) => s.words.map((w) => ({ segmentId: s._id, wordId: w._id })));
    const before = (await audit('type=transcript.word_edited').then((a) => a.items)).length;
    const started = Date.now();
    await Promise.all(
      Array.from({ length: 4 }, async (_, lane) => {
        for (let i = lane; i < N; i += 4) {
          const word = words[i % words.length]!;
          await api.expect(200, A, 'PUT', `/transcripts/${transcript._id}/metadata/words/${word.wordId}`, {
            text: `burst${i}`,
            speakerSegmentId: word.segmentId,
          });
        }
      }),
    );
    const published = Date.now() - started;
    await until(
      'the audit log to have the burst',
      () =>
        system.superuser(async (c) =>
          Number(
            (await c.query(`select count(*) as n from audit.entries where type = 'transcript.word_edited'`)).rows[0].n,
          ),
        ),
      (n) => n >= before + N,
      120_000,
    );
    const total = Date.now() - started;
    steps.note(
      `${N} word edits: accepted by the gateway in ${(published / 1000).toFixed(1)} s; all in the audit log (outbox → Kafka → audit consumer) after ${(total / 1000).toFixed(1)} s: ${((N / total) * 1000).toFixed(1)} events/s end to end`,
    );
  });

  // Last: it scales the compose worker in and leaves three workers of its own running.
  await scalingScenario(system, steps, api, host, [companies.A, companies.B]);
}
