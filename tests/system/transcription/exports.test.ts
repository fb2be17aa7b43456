import { randomUUID } from 'node:crypto';
import { unzipSync, strFromU8 } from 'fflate';
import mammoth from 'mammoth';
import { parseText, type VTTCue } from 'media-captions';
import {
  eventDefinition,
  SUBTITLE_LIMITS,
  type ExportFormat,
  type Role,
  type SpeakerSegment,
  type TranscriptDto,
} from '@earshot/contracts';
import { buildEnvelope, hashApiKey, serveCreditGateInProcess, type ServiceContext } from '@earshot/kit';
import { createTestStack, ScriptedCreditGate, type TestStack } from '@earshot/kit/testing';
import { fileService } from '@earshot/file-service';
import { transcriptionService, type TranscriptionConfig } from '@earshot/transcription-service';
import { saveResult } from '../../../services/transcription/src/repositories/transcripts';
import { zipFiles } from '../../../services/transcription/src/services/exports/bundle';
import { render } from '../../../services/transcription/src/services/exports/formats';
import { baseName, clock } from '../../../services/transcription/src/services/exports/shared';
import { buildCues, toSrt, toVtt } from '../../../services/transcription/src/services/exports/subtitles';
import { toCsv } from '../../../services/transcription/src/services/exports/table';
import { toText } from '../../../services/transcription/src/services/exports/text';
import { getTranscript, makeCall, makeTones, upload, waitForStatus } from './helpers';
import { longTranscript } from '../../../services/transcription/test/long-transcript';

const { lineLength, lines: maxLines } = SUBTITLE_LIMITS;
const FORMATS: ExportFormat[] = ['txt', 'srt', 'vtt', 'docx', 'json', 'csv'];

/** A transcript made of the given segments (ids, text and times from their words). */
function transcriptOf(
  segments: { speakerId: string; words: [string, number, number][] }[],
  speakers = [
    { id: 'speaker_0', label: 'Agent' },
    { id: 'speaker_1', label: 'Customer' },
  ],
): TranscriptDto {
  const base = longTranscript({ words: 1, seconds: 1, originalName: 'Call 7.mp3' });
  let n = 0;
  const speakerSegments: SpeakerSegment[] = segments.map((s, i) => {
    const words = s.words.map(([text, start, end]) => ({ _id: `w-t-${n++}`, text, start, end }));
    return {
      _id: `s-t-${i}`,
      speakerId: s.speakerId,
      start: words[0]!.start,
      end: words[words.length - 1]!.end,
      text: words.map((w) => w.text).join(' '),
      words,
    };
  });
  return {
    ...base,
    metadata: {
      ...base.metadata,
      speakers: speakers.map((s, i) => ({ ...s, channel: i, color: '#000000' })),
      speakerSegments,
    },
  };
}

/** Words of a sentence, one every 0.4 s from `at`. */
const spoken = (sentence: string, at: number): [string, number, number][] =>
  sentence.split(' ').map((text, i) => [text, at + i * 0.4, at + i * 0.4 + 0.3]);

/** A parsed cue's words as a person reads them: voice spans and SRT's `Name:` prefix gone, entities decoded. */
function cueWords(cue: VTTCue, names: readonly string[]): string[] {
  let text = cue.text
    .replace(/<\/?v[^>]*>/g, '')
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');
  const label = names.find((name) => text.startsWith(`${name}:`));
  if (label) text = text.slice(label.length + 1);
  return text.split(/\s+/).filter(Boolean);
}

const shownLines = (cue: VTTCue) =>
  cue.text
    .replace(/<\/?v[^>]*>/g, '')
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&')
    .split('\n');

/**
 * Checks a subtitle file as a player would read it: it parses without a single error in a strict
 * parser, every cue has at most two lines of at most 42 characters, and the cues hold every word
 * exactly once, in order, each cue running from its first word's start to its last word's end.
 */
