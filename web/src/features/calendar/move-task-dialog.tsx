// The keyboard's way to reschedule: a date field instead of a drag.
import { useState, type FormEvent, type ReactElement } from 'react';
import { DialogButtons, FormDialog } from '../../components/form-dialog';
import { FormField } from '../../components/form-field';
import { useFeatureTranslation } from '../../i18n/feature';
import { parseDay } from './dates';
import { catalogue } from './i18n';
import type { CalendarTask } from './model';

export function MoveTaskDialog({
  task,
  onClose,
  onMove,
}: {
  task: CalendarTask;
  onClose: () => void;
  onMove: (day: string) => void;
}): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const [day, setDay] = useState(task.due);
  const valid = parseDay(day) !== null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!valid) return;
    if (day === task.due) onClose();
    else onMove(day);
  };
  return (
    <FormDialog
      title={t('calendarPage.moveTitle', { title: task.title })}
      onClose={onClose}
      testId="calendar-move-dialog"
    >
      <form onSubmit={submit} noValidate>
        <FormField label={t('calendarPage.newDate')}>
          <input
            type="date"
            value={day}
            onChange={(event) => setDay(event.target.value)}
            required
            autoFocus
            data-testid="calendar-move-date"
          />
        </FormField>
        <DialogButtons
          cancelLabel={t('calendarPage.cancel')}
          submitLabel={t('calendarPage.save')}
          busy={!valid}
          onCancel={onClose}
        />
      </form>
    </FormDialog>
  );
}
