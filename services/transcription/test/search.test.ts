import { randomUUID } from 'node:crypto';
import { eventDefinition, SYSTEM_ACTOR, type Envelope, type SearchResults } from '@earshot/contracts';
import { buildEnvelope, type ServiceContext } from '@earshot/kit';
import { createTestStack, type TestStack } from '@earshot/kit/testing';
import { claimNext, completeJob, queueSettings, transcriptionService, type TranscriptionConfig } from '../src';
import { snippetOf } from '../src/services/search';

const ACME = '11111111-1111-4111-8111-111111111111';
const OTHER = '22222222-2222-4222-8222-222222222222';
const FRENCH = '33333333-3333-4333-8333-333333333333';
const CONSUMERS = '44444444-4444-4444-8444-444444444444';
const SWITCHER = '55555555-5555-4555-8555-555555555555';

const company = (id: string, language: string, type = 'b2b') => ({
  name: `Company ${id.slice(0, 4)}`,
  code: id.slice(0, 4),
  domain: `${id.slice(0, 4)}.test`,
  status: 'active',
  maxUsers: null,
  maxStorage: null,
  type,
  language,
});

interface Line {
  speaker?: 'speaker_0' | 'speaker_1';
  text: string;
}

interface Recording {
  company: string;
  name: string;
  day: string;
  lines: Line[];
  uploadedBy?: string;
  clientId?: string;
  language?: string;
}

/**
 * The service alone, no worker: each recording is uploaded as the file service announces it
 * (file.uploaded, backdated to its day), then its job is claimed and completed with the text the
 * test chose, through the queue's own completeJob (the path every real transcript takes).
 */