async function expectSubtitles(text: string, type: 'srt' | 'vtt', t: TranscriptDto): Promise<VTTCue[]> {
  const parsed = await parseText(text, { type, strict: true });
  expect(parsed.errors).toEqual([]);
  const names = t.metadata.speakers.map((s) => s.label);
  const words = t.metadata.speakerSegments.flatMap((s) => s.words.map((w) => ({ ...w, speakerId: s.speakerId })));
  const byStart = new Map(words.map((w, i) => [Math.round(w.start * 1000), i]));
  const seen = new Set<number>();
  for (const cue of parsed.cues) {
    const lines = shownLines(cue);
    expect(lines.length).toBeLessThanOrEqual(maxLines);
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(lineLength);
    const first = byStart.get(Math.round(cue.startTime * 1000));
    expect(first).toBeDefined();
    const tokens = cueWords(cue, names);
    const run = words.slice(first!, first! + tokens.length);
    expect(run.map((w) => w.text)).toEqual(tokens);
    // One speaker per cue, and the cue ends when its last word does.
    expect(new Set(run.map((w) => w.speakerId)).size).toBe(1);
    expect(cue.endTime).toBeCloseTo(run[run.length - 1]!.end, 3);
    for (let i = first!; i < first! + tokens.length; i++) {
      expect(seen.has(i)).toBe(false);
      seen.add(i);
    }
  }
  expect(seen.size).toBe(words.length);
  return parsed.cues;
}

