import type { ReactElement, ReactNode } from 'react';
import { CrashBoundary } from './crash-notice';
import { useModalDialog } from './use-modal-dialog';

const WIDTH = { sm: 'w-96', md: 'w-[28rem]', lg: 'w-[40rem]' } as const;

/** Centred, or a drawer along the right edge at full height (a side panel over the page). */
const PLACEMENT = {
  center: 'm-auto max-h-[calc(100vh-2rem)] max-w-[calc(100vw-2rem)] rounded-2xl border p-6 backdrop:bg-gray-900/50',
  drawer: 'ml-auto mr-0 h-dvh max-h-dvh max-w-full border-l p-5 backdrop:bg-gray-900/40',
} as const;

/**
 * A modal on the native <dialog> (focus trap, Esc closes it through `onClose`), named by `label`.
 * The content mounts only while open, so a form in it starts from its defaults every time.
 */
export function Modal({
  open,
  label,
  onClose,
  children,
  testId,
  size = 'md',
  placement = 'center',
}: {
  open: boolean;
  label: string;
  onClose: () => void;
  children: ReactNode;
  testId?: string;
  size?: keyof typeof WIDTH;
  placement?: keyof typeof PLACEMENT;
}): ReactElement {
  const ref = useModalDialog(open);
  return (
    <dialog
      ref={ref}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      aria-label={label}
      data-testid={testId}
      className={`${PLACEMENT[placement]} ${WIDTH[size]} overflow-y-auto border-gray-200 bg-white text-gray-900 shadow-xl dark:border-gray-800 dark:bg-gray-900 dark:text-white`}
    >
      {open ? <CrashBoundary onBack={onClose}>{children}</CrashBoundary> : null}
    </dialog>
  );
}
