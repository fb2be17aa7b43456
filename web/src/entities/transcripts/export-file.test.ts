import { describe, expect, it } from '@jest/globals';
import { filenameFrom } from './export-file';

describe('export file name', () => {
  it('reads the quoted or bare filename', () => {
    expect(filenameFrom('attachment; filename="call one.srt"', 'x')).toBe('call one.srt');
    expect(filenameFrom('attachment; filename=call.txt', 'x')).toBe('call.txt');
    expect(filenameFrom('attachment; filename="say \\"hi\\".vtt"', 'x')).toBe('say "hi".vtt');
  });

  it('prefers filename* (non-ASCII names)', () => {
    expect(filenameFrom('attachment; filename="k_ne.docx"; filename*=UTF-8\'\'k%C3%B5ne.docx', 'x')).toBe('kõne.docx');
  });

  it('falls back when there is no usable name', () => {
    expect(filenameFrom(null, 'transcript.csv')).toBe('transcript.csv');
    expect(filenameFrom('attachment', 'transcript.csv')).toBe('transcript.csv');
    expect(filenameFrom('attachment; filename*=UTF-8\'\'%E0%A4%A.txt; filename="a.txt"', 'x')).toBe('a.txt');
  });
});