describe('export formats', () => {
  const call = longTranscript({ words: 3000, seconds: 1080 });

  test('SRT and WebVTT parse strictly; cues keep every word once at its own times, ≤ 2 lines of ≤ 42 characters', async () => {
    const srt = await expectSubtitles(toSrt(call), 'srt', call);
    const vtt = await expectSubtitles(toVtt(call), 'vtt', call);
    // Lines are filled: a second line starts only with a word that did not fit on the first.
    for (const cue of [...srt, ...vtt]) {
      const [first, second] = shownLines(cue);
      if (second) expect([...first!].length + 1 + [...second.split(' ')[0]!].length).toBeGreaterThan(lineLength);
    }
  });

  test('the strict parser is strict: a broken timing line is refused', async () => {
    const broken = toVtt(call).replace('00:00:00.', '00:00:0.');
    await expect(parseText(broken, { type: 'vtt', strict: true })).rejects.toThrow(
      /timestamp `00:00:0\.\d+` is invalid/,
    );
  });

  test('SRT names the speaker in every cue, continuations of a turn included; WebVTT gives every cue its voice', async () => {
    const srt = (await parseText(toSrt(call), { type: 'srt', strict: true })).cues;
    const cues = buildCues(call, true);
    expect(srt).toHaveLength(cues.length);
    const continuations = cues.filter((cue, i) => i > 0 && cues[i - 1]!.speakerId === cue.speakerId);
    expect(continuations.length).toBeGreaterThan(10);
    srt.forEach((cue, i) => {
      expect(cue.text.startsWith(`${cues[i]!.name}: `) || cue.text.startsWith(`${cues[i]!.name}:\n`)).toBe(true);
    });
    expect(srt.filter((cue) => /^(Agent|Customer):/.test(cue.text)).length).toBeGreaterThan(100);
    const vtt = (await parseText(toVtt(call), { type: 'vtt', strict: true })).cues;
    const voices = buildCues(call, false);
    expect(vtt).toHaveLength(voices.length);
    vtt.forEach((cue, i) => expect(cue.text.startsWith(`<v ${voices[i]!.name}>`)).toBe(true));
  });

  test('cross-talk: overlapping turns interleave by time and every SRT cue names its speaker', async () => {
    const t = transcriptOf([
      {
        speakerId: 'speaker_0',
        words: spoken(
          'so the order left our warehouse on monday morning and it should have reached you by wednesday at the latest but the tracking shows it is still in transit',
          0,
        ),
      },
      { speakerId: 'speaker_1', words: spoken('yes', 4.05) },
      { speakerId: 'speaker_0', words: spoken('we will look into it', 13) },
    ]);
    const cues = await expectSubtitles(toSrt(t), 'srt', t);
    expect(cues.map((c) => c.startTime)).toEqual([...cues.map((c) => c.startTime)].sort((a, b) => a - b));
    const order = cues.map((c) => (c.text.includes('yes') ? 'customer' : 'agent'));
    expect(order.indexOf('customer')).toBeGreaterThan(0);
    expect(order.indexOf('customer')).toBeLessThan(order.length - 2);
    cues.forEach((cue, i) => expect(cue.text).toMatch(order[i] === 'customer' ? /^Customer:/ : /^Agent:/));
  });

  test('WebVTT escapes &, < and >; a word longer than a line is the only thing ever cut', async () => {
    const long = 'https://example.test/a/very/long/path/that/cannot/fit/on/one/line';
    const t = transcriptOf(
      [
        {
          speakerId: 'speaker_0',
          words: [
            ['<b>Tom', 1, 1.3],
            ['&', 1.4, 1.5],
            ['Jerry>', 1.6, 2],
            [long, 2.1, 4.1],
            ['-->', 4.2, 4.4],
          ],
        },
      ],
      [{ id: 'speaker_0', label: 'R&D <lead>' }],
    );
    const vtt = toVtt(t);
    expect(vtt).toContain('<v R&amp;D &lt;lead&gt;>&lt;b&gt;Tom &amp; Jerry&gt;');
    expect(vtt).toContain('--&gt;');
    const parsed = await parseText(vtt, { type: 'vtt', strict: true });
    expect(parsed.errors).toEqual([]);
    const lines = parsed.cues.flatMap(shownLines);
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(lineLength);
    expect(lines.join('')).toContain(long);
    // The cut word's two pieces share its span (2.1–4.1 s) by their length: its first 42 characters end a cue.
    const cut = 2.1 + (2 * 42) / long.length;
    expect(parsed.cues.map((c) => [c.startTime, c.endTime])).toEqual([
      [1, expect.closeTo(cut, 3)],
      [expect.closeTo(cut, 3), 4.4],
    ]);
    const srt = await parseText(toSrt(t), { type: 'srt', strict: true });
    expect(srt.errors).toEqual([]);
    expect(srt.cues.map((c) => c.text).join('\n')).not.toContain('-->');
  });

  test('TXT: title, date, then Name (m:ss): text with a blank line between turns; h:mm:ss past an hour', () => {
    const t = transcriptOf([
      {
        speakerId: 'speaker_0',
        words: [
          ['Hello', 5.2, 5.5],
          ['there.', 5.6, 6],
        ],
      },
      { speakerId: 'speaker_1', words: [['Hi.', 65, 65.4]] },
      { speakerId: 'speaker_0', words: [['Bye', 3725.5, 3726]] },
    ]);
    expect(toText(t)).toBe(
      [
        'Call 7.mp3',
        '2026-11-25 10:00 UTC',
        '',
        'Agent (0:05): Hello there.',
        '',
        'Customer (1:05): Hi.',
        '',
        'Agent (1:02:05): Bye',
        '',
      ].join('\n'),
    );
    expect([clock(0), clock(59.9), clock(600), clock(3600), clock(36_000)]).toEqual([
      '0:00',
      '0:59',
      '10:00',
      '1:00:00',
      '10:00:00',
    ]);
  });

  test('CSV: RFC 4180 quoting, and cells a spreadsheet would run as a formula start with a quote mark', () => {
    const t = transcriptOf(
      [
        { speakerId: 'speaker_0', words: [['=HYPERLINK("http://x.test")', 1, 2]] },
        {
          speakerId: 'speaker_1',
          words: [
            ['Hello,', 3, 3.5],
            ['"friend"', 3.6, 4],
          ],
        },
        { speakerId: 'speaker_0', words: [['-2+3', 5, 5.5]] },
        { speakerId: 'speaker_1', words: [['fine', 6, 6.5]] },
      ],
      [
        { id: 'speaker_0', label: '@Agent' },
        { id: 'speaker_1', label: '+Customer' },
      ],
    );
    expect(toCsv(t).split('\r\n')).toEqual([
      'segmentId,speaker,start,end,text',
      `s-t-0,'@Agent,1,2,"'=HYPERLINK(""http://x.test"")"`,
      `s-t-1,'+Customer,3,4,"Hello, ""friend"""`,
      `s-t-2,'@Agent,5,5.5,'-2+3`,
      `s-t-3,'+Customer,6,6.5,fine`,
      '',
    ]);
  });

  test('DOCX opens in mammoth with the title, the speakers list and each turn: the name in bold and its time', async () => {
    const t = transcriptOf(
      [
        {
          speakerId: 'speaker_0',
          words: [
            ['Good', 1, 1.2],
            ['morning', 1.3, 1.8],
          ],
        },
        {
          speakerId: 'speaker_1',
          words: [
            ['Labrīt', 75, 75.5],
            ['<&>', 75.6, 76],
          ],
        },
      ],
      [
        { id: 'speaker_0', label: 'Anna Bērziņa' },
        { id: 'speaker_1', label: 'Jānis & Co' },
      ],
    );
    const docx = await render(t, 'docx');
    // mammoth maps Word's headings to HTML but knows no Title style: it is told.
    const { value: html, messages } = await mammoth.convertToHtml(
      { buffer: docx },
      { styleMap: ["p[style-name='Title'] => h1.title:fresh"] },
    );
    expect(messages).toEqual([]);
    expect(html).toMatch(/^<h1 class="title">Call 7\.mp3<\/h1><p>2026-11-25 10:00 UTC<\/p>/);
    expect(html).toContain('<h1>Speakers</h1><ul><li>Anna Bērziņa</li><li>Jānis &amp; Co</li></ul>');
    expect(html).toContain('<p><strong>Anna Bērziņa</strong>  0:01</p><p>Good morning</p>');
    expect(html).toContain('<p><strong>Jānis &amp; Co</strong>  1:15</p><p>Labrīt &lt;&amp;&gt;</p>');
    expect((await mammoth.extractRawText({ buffer: docx })).value).toMatch(/^Call 7\.mp3\n\n2026-11-25 10:00 UTC/);
  });

  test('JSON is the API shape itself', async () => {
    expect(JSON.parse((await render(call, 'json')).toString())).toEqual(call);
  });

  test('names: the extension goes; a ZIP numbers equal names', () => {
    expect([
      baseName('call.mp3'),
      baseName('Zvans ar klientu — Rīga.m4a'),
      baseName('.wav'),
      baseName('no extension'),
      baseName('v1.2 final.wav'),
    ]).toEqual(['call', 'Zvans ar klientu — Rīga', '.wav', 'no extension', 'v1.2 final']);
    const file = (name: string) => ({ name, data: new TextEncoder().encode(name), compressed: false });
    const zip = unzipSync(
      zipFiles([file('call.txt'), file('Call.txt'), file('call.txt'), file('other.txt')], new Date()),
    );
    expect(Object.keys(zip)).toEqual(['call.txt', 'Call (2).txt', 'call (3).txt', 'other.txt']);
  });
});