describe('search across every call', () => {
  let stack: TestStack;
  let ctx: ServiceContext<TranscriptionConfig>;
  const users = { u1: randomUUID(), u2: randomUUID(), p1: randomUUID(), p2: randomUUID() };
  const tokens = {} as Record<
    'u1' | 'admin' | 'caller' | 'other' | 'french' | 'p1' | 'p2' | 'consumersAdmin' | 'switcher' | 'host',
    string
  >;
  const clientA = randomUUID();
  const clientB = randomUUID();
  const files = {} as Record<'refund' | 'billing' | 'escaping' | 'other' | 'french' | 'mine' | 'switcher', string>;

  async function publish(...envelopes: Envelope[]) {
    await stack.bus.publish(
      envelopes.map((envelope) => ({
        topic: eventDefinition(envelope.type).topic,
        key: envelope.companyId ?? 'platform',
        envelope,
      })),
    );
    await stack.settle();
  }
  const envelope = (
    type: Envelope['type'],
    companyId: string | null,
    data: Record<string, unknown>,
    occurredAt?: string,
  ): Envelope => ({
    ...buildEnvelope({ type, companyId, actor: SYSTEM_ACTOR, data } as Parameters<typeof buildEnvelope>[0]),
    ...(occurredAt ? { occurredAt } : {}),
  });

  async function record(r: Recording): Promise<string> {
    const fileId = randomUUID();
    const run = fileId.slice(0, 8);
    await publish(
      envelope(
        'file.uploaded',
        r.company,
        {
          id: fileId,
          storageKey: `${r.company}/${fileId}`,
          originalName: r.name,
          mimeType: 'audio/wav',
          size: 1000,
          clientId: r.clientId ?? null,
          uploadedBy: r.uploadedBy ?? users.u1,
          ...(r.language ? { language: r.language } : {}),
        },
        `${r.day}T12:00:00.000Z`,
      ),
    );
    const job = await claimNext(ctx, 'test-worker', queueSettings(ctx.config));
    expect(job?.fileId).toBe(fileId);
    let at = 0;
    const segments = r.lines.map((line, i) => {
      const words = line.text
        .split(' ')
        .map((text, w) => ({ _id: `w-${run}-${i}-${w}`, text, start: at + w, end: at + w + 0.5 }));
      const segment = {
        _id: `s-${run}-${i}`,
        speakerId: line.speaker ?? 'speaker_0',
        start: at,
        end: at + words.length,
        text: line.text,
        words,
      };
      at += words.length + 1;
      return segment;
    });
    const speakers = [
      { id: 'speaker_0', label: 'Agent', channel: 0, color: '#1f77b4' },
      { id: 'speaker_1', label: 'Customer', channel: 1, color: '#ff7f0e' },
    ];
    expect(
      await completeJob(ctx, job!, {
        engine: 'test',
        duration: at,
        speakers,
        segments,
        peaks: { version: 1, duration: at, pointsPerSecond: 10, length: 0, data: [] },
      } as Parameters<typeof completeJob>[2]),
    ).toBe(true);
    await stack.settle();
    return fileId;
  }

  const search = async (token: string, query: Record<string, string | number>) => {
    const res = await stack.as(token, {
      method: 'GET',
      url: `/api/search?${new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString()}`,
    });
    return {
      status: res.statusCode,
      body: res.json() as SearchResults & { details?: { field: string }[] | { field: string } },
    };
  };
  const names = (results: SearchResults) => results.items.map((i) => i.originalName);
  const found = async (token: string, query: Record<string, string | number>) => {
    const res = await search(token, query);
    expect(res.status).toBe(200);
    return names(res.body).sort();
  };
  const fieldOf = (body: { details?: { field: string }[] | { field: string } }) =>
    Array.isArray(body.details) ? body.details[0]?.field : body.details?.field;

  beforeAll(async () => {
    stack = await createTestStack([transcriptionService], { TRANSCRIPTION_WORKER: 'false' });
    ctx = stack.running.contexts.get('transcription') as ServiceContext<TranscriptionConfig>;
    tokens.u1 = await stack.tokenFor('USER', ACME, users.u1);
    tokens.admin = await stack.tokenFor('ADMIN', ACME);
    tokens.caller = await stack.tokenFor('CALLER', ACME);
    tokens.other = await stack.tokenFor('ADMIN', OTHER);
    tokens.french = await stack.tokenFor('USER', FRENCH);
    tokens.p1 = await stack.tokenFor('USER', CONSUMERS, users.p1);
    tokens.p2 = await stack.tokenFor('USER', CONSUMERS, users.p2);
    tokens.consumersAdmin = await stack.tokenFor('ADMIN', CONSUMERS);
    tokens.switcher = await stack.tokenFor('USER', SWITCHER);
    tokens.host = await stack.tokenFor('HOST_ADMIN', null);

    await publish(
      envelope('company.created', null, { id: ACME, before: null, after: company(ACME, 'en') }),
      envelope('company.created', null, { id: OTHER, before: null, after: company(OTHER, 'en') }),
      envelope('company.created', null, { id: FRENCH, before: null, after: company(FRENCH, 'fr') }),
      envelope('company.created', null, { id: CONSUMERS, before: null, after: company(CONSUMERS, 'en', 'b2c') }),
      envelope('company.created', null, { id: SWITCHER, before: null, after: company(SWITCHER, 'lv') }),
      envelope('client.created', ACME, {
        id: clientA,
        before: null,
        after: {
          name: 'Client A',
          organisation: null,
          email: null,
          phone: null,
          externalId: null,
          notes: null,
          ownerId: null,
        },
      }),
      envelope('client.created', ACME, {
        id: clientB,
        before: null,
        after: {
          name: 'Client B',
          organisation: null,
          email: null,
          phone: null,
          externalId: null,
          notes: null,
          ownerId: null,
        },
      }),
    );

    files.refund = await record({
      company: ACME,
      name: 'refund-call.wav',
      day: '2026-01-10',
      clientId: clientA,
      uploadedBy: users.u1,
      lines: [
        { text: 'Hello, thank you for calling. How can I help?' },
        { speaker: 'speaker_1', text: 'I want a refund for my broken phone, the zebra app crashed.' },
        { text: 'I will process the refund today. Refund approved, refund sent.' },
      ],
    });
    files.billing = await record({
      company: ACME,
      name: 'billing-call.wav',
      day: '2026-02-15',
      uploadedBy: users.u2,
      language: 'fr',
      lines: [
        { text: 'Your invoice shows a double charge.' },
        { speaker: 'speaker_1', text: 'The phone was broken before, and a refund would be fair.' },
      ],
    });
    files.escaping = await record({
      company: ACME,
      name: 'escaping.wav',
      day: '2026-03-01',
      lines: [{ text: '<script>alert(1)</script> & "refund" <b>now</b>' }],
    });
    files.other = await record({
      company: OTHER,
      name: 'other-company.wav',
      day: '2026-01-20',
      lines: [{ text: 'A refund with the secret password swordfish.' }],
    });
    files.french = await record({
      company: FRENCH,
      name: 'appel.wav',
      day: '2026-01-05',
      lines: [{ text: 'Les chevaux mangeaient des pommes dans le pré.' }],
    });
    files.mine = await record({
      company: CONSUMERS,
      name: 'diary-p1.wav',
      day: '2026-01-05',
      uploadedBy: users.p1,
      lines: [{ text: 'My private diary about the holiday.' }],
    });
    files.switcher = await record({
      company: SWITCHER,
      name: 'switch.wav',
      day: '2026-01-05',
      lines: [{ text: 'She called yesterday.' }],
    });
  }, 120_000);
  afterAll(async () => stack?.close());

  test('finds a word in every recording of the company, with the passages, speakers and times', async () => {
    const res = await search(tokens.u1, { q: 'refund' });
    expect(res.status).toBe(200);
    // Newest first by default.
    expect(names(res.body)).toEqual(['escaping.wav', 'billing-call.wav', 'refund-call.wav']);
    const refund = res.body.items.find((i) => i.fileId === files.refund)!;
    expect(refund.uploadDate).toBe('2026-01-10T12:00:00.000Z');
    expect(refund.hits.map((h) => [h.speakerName, h.start])).toEqual([
      ['Customer', 10],
      ['Agent', 23],
    ]);
    expect(refund.hits[0]!.snippet).toBe('I want a <mark>refund</mark> for my broken phone, the zebra app crashed.');
    // Stemmed with the company's language (english): "refunds" finds "refund" and marks each form.
    expect(refund.hits[1]!.snippet).toBe(
      'I will process the <mark>refund</mark> today. <mark>Refund</mark> approved, <mark>refund</mark> sent.',
    );
    expect(await found(tokens.u1, { q: 'refunds' })).toEqual(['billing-call.wav', 'escaping.wav', 'refund-call.wav']);
  });

  test('a quoted phrase finds its words one after the other only', async () => {
    expect(await found(tokens.u1, { q: '"broken phone"' })).toEqual(['refund-call.wav']);
    // billing-call has "phone was broken": both words, not the phrase.
    expect(await found(tokens.u1, { q: 'phone broken' })).toEqual(['billing-call.wav', 'refund-call.wav']);
    expect(await found(tokens.u1, { q: '"phone broken"' })).toEqual([]);
    // Exclusion is per passage: billing-call's "refund" passage also says "fair".
    expect(await found(tokens.u1, { q: 'refund -fair' })).toEqual(['escaping.wav', 'refund-call.wav']);
    expect(await found(tokens.u1, { q: 'refund -invoice' })).toEqual([
      'billing-call.wav',
      'escaping.wav',
      'refund-call.wav',
    ]);
  });

  test('snippets escape everything but the marks', async () => {
    const res = await search(tokens.u1, { q: 'refund', to: '2026-03-01', from: '2026-03-01' });
    expect(res.body.items.map((i) => i.hits.map((h) => h.snippet))).toEqual([
      ['&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;<mark>refund</mark>&quot; &lt;b&gt;now&lt;/b&gt;'],
    ]);
    expect(snippetOf('a <b> & c', [2])).toBe('a &lt;<mark>b</mark>&gt; &amp; c');
    // A long passage is cut around its first match.
    const long = Array.from({ length: 100 }, (_, i) => `w${i}`).join(' ');
    expect(snippetOf(long, [41])).toBe(
      `… ${Array.from({ length: 30 }, (_, i) => (i === 8 ? '<mark>w40</mark>' : `w${i + 32}`)).join(' ')} …`,
    );
  });

  test('a word edit is found at once, and the old word no longer', async () => {
    const [row] = await stack.database.query<{ id: string }>(
      'select id from transcription.transcripts where file_id = $1',
      [files.refund],
    );
    expect(await found(tokens.u1, { q: 'zebra' })).toEqual(['refund-call.wav']);
    const wordId = `w-${files.refund.slice(0, 8)}-1-9`;
    const edit = await stack.as(tokens.caller, {
      method: 'PUT',
      url: `/api/transcripts/${row!.id}/metadata/words/${wordId}`,
      payload: { text: 'giraffe', speakerSegmentId: `s-${files.refund.slice(0, 8)}-1` },
    });
    expect(edit.statusCode).toBe(200);
    expect(await found(tokens.u1, { q: 'zebra' })).toEqual([]);
    const res = await search(tokens.u1, { q: 'giraffe' });
    expect(res.body.items[0]!.hits[0]!.snippet).toBe(
      'I want a refund for my broken phone, the <mark>giraffe</mark> app crashed.',
    );
  });

  test("another company's text is never found; a HOST_ADMIN finds any company's", async () => {
    expect(await found(tokens.u1, { q: 'swordfish' })).toEqual([]);
    expect(await found(tokens.admin, { q: 'swordfish', companyId: OTHER })).toEqual([]);
    expect(await found(tokens.other, { q: 'refund' })).toEqual(['other-company.wav']);
    expect(await found(tokens.host, { q: 'swordfish' })).toEqual(['other-company.wav']);
    expect(await found(tokens.host, { q: 'refund', companyId: ACME })).toEqual([
      'billing-call.wav',
      'escaping.wav',
      'refund-call.wav',
    ]);
    // Every company at once, each with its own dictionary: the french stem too.
    expect(await found(tokens.host, { q: 'cheval' })).toEqual(['appel.wav']);
  });

  test('in a b2c company each member finds only their own recordings (its ADMIN too)', async () => {
    expect(await found(tokens.p1, { q: 'diary' })).toEqual(['diary-p1.wav']);
    expect(await found(tokens.p2, { q: 'diary' })).toEqual([]);
    expect(await found(tokens.consumersAdmin, { q: 'diary' })).toEqual([]);
  });

  test('a French company is searched with French stemming', async () => {
    // "cheval" is the stem of "chevaux"; "mangeait" finds "mangeaient".
    expect(await found(tokens.french, { q: 'cheval' })).toEqual(['appel.wav']);
    expect(await found(tokens.french, { q: 'mangeait' })).toEqual(['appel.wav']);
    const res = await search(tokens.french, { q: 'cheval' });
    expect(res.body.items[0]!.hits[0]!.snippet).toBe('Les <mark>chevaux</mark> mangeaient des pommes dans le pré.');
  });

  test("a company's new language re-indexes its transcripts", async () => {
    // Latvian has no configuration in PostgreSQL: 'simple', no stemming.
    expect(await found(tokens.switcher, { q: 'called' })).toEqual(['switch.wav']);
    expect(await found(tokens.switcher, { q: 'calling' })).toEqual([]);
    await publish(
      envelope('company.updated', null, {
        id: SWITCHER,
        before: company(SWITCHER, 'lv'),
        after: company(SWITCHER, 'en'),
      }),
    );
    expect(await found(tokens.switcher, { q: 'calling' })).toEqual(['switch.wav']);
  });

  test('filters: client (also after a link), tag, dates, speaker, language', async () => {
    expect(await found(tokens.u1, { q: 'refund', clientId: clientA })).toEqual(['refund-call.wav']);
    expect(await found(tokens.u1, { q: 'refund', clientId: clientB })).toEqual([]);
    const link = await stack.as(tokens.caller, {
      method: 'PUT',
      url: '/api/transcripts/link-client',
      payload: { transcriptId: files.billing, clientId: clientB },
    });
    expect(link.statusCode).toBe(200);
    expect(await found(tokens.u1, { q: 'refund', clientId: clientB })).toEqual(['billing-call.wav']);
    // A deleted client's recordings are unlinked.
    await publish(
      envelope('client.deleted', ACME, {
        id: clientB,
        before: {
          name: 'Client B',
          organisation: null,
          email: null,
          phone: null,
          externalId: null,
          notes: null,
          ownerId: null,
        },
        after: null,
      }),
    );
    expect(await found(tokens.u1, { q: 'refund', clientId: clientB })).toEqual([]);

    expect(await found(tokens.u1, { q: 'refund', tag: 'urgent' })).toEqual([]);
    await publish(
      envelope('file.tags_changed', ACME, {
        id: files.escaping,
        before: { tags: [] },
        after: { tags: ['urgent', 'vip'] },
      }),
    );
    expect(await found(tokens.u1, { q: 'refund', tag: 'urgent' })).toEqual(['escaping.wav']);
    expect(await found(tokens.u1, { q: 'refund', tag: 'VIP' })).toEqual(['escaping.wav']);
    // Tags survive a word edit's re-index (they are copied from the tags projection).
    await publish(
      envelope('file.tags_changed', ACME, {
        id: files.escaping,
        before: { tags: ['urgent', 'vip'] },
        after: { tags: ['vip'] },
      }),
    );
    expect(await found(tokens.u1, { q: 'refund', tag: 'urgent' })).toEqual([]);

    expect(await found(tokens.u1, { q: 'refund', from: '2026-01-11' })).toEqual(['billing-call.wav', 'escaping.wav']);
    expect(await found(tokens.u1, { q: 'refund', to: '2026-02-15' })).toEqual(['billing-call.wav', 'refund-call.wav']);
    expect(await found(tokens.u1, { q: 'refund', from: '2026-01-10', to: '2026-01-10' })).toEqual(['refund-call.wav']);
    // Passages of that speaker only.
    expect(await found(tokens.u1, { q: 'refund', speaker: 'customer' })).toEqual([
      'billing-call.wav',
      'refund-call.wav',
    ]);
    const agent = await search(tokens.u1, { q: 'refund', speaker: 'Agent' });
    expect(agent.body.items.map((i) => [i.originalName, i.hits.length])).toEqual([
      ['escaping.wav', 1],
      ['refund-call.wav', 1],
    ]);
    expect(await found(tokens.u1, { q: 'refund', language: 'fr' })).toEqual(['billing-call.wav']);
  });

  test('best match first: the recording that says it most and most densely', async () => {
    const res = await search(tokens.u1, { q: 'refund', sort: 'best' });
    expect(names(res.body)[0]).toBe('refund-call.wav');
    // Its passages best ranked first.
    expect(res.body.items[0]!.hits.map((h) => h.start)).toEqual([23, 10]);
  });

  test.each(['newest', 'best'] as const)('pages with cursors cover every recording once (%s)', async (sort) => {
    for (let i = 0; i < 7; i++) {
      const refunds = Array.from({ length: 1 + (i % 3) }, () => 'paginate').join(' and ');
      await record({
        company: ACME,
        name: `page-${sort}-${i}.wav`,
        day: `2026-04-${String(10 + (i % 2)).padStart(2, '0')}`,
        lines: [{ text: `Please ${refunds} ${sort}word.` }],
      });
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await search(tokens.u1, { q: `${sort}word`, sort, limit: 3, ...(cursor ? { cursor } : {}) });
      expect(res.status).toBe(200);
      expect(res.body.items.length).toBeLessThanOrEqual(3);
      seen.push(...names(res.body));
      cursor = res.body.nextCursor;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(seen.sort()).toEqual(Array.from({ length: 7 }, (_, i) => `page-${sort}-${i}.wav`));
    // A cursor of the other sort is refused rather than misread.
    const first = await search(tokens.u1, { q: `${sort}word`, sort, limit: 3 });
    const other = await search(tokens.u1, {
      q: `${sort}word`,
      sort: sort === 'best' ? 'newest' : 'best',
      cursor: first.body.nextCursor!,
    });
    expect(other.status).toBe(400);
    expect(fieldOf(other.body)).toBe('query.cursor');
  });

  test.each([
    [{}, 'query.q'],
    [{ q: '' }, 'query.q'],
    [{ q: '   ' }, 'query.q'],
    [{ q: 'x'.repeat(201) }, 'query.q'],
    [{ q: 'a\u0007b' }, 'query.q'],
    [{ q: 'refund', cursor: 'not-a-cursor' }, 'query.cursor'],
    [{ q: 'refund', cursor: Buffer.from('{"s":"newest","u":"1","f":"x"}').toString('base64url') }, 'query.cursor'],
    [{ q: 'refund', limit: 0 }, 'query.limit'],
    [{ q: 'refund', limit: 51 }, 'query.limit'],
    [{ q: 'refund', sort: 'oldest' }, 'query.sort'],
    [{ q: 'refund', from: '2026-02-30' }, 'query.from'],
    [{ q: 'refund', to: 'yesterday' }, 'query.to'],
    [{ q: 'refund', clientId: 'nope' }, 'query.clientId'],
    [{ q: 'refund', language: 'xx' }, 'query.language'],
    [{ q: 'refund', unknown: '1' }, 'query'],
  ] as const)('400 naming the field: %j', async (query, field) => {
    const res = await search(tokens.u1, query as Record<string, string | number>);
    expect(res.status).toBe(400);
    expect(fieldOf(res.body)?.startsWith(field)).toBe(true);
  });

  test('a deleted recording is no longer found', async () => {
    const fileId = await record({
      company: ACME,
      name: 'to-delete.wav',
      day: '2026-05-01',
      lines: [{ text: 'ephemeral words' }],
    });
    expect(await found(tokens.u1, { q: 'ephemeral' })).toEqual(['to-delete.wav']);
    expect((await stack.as(tokens.admin, { method: 'DELETE', url: `/api/transcripts/${fileId}` })).statusCode).toBe(
      200,
    );
    expect(await found(tokens.u1, { q: 'ephemeral' })).toEqual([]);
  });

  test('search is part of the transcription feature: off for the company, 403', async () => {
    await publish(
      envelope('company.features_changed', null, { id: ACME, before: {}, after: { transcription: false } }),
    );
    const res = await search(tokens.u1, { q: 'refund' });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'FEATURE_DISABLED' });
    await publish(
      envelope('company.features_changed', null, {
        id: ACME,
        before: { transcription: false },
        after: { transcription: true },
      }),
    );
    expect((await search(tokens.u1, { q: 'refund' })).status).toBe(200);
  });
});
