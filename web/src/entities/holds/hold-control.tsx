// The legal hold's badge and its place/lift button with the reason dialog, shared by
// the recording, client and company screens; each passes its own PUT …/hold mutation.
import { lazy, Suspense, useState, type ReactElement } from 'react';
import type { HoldBody, HoldDto } from '@earshot/contracts';
import { useFeatureTranslation } from '../../i18n/feature';
import { buttonClass } from '../../components/form-field';
import { catalogue } from './hold-dialog-i18n';

const HoldDialog = lazy(() => import('./hold-dialog'));

/** "Held", with the reason (when known) as its text for screen readers and its tooltip. */
export function HoldBadge({ reason, at }: { reason?: string | null; at?: string | null }): ReactElement {
  const { t, i18n } = useFeatureTranslation(catalogue);
  const title = reason
    ? at
      ? t('hold.badgeSince', { reason, date: new Date(at).toLocaleDateString(i18n.language) })
      : t('hold.badgeTitle', { reason })
    : undefined;
  return (
    <span
      title={title}
      data-testid="hold-badge"
      className="inline-flex items-center gap-1 rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900 dark:bg-amber-900/50 dark:text-amber-100"
    >
      <span aria-hidden="true">⚖</span>
      {t('hold.badge')}
      {title ? <span className="sr-only">{`: ${title}`}</span> : null}
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
