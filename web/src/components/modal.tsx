import type { ReactElement, ReactNode } from 'react';
import { useModalDialog } from './use-modal-dialog';

const WIDTH = { sm: 'w-96', md: 'w-[28rem]', lg: 'w-[40rem]' } as const;

/**
 * A modal on the native <dialog> (focus trap, Esc closes it through `onClose`), named by `label`.
 * The content mounts only while open, so a form in it starts from its defaults every time.
 */
export function Modal({ open, label, onClose, children, testId, size = 'md' }: {
  open: boolean;
  label: string;
  onClose: () => void;
  children: ReactNode;
  testId?: string;
  size?: keyof typeof WIDTH;
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
      className={`m-auto ${WIDTH[size]} max-h-[calc(100vh-2rem)] max-w-[calc(100vw-2rem)] overflow-y-auto rounded-2xl border border-gray-200 bg-white p-6 text-gray-900 shadow-xl backdrop:bg-gray-900/50 dark:border-gray-800 dark:bg-gray-900 dark:text-white`}
    >
      {open ? children : null}
    </dialog>
  );
}
