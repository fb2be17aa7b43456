// The company dialog's "Legal hold" section (HOST_ADMIN): while a company is held nothing of it is
// deleted, the company itself included. The dialog keeps its own copy of the company, so the
// section follows PUT's answer rather than the list.
import { useState, type ReactElement } from 'react';
import type { ActiveHoldDto, HoldDto } from '@earshot/contracts';
import { HoldBadge, HoldToggle } from '../../entities/holds';
import { useFeatureTranslation } from '../../i18n/feature';
import { catalogue } from './hold-i18n';
import { useSetCompanyHoldMutation } from './hold-api';
import type { Company, Notify } from './model';

const inForce = (hold: HoldDto): ActiveHoldDto | null =>
  hold.hold && hold.reason && hold.by && hold.at ? { reason: hold.reason, by: hold.by, at: hold.at } : null;

export function CompanyHold({
  company,
  notify,
  headingId,
}: {
  company: Company;
  notify: Notify;
  headingId: string;
}): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const [setHold] = useSetCompanyHoldMutation();
  const [hold, setCurrent] = useState<ActiveHoldDto | null>(company.hold ?? null);
  return (
    <>
      <h3 id={headingId} className="text-sm font-semibold text-gray-900 dark:text-white">
        {t('companyHold.title')}
      </h3>
      <p className="text-sm text-gray-600 dark:text-gray-400">{t(hold ? 'companyHold.held' : 'companyHold.notHeld')}</p>
      <div className="flex flex-wrap items-center gap-2" data-testid="company-hold">
        {hold ? <HoldBadge reason={hold.reason} at={hold.at} /> : null}
        <HoldToggle
          held={hold !== null}
          name={company.name}
          save={(body) => setHold({ id: company._id, body }).unwrap()}
          onChanged={(answer, message) => {
            setCurrent(inForce(answer));
            notify(true, message);
          }}
        />
      </div>
    </>
  );
}
