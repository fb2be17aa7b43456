import { describe, expect, it } from '@jest/globals';
import { isTyping, shortcutFor, type KeyLike } from './shortcuts';

const key = (k: string, extra: Partial<KeyLike> = {}): KeyLike => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  shiftKey: false,
  ...extra,
});

describe('viewer shortcuts', () => {
  it('plays and pauses with Space outside fields, Ctrl/⌘+Space everywhere', () => {
    expect(shortcutFor(key(' '), false)).toBe('togglePlay');
    expect(shortcutFor(key(' '), true)).toBeNull();
    expect(shortcutFor(key(' ', { ctrlKey: true, code: 'Space' }), true)).toBe('togglePlay');
    expect(shortcutFor(key(' ', { metaKey: true }), true)).toBe('togglePlay');
  });

  it('moves 5 s with the arrows and J/L, K plays or pauses', () => {
    expect(shortcutFor(key('ArrowLeft'), false)).toBe('back');
    expect(shortcutFor(key('ArrowRight'), false)).toBe('forward');
    expect(shortcutFor(key('j'), false)).toBe('back');
    expect(shortcutFor(key('L', { shiftKey: true }), false)).toBeNull();
    expect(shortcutFor(key('l'), false)).toBe('forward');
    expect(shortcutFor(key('k'), false)).toBe('togglePlay');
    expect(shortcutFor(key('j'), true)).toBeNull();
    expect(shortcutFor(key('ArrowLeft'), true)).toBeNull();
  });

  it('undoes and redoes outside fields only (a field keeps its own undo)', () => {
    expect(shortcutFor(key('z', { ctrlKey: true }), false)).toBe('undo');
    expect(shortcutFor(key('Z', { ctrlKey: true, shiftKey: true }), false)).toBe('redo');
    expect(shortcutFor(key('y', { ctrlKey: true }), false)).toBe('redo');
    expect(shortcutFor(key('z', { metaKey: true }), false)).toBe('undo');
    expect(shortcutFor(key('z', { ctrlKey: true }), true)).toBeNull();
  });

  it('opens find and replace from anywhere', () => {
    expect(shortcutFor(key('f', { ctrlKey: true }), true)).toBe('find');
    expect(shortcutFor(key('h', { ctrlKey: true }), false)).toBe('replace');
  });

  it('jumps to the next unsure word with N, or Alt+N in a field (by the physical key)', () => {
    expect(shortcutFor(key('n'), false)).toBe('nextUnsure');
    expect(shortcutFor(key('n'), true)).toBeNull();
    expect(shortcutFor(key('˜', { altKey: true, code: 'KeyN' }), true)).toBe('nextUnsure');
  });

  it('shows the overlay with ?, and leaves other keys alone', () => {
    expect(shortcutFor(key('?', { shiftKey: true }), false)).toBe('help');
    expect(shortcutFor(key('?'), true)).toBeNull();
    expect(shortcutFor(key('a'), false)).toBeNull();
    expect(shortcutFor(key('r', { ctrlKey: true }), false)).toBeNull();
    expect(shortcutFor(key('ArrowLeft', { altKey: true }), false)).toBeNull();
  });

  it('knows where keys type text', () => {
    expect(isTyping(document.createElement('textarea'))).toBe(true);
    expect(isTyping(document.createElement('input'))).toBe(true);
    expect(isTyping(document.createElement('button'))).toBe(false);
    expect(isTyping(null)).toBe(false);
  });
});
