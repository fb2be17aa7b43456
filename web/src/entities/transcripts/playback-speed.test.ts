import { describe, expect, it } from '@jest/globals';
import { memoryStorage } from '../../lib/storage-keys';
import { readSpeed, writeSpeed } from './playback-speed';

describe('remembered playback speed', () => {
  it('is kept per person', () => {
    const storage = memoryStorage();
    writeSpeed(storage, 'u1', 1.5);
    writeSpeed(storage, 'u2', 0.5);
    expect(readSpeed(storage, 'u1')).toBe(1.5);
    expect(readSpeed(storage, 'u2')).toBe(0.5);
    expect(storage.getItem('playback-speed:u1')).toBe('1.5');
  });

  it('is 1× for someone new, someone unknown, or a value outside 0.5–2×', () => {
    const storage = memoryStorage({ 'playback-speed:u3': '16', 'playback-speed:u4': 'fast' });
    expect(readSpeed(storage, 'u0')).toBe(1);
    expect(readSpeed(storage, undefined)).toBe(1);
    expect(readSpeed(storage, 'u3')).toBe(1);
    expect(readSpeed(storage, 'u4')).toBe(1);
    writeSpeed(storage, undefined, 2);
    expect(readSpeed(storage, undefined)).toBe(1);
  });
});
