import { jest } from '@jest/globals';
import { parse as parseContentDisposition } from 'content-disposition';
import { SNIFF_BYTES, sniffAudio } from '../src/services/audio-sniffer';
import { estimateSeconds, FALLBACK_BITS_PER_SECOND } from '../src/services/audio-length';
import { parseRange } from '@earshot/kit';
import { contentDisposition, sanitiseOriginalName } from '../src/services/names';
import { makeAudioFixtures, wavHeader, type Fixture } from './helpers';

jest.setTimeout(60_000);

describe('sniffAudio', () => {
  let audio: Record<Fixture, Buffer>;
  beforeAll(() => {
    audio = makeAudioFixtures('sniff');
  });

  test.each([
    ['wav', 'audio/wav'],
    ['mp3', 'audio/mpeg'],
    ['mp3-bare', 'audio/mpeg'],
    ['ogg', 'audio/ogg'],
    ['opus', 'audio/ogg'],
    ['flac', 'audio/flac'],
    ['m4a', 'audio/mp4'],
    ['webm', 'audio/webm'],
    ['aac', 'audio/aac'],
  ] as const)('recognises real %s from its first 64 bytes', async (kind, mimeType) => {
    expect((await sniffAudio(audio[kind].subarray(0, 64)))?.mimeType).toBe(mimeType);
  });

  test.each(['wav', 'mp3', 'mp3-bare', 'ogg', 'opus', 'flac', 'm4a', 'webm', 'aac'] as const)(
    'recognises real %s from a first chunk of 64 KiB',
    async (kind) => {
      expect(await sniffAudio(audio[kind].subarray(0, 64 * 1024))).not.toBeNull();
    },
  );

  test('an MP3 without an ID3 tag starts with a frame header', () => {
    expect(audio['mp3-bare'].subarray(0, 3).toString('latin1')).not.toBe('ID3');
  });

  test.each([
    ['text', Buffer.from('Hello, this is text pretending to be an mp3 file.......................')],
    ['JSON', Buffer.from('{"audio": true, "format": "mp3", "padding": "....................................."}')],
    ['PNG', Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex')],
    ['PDF', Buffer.from('%PDF-1.7\n%âãÏÓ\n1 0 obj\n<< /Type /Catalog >>\nendobj\n..........')],
    ['ZIP', Buffer.concat([Buffer.from('504b0304', 'hex'), Buffer.alloc(60)])],
    [
      'HEIC (ftyp heic)',
      Buffer.concat([Buffer.from('0000001866747970686569630000000068656963', 'hex'), Buffer.alloc(44)]),
    ],
    ['AVIF (ftyp avif)', Buffer.concat([Buffer.from('0000001c6674797061766966', 'hex'), Buffer.alloc(52)])],
    ['RIFF but AVI', Buffer.concat([Buffer.from('RIFF\x00\x00\x00\x00AVI LIST', 'latin1'), Buffer.alloc(48)])],
    ['0xFF noise with reserved MPEG bits', Buffer.concat([Buffer.from('fffbf0', 'hex'), Buffer.alloc(61)])],
    ['zeros', Buffer.alloc(64)],
    ['empty', Buffer.alloc(0)],
  ])('refuses %s', async (_name, head) => {
    expect(await sniffAudio(head)).toBeNull();
  });

  test('a WAV header of our own making (the benchmark uses it)', async () => {
    expect(await sniffAudio(wavHeader(1024))).toEqual({ format: 'wav', mimeType: 'audio/wav' });
  });
});

describe('estimateSeconds', () => {
  let audio: Record<Fixture, Buffer>;
  let spoken: number;
  beforeAll(() => {
    audio = makeAudioFixtures('one two three four five six seven eight nine ten, how long is this recording');
    // espeak-ng's WAV: its length is exactly its data over its byte rate.
    spoken = (audio.wav.length - 44) / audio.wav.readUInt32LE(28);
  });
  const estimate = async (kind: Fixture) => {
    const head = audio[kind].subarray(0, SNIFF_BYTES);
    return estimateSeconds(head, (await sniffAudio(head))!, audio[kind].length);
  };

  test('WAV and FLAC say their length in their header', async () => {
    expect(spoken).toBeGreaterThan(3);
    expect(await estimate('wav')).toBeCloseTo(spoken, 2);
    expect(await estimate('flac')).toBeCloseTo(spoken, 1);
  });

  test('a constant-bitrate MP3 plays its size over its bitrate, with or without an ID3 tag', async () => {
    for (const kind of ['mp3', 'mp3-bare'] as const) {
      expect(Math.abs((await estimate(kind)) - spoken)).toBeLessThan(0.25);
    }
  });

  test('a WAV streamed without a length (0 or all ones) plays what follows its header', () => {
    const header = Buffer.from(wavHeader(0));
    header.writeUInt32LE(0xffffffff, 40);
    expect(estimateSeconds(header, { format: 'wav', mimeType: 'audio/wav' }, 44 + 96_000)).toBe(3);
  });

  test('formats whose head says nothing are estimated from their size', async () => {
    expect(await estimate('m4a')).toBeCloseTo((audio.m4a.length * 8) / FALLBACK_BITS_PER_SECOND, 3);
  });
});

describe('parseRange', () => {
  const size = 1000;
  test.each([
    [undefined, { kind: 'full' }],
    ['bytes=0-499', { kind: 'partial', range: { start: 0, end: 499 } }],
    ['bytes=500-', { kind: 'partial', range: { start: 500, end: 999 } }],
    ['bytes=-200', { kind: 'partial', range: { start: 800, end: 999 } }],
    ['bytes=-5000', { kind: 'partial', range: { start: 0, end: 999 } }],
    ['bytes=990-99999999999999999999', { kind: 'partial', range: { start: 990, end: 999 } }],
    ['bytes=999-999', { kind: 'partial', range: { start: 999, end: 999 } }],
    ['bytes=1000-', { kind: 'unsatisfiable' }],
    ['bytes=-0', { kind: 'unsatisfiable' }],
    ['bytes=5-4', { kind: 'unsatisfiable' }],
    ['bytes=x-y', { kind: 'unsatisfiable' }],
    ['bytes=-', { kind: 'unsatisfiable' }],
    ['bytes=0-1,5-6', { kind: 'full' }],
    ['pages=1-2', { kind: 'full' }],
  ])('%s', (header, expected) => {
    expect(parseRange(header, size)).toEqual(expected);
  });

  test('an empty object has no satisfiable range', () => {
    expect(parseRange('bytes=0-', 0)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=-1', 0)).toEqual({ kind: 'unsatisfiable' });
  });
});

describe('names', () => {
  test.each([
    ['meeting.mp3', 'meeting.mp3'],
    ['C:\\Users\\ann\\call.wav', 'call.wav'],
    ['../../etc/passwd', 'passwd'],
    ['  spaced   out\tname.ogg ', 'spaced out name.ogg'],
    ['invoice\u202egnp.wav', 'invoicegnp.wav'],
    ['bell\u0007.wav', 'bell.wav'],
    ['', 'audio'],
    [undefined, 'audio'],
    ['..', 'audio'],
  ])('%j is shown as %j', (raw, shown) => {
    expect(sanitiseOriginalName(raw)).toBe(shown);
  });

  test('long names are cut to 255 characters, keeping the extension', () => {
    const name = sanitiseOriginalName(`${'é'.repeat(600)}.flac`);
    expect([...name]).toHaveLength(255);
    expect(name.endsWith('….flac')).toBe(true);
  });

  test('Content-Disposition carries any name without breaking the header', () => {
    const name = 'réunion "final"; x=1.wav';
    const header = contentDisposition(name);
    expect(header).toBe(
      `inline; filename="r_union \\"final\\"; x=1.wav"; filename*=UTF-8''r%C3%A9union%20%22final%22%3B%20x%3D1.wav`,
    );
    expect(header).not.toMatch(/[\r\n]/);
    expect(parseContentDisposition(header)).toEqual({ type: 'inline', parameters: { filename: name } });
    expect(contentDisposition('call.wav')).toBe('inline; filename="call.wav"');
  });
});
