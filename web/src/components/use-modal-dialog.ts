import { useEffect, useRef, type RefObject } from 'react';

/**
 * Opens and closes a native <dialog> as a modal with `open`: the browser then keeps focus inside,
 * closes it with Esc (its `cancel` event) and gives focus back to what opened it. jsdom has no
 * showModal, so the attribute stands in there.
 */
export function useModalDialog(open: boolean): RefObject<HTMLDialogElement | null> {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      if (typeof dialog.showModal === 'function') dialog.showModal();
      else dialog.setAttribute('open', '');
    } else if (!open && dialog.open) {
      if (typeof dialog.close === 'function') dialog.close();
      else dialog.removeAttribute('open');
    }
  }, [open]);
  return ref;
}
