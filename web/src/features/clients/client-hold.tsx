// The client profile's legal hold: the "Held" badge with its reason for whoever reads the client,
// the place/lift button for those who may (HOST_ADMIN, the company's ADMIN). A held client's
// recordings are held with it.
import type { ReactElement } from 'react';
import type { ClientDto } from '@earshot/contracts';
import { HoldBadge, HoldToggle } from '../../entities/holds';
import type { Toast } from '../../components/toast';
import { useAppSelector } from '../../lib/store';
import { roleOf } from '../../lib/stored-user';
import { useSetClientHoldMutation } from './hold-api';

export function ClientHold({
  client,
  notify,
}: {
  client: ClientDto;
  notify: (toast: Omit<Toast, 'id'>) => void;
}): ReactElement | null {
  const role = useAppSelector((state) => roleOf(state.session.user));
  const mayHold = role === 'HOST_ADMIN' || role === 'ADMIN';
  const [setHold] = useSetClientHoldMutation();
  const hold = client.hold ?? null;
  if (!hold && !mayHold) return null;
  return (
    <div className="flex flex-wrap items-center gap-2" data-testid="client-hold">
      {hold ? <HoldBadge reason={hold.reason} at={hold.at} /> : null}
      {mayHold ? (
        <HoldToggle
          held={hold !== null}
          name={client.name}
          save={(body) => setHold({ id: client._id, body }).unwrap()}
          onChanged={(_hold, message) => notify({ kind: 'success', title: message })}
        />
      ) : null}
    </div>
  );
}
