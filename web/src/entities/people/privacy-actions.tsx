// "Export data" and "Erase…" for a person, for those who may: HOST_ADMIN, and a
// company's ADMIN for their company's people (the server answers 404 for anyone else's). The users
// and clients pages add the entries to a row's menu, or the buttons to a profile, and mount
// `dialog` once; the dialog is a lazy chunk.
import { lazy, Suspense, useState, type ReactElement } from 'react';
import { useFeatureTranslation } from '../../i18n/feature';
import { privacyApi, type PrivacyPerson } from './privacy-api';
import { useAppDispatch, useAppSelector } from '../../lib/store';
import { roleOf } from '../../lib/stored-user';
import type { MenuEntry } from '../../components/dropdown-menu';
import { buttonClass } from '../../components/form-field';
import type { PrivacyAction } from './privacy-dialog';
import { catalogue } from './privacy-i18n';

const PrivacyDialog = lazy(() => import('./privacy-dialog'));

export function usePrivacyActions({ onErased }: { onErased?: (person: PrivacyPerson) => void } = {}) {
  const { t } = useFeatureTranslation(catalogue);
  const role = useAppSelector((state) => roleOf(state.session.user));
  const dispatch = useAppDispatch();
  const allowed = role === 'ADMIN' || role === 'HOST_ADMIN';
  const [open, setOpen] = useState<{ action: PrivacyAction; person: PrivacyPerson } | null>(null);

  const close = (erased: boolean) => {
    const person = open?.person;
    setOpen(null);
    if (!erased || !person) return;
    // Read again once the report is read: the person leaves the lists, their recordings change.
    dispatch(privacyApi.util.invalidateTags(['Users', 'Clients', 'Files']));
    onErased?.(person);
  };

  const entries = (person: PrivacyPerson): MenuEntry[] =>
    allowed
      ? [
          {
            key: 'privacy-export',
            label: t('privacy.export.action'),
            onSelect: () => setOpen({ action: 'export', person }),
            testId: 'privacy-export-action',
          },
          {
            key: 'privacy-erase',
            label: t('privacy.erase.action'),
            onSelect: () => setOpen({ action: 'erase', person }),
            testId: 'privacy-erase-action',
          },
        ]
      : [];

  const dialog = open ? (
    <Suspense fallback={null}>
      <PrivacyDialog action={open.action} person={open.person} onClose={close} />
    </Suspense>
  ) : null;

  return {
    allowed,
    entries,
    open: (action: PrivacyAction, person: PrivacyPerson) => setOpen({ action, person }),
    dialog,
  };
}

/** The same two actions as buttons (a client's profile), with their dialog. */
export function PrivacyButtons({
  person,
  onErased,
}: {
  person: PrivacyPerson;
  onErased?: (person: PrivacyPerson) => void;
}): ReactElement | null {
  const { t } = useFeatureTranslation(catalogue);
  const privacy = usePrivacyActions({ onErased });
  if (!privacy.allowed) return null;
  return (
    <>
      <button
        type="button"
        className={buttonClass.secondary}
        onClick={() => privacy.open('export', person)}
        data-testid="privacy-export-action"
      >
        {t('privacy.export.action')}
      </button>
      <button
        type="button"
        className={buttonClass.secondary}
        onClick={() => privacy.open('erase', person)}
        data-testid="privacy-erase-action"
      >
        {t('privacy.erase.action')}
      </button>
      {privacy.dialog}
    </>
  );
}
