import { describe, expect, it } from '@jest/globals';
import { assignSpeakerColors, SPEAKER_COLORS, knownSpeakers, speakerColors, speakerInitial } from './speaker-colors';

describe('speaker colours', () => {
  it('gives ten distinct colours', () => {
    expect(SPEAKER_COLORS).toHaveLength(10);
    expect(new Set(SPEAKER_COLORS).size).toBe(10);
  });

  it('assigns colours by first appearance, not by id', () => {
    const colors = assignSpeakerColors([
      { speakerId: 'speaker_1' },
      { speakerId: 'speaker_0' },
      { speakerId: 'speaker_1' },
    ]);
    expect(colors.get('speaker_1')).toBe(SPEAKER_COLORS[0]);
    expect(colors.get('speaker_0')).toBe(SPEAKER_COLORS[1]);
    expect(colors.size).toBe(2);
  });

  it('cycles after the tenth speaker', () => {
    const ids = Array.from({ length: 12 }, (_, i) => ({ speakerId: `p${i}` }));
    const colors = assignSpeakerColors(ids);
    expect(colors.get('p9')).toBe(SPEAKER_COLORS[9]);
    expect(colors.get('p10')).toBe(SPEAKER_COLORS[0]);
    expect(colors.get('p11')).toBe(SPEAKER_COLORS[1]);
  });

  it("puts the speaker id's first letter, uppercased, in the circle", () => {
    expect(speakerInitial('speaker_0')).toBe('S');
    expect(speakerInitial('agent')).toBe('A');
    expect(speakerInitial('élise')).toBe('É');
    expect(speakerInitial('')).toBe('?');
  });

  it('uses the transcript’s own colour of each speaker, the order of appearance for any without', () => {
    const colors = speakerColors(
      [{ id: 'speaker_1', label: 'Anna', channel: null, color: '#123456' }],
      [{ speakerId: 'speaker_0' }, { speakerId: 'speaker_1' }],
    );
    expect(colors.get('speaker_1')).toBe('#123456');
    expect(colors.get('speaker_0')).toBe(SPEAKER_COLORS[0]);
  });

  it('lists the speakers a turn names that the transcript’s list lacks', () => {
    const anna = { id: 'speaker_1', label: 'Anna', channel: null, color: '#123456' };
    expect(
      knownSpeakers([anna], [{ speakerId: 'speaker_1' }, { speakerId: 'speaker_0' }, { speakerId: 'speaker_0' }]).map(
        (s) => s.id,
      ),
    ).toEqual(['speaker_1', 'speaker_0']);
  });
});
