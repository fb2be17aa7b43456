// The viewer's keyboard (one table, unit tested in shortcuts.test.ts). Space, arrows and letters act
// only outside text fields, so typing is never hijacked; Ctrl/⌘+Space, Ctrl+F/H and Alt+N work
// everywhere, so playback and search stay at hand while a segment is being edited.
export type ShortcutAction =
  'togglePlay' | 'back' | 'forward' | 'undo' | 'redo' | 'find' | 'replace' | 'nextUnsure' | 'help';

export interface KeyLike {
  key: string;
  code?: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
}

export const SEEK_STEP = 5;

export function shortcutFor(event: KeyLike, typing: boolean): ShortcutAction | null {
  const mod = event.ctrlKey || event.metaKey;
  const letter = event.key.length === 1 ? event.key.toLowerCase() : '';
  if (mod && !event.altKey) {
    if (event.key === ' ' || event.code === 'Space') return 'togglePlay';
    if (letter === 'f') return 'find';
    if (letter === 'h') return 'replace';
    // Inside a text field the field's own undo works on what is being typed.
    if (typing) return null;
    if (letter === 'z') return event.shiftKey ? 'redo' : 'undo';
    if (letter === 'y') return 'redo';
    return null;
  }
  // Alt+N: the key on a Mac types a letter (˜), so the physical key counts.
  if (event.altKey && !mod) return event.code === 'KeyN' || letter === 'n' ? 'nextUnsure' : null;
  if (typing || mod || event.altKey) return null;
  switch (event.key) {
    case ' ':
      return 'togglePlay';
    case 'ArrowLeft':
      return 'back';
    case 'ArrowRight':
      return 'forward';
    case '?':
      return 'help';
    default:
      break;
  }
  if (event.shiftKey) return null;
  switch (letter) {
    case 'j':
      return 'back';
    case 'k':
      return 'togglePlay';
    case 'l':
      return 'forward';
    case 'n':
      return 'nextUnsure';
    default:
      return null;
  }
}

/** Whether a key event comes from a place where keys type text. */
export function isTyping(target: EventTarget | null): boolean {
  if (!target || typeof (target as HTMLElement).tagName !== 'string') return false;
  const element = target as HTMLElement;
  return element.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(element.tagName);
}

/** The "?" overlay's rows: keys and the catalogue key of what they do. */
export const SHORTCUT_LIST: ReadonlyArray<{ keys: string[]; action: string }> = [
  { keys: ['Space', 'Ctrl+Space', 'K'], action: 'togglePlay' },
  { keys: ['←', 'J'], action: 'back' },
  { keys: ['→', 'L'], action: 'forward' },
  { keys: ['N', 'Alt+N'], action: 'nextUnsure' },
  { keys: ['Ctrl+F'], action: 'find' },
  { keys: ['Ctrl+H'], action: 'replace' },
  { keys: ['Ctrl+Z'], action: 'undo' },
  { keys: ['Ctrl+Shift+Z', 'Ctrl+Y'], action: 'redo' },
  { keys: ['Enter'], action: 'save' },
  { keys: ['Esc'], action: 'cancel' },
  { keys: ['Shift+Click'], action: 'selectWords' },
  { keys: ['?'], action: 'help' },
];
