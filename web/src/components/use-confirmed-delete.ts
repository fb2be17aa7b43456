// Delete after a yes/no question: which row is being asked about, and what happens on Yes. The
// page says how it went (a toast, a line above the list) through `done` and `failed`.
import { useState } from 'react';

export function useConfirmedDelete<T extends { _id: string }>(
  remove: (id: string) => { unwrap: () => Promise<unknown> },
  outcome: { done: (target: T) => void; failed: (error: unknown) => void },
) {
  const [target, setTarget] = useState<T | null>(null);
  const confirm = async () => {
    if (!target) return;
    try {
      await remove(target._id).unwrap();
      outcome.done(target);
    } catch (error) {
      outcome.failed(error);
    }
    setTarget(null);
  };
  return { target, ask: setTarget, cancel: () => setTarget(null), confirm };
}
