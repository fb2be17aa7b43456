// The transcript viewer's legal hold: a "Held" badge for everyone who opens a held recording, and
// the place/lift button for those who may (HOST_ADMIN, the company's ADMIN). The file answers
// whether it is held, why and since when; after a change PUT's answer shows until it is read again.
import { useState, type ReactElement } from 'react';
import type { HoldDto } from '@earshot/contracts';
import { HoldBadge, HoldToggle } from './hold-control';
import { useAppSelector } from '../../lib/store';
import { roleOf } from '../../lib/stored-user';
import { useRecordingFileQuery, useSetRecordingHoldMutation } from './recording-hold-api';

export function RecordingHold({
  fileId,
  name,
  onChanged,
}: {
  fileId: string;
  name: string;
  onChanged: (message: string) => void;
}): ReactElement | null {
  const role = useAppSelector((state) => roleOf(state.session.user));
  const mayHold = role === 'HOST_ADMIN' || role === 'ADMIN';
  const file = useRecordingFileQuery(fileId);
  const [setHold] = useSetRecordingHoldMutation();
  const [last, setLast] = useState<HoldDto | null>(null);
  if (!file.data) return null;
  const held = file.data.hold ?? false;
  if (!held && !mayHold) return null;
  return (
    <div className="flex flex-wrap items-center gap-2" data-testid="recording-hold">
      {held ? (
        <HoldBadge
          reason={last?.hold ? last.reason : file.data.holdReason}
          at={last?.hold ? last.at : file.data.holdAt}
        />
      ) : null}
      {mayHold ? (
        <HoldToggle
          held={held}
          name={name}
          save={(body) => setHold({ id: fileId, body }).unwrap()}
          onChanged={(hold, message) => {
            setLast(hold);
            onChanged(message);
          }}
        />
      ) : null}
    </div>
  );
}