const ACME = '11111111-1111-4111-8111-111111111111';
const OTHER = '22222222-2222-4222-8222-222222222222';
const SHOP = '33333333-3333-4333-8333-333333333333';
const API_KEY = `esk_${'a'.repeat(32)}`;

describe('export routes', () => {
  let stack: TestStack;
  let ctx: ServiceContext<TranscriptionConfig>;
  let tokens: Record<
    'user' | 'caller' | 'admin' | 'host' | 'otherCompany' | 'shopper' | 'shopper2' | 'shopAdmin',
    string
  >;
  const audio = makeTones([{ start: 0.2, length: 0.5 }], 1);

  beforeAll(async () => {
    stack = await createTestStack([fileService, transcriptionService], { TRANSCRIPTION_WORKER: 'false' });
    serveCreditGateInProcess(stack.database, new ScriptedCreditGate());
    // Company ACME's API key, as the tenant service would answer for it.
    stack.tokens.apiKeys.serveLocally({
      owner: async (hash) => (hash === hashApiKey(API_KEY) ? { companyId: ACME } : null),
    });
    const token = (role: Role, company: string | null) => stack.tokenFor(role, company);
    tokens = {
      user: await token('USER', ACME),
      caller: await token('CALLER', ACME),
      admin: await token('ADMIN', ACME),
      host: await token('HOST_ADMIN', null),
      otherCompany: await token('ADMIN', OTHER),
      shopper: await token('USER', SHOP),
      shopper2: await token('USER', SHOP),
      shopAdmin: await token('ADMIN', SHOP),
    };
    ctx = stack.running.contexts.get('transcription') as ServiceContext<TranscriptionConfig>;
    // SHOP is a consumer workspace (b2c): each member's recordings are their own.
    const created = buildEnvelope({
      type: 'company.created',
      companyId: SHOP,
      actor: { type: 'system', id: null },
      data: {
        id: SHOP,
        before: null,
        after: {
          name: 'Shop',
          code: 'SHOP',
          domain: 'shop',
          status: 'active',
          maxUsers: null,
          maxStorage: null,
          type: 'b2c',
        },
      },
    });
    await stack.bus.publish([{ topic: eventDefinition('company.created').topic, key: SHOP, envelope: created }]);
    await stack.settle();
  }, 60_000);
  afterAll(async () => stack.close());

  /** A completed transcript written as the worker writes one (fast: no audio is recognised). */
  async function completed(
    token: string,
    name: string,
    t: TranscriptDto = longTranscript({ words: 400, seconds: 150 }),
  ): Promise<string> {
    const fileId = await upload(stack, token, audio, name);
    const { speakers, speakerSegments: segments, duration } = t.metadata;
    await ctx.transact(async (tx) => {
      await saveResult(tx, fileId, {
        engine: 'test',
        duration: duration!,
        speakers,
        segments,
        peaks: { version: 1, duration: duration!, pointsPerSecond: 10, length: 0, data: [] },
      });
    });
    await stack.database.query(`update transcription.jobs set status = 'completed' where file_id = $1`, [fileId]);
    return fileId;
  }

  const exportAs = (token: string | null, fileId: string, format: string, headers: Record<string, string> = {}) =>
    stack.as(token, { method: 'GET', url: `/api/transcripts/${fileId}/export?format=${format}`, headers });

  test('each format downloads with its type and a Content-Disposition named after the recording', async () => {
    const fileId = await completed(tokens.user, 'weekly call.wav');
    const types: Record<ExportFormat, RegExp> = {
      txt: /^text\/plain; charset=utf-8$/,
      srt: /^application\/x-subrip; charset=utf-8$/,
      vtt: /^text\/vtt; charset=utf-8$/,
      docx: /^application\/vnd\.openxmlformats-officedocument\.wordprocessingml\.document$/,
      json: /^application\/json; charset=utf-8$/,
      csv: /^text\/csv; charset=utf-8$/,
    };
    for (const format of FORMATS) {
      const res = await exportAs(tokens.caller, fileId, format);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(types[format]);
      expect(res.headers['content-disposition']).toBe(`attachment; filename="weekly call.${format}"`);
      expect(res.headers['cache-control']).toBe('no-store');
    }
    const json = (await exportAs(tokens.user, fileId, 'json')).json();
    // The transcript as the viewer reads it, less `hasOriginal` (a hint for the caller, not part of the transcript).
    const { hasOriginal: _hint, ...transcript } = await getTranscript(stack, tokens.user, fileId);
    expect(json).toEqual(transcript);
  });

  test('a non-ASCII name: an ASCII filename and the exact one in filename*', async () => {
    const fileId = await completed(tokens.user, 'Zvans — Rīga.mp3');
    const res = await exportAs(tokens.user, fileId, 'srt');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="Zvans _ R_ga.srt"; filename*=UTF-8''Zvans%20%E2%80%94%20R%C4%ABga.srt`,
    );
  });

  test('a renamed speaker shows in every format at once', async () => {
    const fileId = await completed(tokens.user, 'rename.wav');
    const renamed = await stack.as(tokens.caller, {
      method: 'PUT',
      url: `/api/transcripts/${fileId}/speakers/speaker_1`,
      payload: { name: 'Mārtiņš Ozols' },
    });
    expect(renamed.statusCode).toBe(200);
    for (const format of FORMATS) {
      const res = await exportAs(tokens.user, fileId, format);
      const text = format === 'docx' ? (await mammoth.extractRawText({ buffer: res.rawPayload })).value : res.body;
      expect(text).toContain(format === 'json' ? '"label":"Mārtiņš Ozols"' : 'Mārtiņš Ozols');
      expect(text).not.toContain('Customer');
    }
    const t = await getTranscript(stack, tokens.user, fileId);
    await expectSubtitles((await exportAs(tokens.user, fileId, 'vtt')).body, 'vtt', t);
  });

  test('several recordings as one ZIP: one entry each, equal names numbered', async () => {
    const ids = [
      await completed(tokens.user, 'call.wav'),
      await completed(tokens.admin, 'call.wav'),
      await completed(tokens.user, 'other.mp3'),
    ];
    const res = await stack.as(tokens.user, {
      method: 'POST',
      url: '/api/transcripts/export',
      payload: { fileIds: [...ids, ids[0]], format: 'docx' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="transcripts-\d{4}-\d{2}-\d{2}-docx\.zip"$/,
    );
    const entries = unzipSync(new Uint8Array(res.rawPayload));
    expect(Object.keys(entries)).toEqual(['call.docx', 'call (2).docx', 'other.docx']);
    for (const data of Object.values(entries))
      expect((await mammoth.extractRawText({ buffer: Buffer.from(data) })).value).toContain('Speakers');
    const txt = await stack.as(tokens.user, {
      method: 'POST',
      url: '/api/transcripts/export',
      payload: { fileIds: ids, format: 'txt' },
    });
    expect(strFromU8(unzipSync(new Uint8Array(txt.rawPayload))['other.txt']!)).toMatch(/^other\.mp3\n/);
  });

  test('another company’s recording is a 404, alone or in a ZIP; a HOST_ADMIN may export any', async () => {
    const own = await completed(tokens.user, 'own.wav');
    const theirs = await completed(tokens.otherCompany, 'theirs.wav');
    expect((await exportAs(tokens.user, theirs, 'txt')).statusCode).toBe(404);
    expect((await exportAs(tokens.otherCompany, own, 'txt')).statusCode).toBe(404);
    const zip = await stack.as(tokens.user, {
      method: 'POST',
      url: '/api/transcripts/export',
      payload: { fileIds: [own, theirs], format: 'txt' },
    });
    expect(zip.statusCode).toBe(404);
    expect(zip.body).not.toContain('theirs');
    // Not ready and not theirs to see: the 404 wins, whatever the order.
    const pending = await upload(stack, tokens.user, audio, 'pending.wav');
    expect(
      (
        await stack.as(tokens.user, {
          method: 'POST',
          url: '/api/transcripts/export',
          payload: { fileIds: [pending, theirs], format: 'txt' },
        })
      ).statusCode,
    ).toBe(404);
    expect((await exportAs(tokens.user, randomUUID(), 'txt')).statusCode).toBe(404);
    expect((await exportAs(tokens.host, theirs, 'txt')).statusCode).toBe(200);
  });

  test('in a b2c company only the uploader exports a recording (its ADMIN too gets a 404)', async () => {
    const mine = await completed(tokens.shopper, 'mine.wav');
    expect((await exportAs(tokens.shopper, mine, 'txt')).statusCode).toBe(200);
    expect((await exportAs(tokens.shopper2, mine, 'txt')).statusCode).toBe(404);
    expect((await exportAs(tokens.shopAdmin, mine, 'txt')).statusCode).toBe(404);
  });

  test('a transcript that is not ready is a 409 saying so, alone or in a ZIP', async () => {
    const pending = await upload(stack, tokens.user, audio, 'pending call.wav');
    const ready = await completed(tokens.user, 'ready.wav');
    const res = await exportAs(tokens.user, pending, 'srt');
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'CONFLICT',
      message: '“pending call.wav” cannot be exported yet: its transcription is pending',
      details: { fileId: pending, status: 'pending' },
    });
    const zip = await stack.as(tokens.user, {
      method: 'POST',
      url: '/api/transcripts/export',
      payload: { fileIds: [ready, pending], format: 'srt' },
    });
    expect(zip.statusCode).toBe(409);
  });

  test('the company API key (SERVICE) may export; bad input is a 400 naming the field', async () => {
    const fileId = await completed(tokens.user, 'for the crm.wav');
    const res = await exportAs(null, fileId, 'csv', { 'x-api-key': API_KEY });
    expect(res.statusCode).toBe(200);
    expect(res.body.split('\r\n')[0]).toBe('segmentId,speaker,start,end,text');
    const bulk = await stack.as(null, {
      method: 'POST',
      url: '/api/transcripts/export',
      payload: { fileIds: [fileId], format: 'vtt' },
      headers: { 'x-api-key': API_KEY },
    });
    expect(bulk.statusCode).toBe(200);

    const bad = await exportAs(tokens.user, fileId, 'pdf');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details[0].field).toBe('query.format');
    const tooMany = await stack.as(tokens.user, {
      method: 'POST',
      url: '/api/transcripts/export',
      payload: { fileIds: Array.from({ length: 101 }, randomUUID), format: 'txt' },
    });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().details[0].field).toBe('body.fileIds');
    const none = await stack.as(tokens.user, {
      method: 'POST',
      url: '/api/transcripts/export',
      payload: { fileIds: [], format: 'txt' },
    });
    expect(none.statusCode).toBe(400);
  });
});

describe('export of a real recording', () => {
  let stack: TestStack;
  let token: string;

  beforeAll(async () => {
    stack = await createTestStack([fileService, transcriptionService], { TRANSCRIPTION_CONCURRENCY: '1' });
    serveCreditGateInProcess(stack.database, new ScriptedCreditGate());
    token = await stack.tokenFor('USER', ACME);
  }, 60_000);
  afterAll(async () => stack.close());

  test('a two-voice call transcribed by the offline engine exports SRT and WebVTT at its words’ times, and a DOCX naming both sides', async () => {
    const fileId = await upload(stack, token, makeCall().audio, 'Réunion client.wav');
    expect(await waitForStatus(stack, token, fileId)).toMatchObject({ status: 'completed', reason: null });
    const t = await getTranscript(stack, token, fileId);
    expect(t.metadata.speakerSegments.length).toBeGreaterThan(1);
    for (const format of ['srt', 'vtt'] as const) {
      const res = await stack.as(token, { method: 'GET', url: `/api/transcripts/${fileId}/export?format=${format}` });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-disposition']).toBe(
        `attachment; filename="R_union client.${format}"; filename*=UTF-8''R%C3%A9union%20client.${format}`,
      );
      await expectSubtitles(res.body, format, t);
    }
    const docx = await stack.as(token, { method: 'GET', url: `/api/transcripts/${fileId}/export?format=docx` });
    const text = (await mammoth.extractRawText({ buffer: docx.rawPayload })).value;
    expect(text).toContain('Réunion client.wav');
    expect(text).toMatch(/Speakers\n\nAgent\n\nCustomer/);
  }, 300_000);
});
