import { useEffect, useRef } from 'react';
import { isTyping, shortcutFor, type ShortcutAction } from './shortcuts';

/** The viewer's keyboard on the window; a dialog or an open menu keeps its own keys. */
export function useViewerKeys(handlers: Record<ShortcutAction, () => void>): void {
  const ref = useRef(handlers);
  ref.current = handlers;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented) return;
      const target = event.target instanceof Element ? event.target : null;
      if (target?.closest('dialog,[role="menu"]')) return;
      const action = shortcutFor(event, isTyping(event.target));
      if (!action) return;
      event.preventDefault();
      ref.current[action]();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
