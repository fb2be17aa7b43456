// The legal hold's badge and its place/lift button with the reason dialog, shared by
// the recording, client and company screens; each passes its own PUT …/hold mutation.
import { lazy, Suspense, useState, type ReactElement } from 'react';
import type { HoldBody, HoldDto } from '@earshot/contracts';
import { useFeatureTranslation } from '../../i18n/feature';
import { buttonClass } from '../../components/form-field';
import { formatDate } from '../../lib/format-time';
import { catalogue } from './hold-dialog-i18n';

const HoldDialog = lazy(() => import('./hold-dialog'));

/**
 * "Held", with the hold's line — since when (in the reader's language) and why, when known — as its
 * tooltip and, in place of the short word, what a screen reader says: one sentence, not "Held: …".
 */
export function HoldBadge({ reason, at }: { reason?: string | null; at?: string | null }): ReactElement {
  const { t, i18n } = useFeatureTranslation(catalogue);
  const date = at ? formatDate(at, i18n.language) : null;
  let line: string | undefined;
  if (reason && date) line = t('hold.badgeSince', { reason, date });
  else if (reason) line = t('hold.badgeTitle', { reason });
  else if (date) line = t('hold.badgeSinceOnly', { date });
  return (
    <span
      title={line}
      data-testid="hold-badge"
      className="inline-flex items-center gap-1 rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900 dark:bg-amber-900/50 dark:text-amber-100"
    >
      <span aria-hidden="true">⚖</span>
      <span aria-hidden={line ? true : undefined}>{t('hold.badge')}</span>
      {line ? (
        <span className="sr-only" data-testid="hold-line">
          {line}
        </span>
      ) : null}
    </span>
  );
}

export interface HoldToggleProps {
  held: boolean;
  name: string;
  save: (body: HoldBody) => Promise<HoldDto>;
  /** Told how it went (a toast): placed or lifted, with the answer. */
  onChanged?: (hold: HoldDto, message: string) => void;
}

/** "Place legal hold" / "Lift legal hold", opening the reason dialog. */
export function HoldToggle({ held, name, save, onChanged }: HoldToggleProps): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className={buttonClass.secondary} onClick={() => setOpen(true)} data-testid="hold-toggle">
        {t(held ? 'hold.lift' : 'hold.place')}
      </button>
      {open ? (
        <Suspense fallback={null}>
          <HoldDialog
            held={held}
            name={name}
            save={save}
            onClose={() => setOpen(false)}
            onDone={(hold) => onChanged?.(hold, t(hold.hold ? 'hold.placed' : 'hold.lifted'))}
          />
        </Suspense>
      ) : null}
    </>
  );
}
