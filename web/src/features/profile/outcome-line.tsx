import type { ReactElement } from 'react';
import { Alert } from '../../components/text-field';
import type { Outcome } from './section-card';

export function OutcomeLine({ outcome, testId }: { outcome: Outcome; testId: string }): ReactElement | null {
  return outcome ? (
    <Alert tone={outcome.tone} testId={testId}>
      {outcome.text}
    </Alert>
  ) : null;
}
