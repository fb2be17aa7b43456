// The calendar's entries as the screen places them, and who may move a task.
import type { CalendarDto, TaskStatus } from '@earshot/contracts';
import type { Role } from '@earshot/contracts/constants';
import { localDayOf } from './dates';

export type CalendarRecording = CalendarDto['recordings'][number];
export type CalendarTask = CalendarDto['tasks'][number];

export interface DayEntries {
  recordings: CalendarRecording[];
  tasks: CalendarTask[];
}

export const EMPTY_DAY: DayEntries = { recordings: [], tasks: [] };

/** Entries by day key: tasks on their due day, recordings on the reader's local day, oldest first. */
export function entriesByDay(data: CalendarDto | undefined): Map<string, DayEntries> {
  const days = new Map<string, DayEntries>();
  const at = (key: string) => {
    let day = days.get(key);
    if (!day) days.set(key, (day = { recordings: [], tasks: [] }));
    return day;
  };
  for (const recording of [...(data?.recordings ?? [])].sort((a, b) => a.date.localeCompare(b.date))) {
    const key = localDayOf(recording.date);
    if (key) at(key).recordings.push(recording);
  }
  for (const task of data?.tasks ?? []) at(task.due).tasks.push(task);
  return days;
}

/** The tasks service's rule: the assignee, the creator and administrators edit a task. */
export function mayMove(task: CalendarTask, me: { id: string | null | undefined; role: Role | null }): boolean {
  if (me.role === 'ADMIN' || me.role === 'HOST_ADMIN') return true;
  return Boolean(me.id) && (task.assigneeId === me.id || task.createdBy === me.id);
}

/** Colours by kind, and tasks by status; each entry also carries an icon and its status in words, never colour alone. */
export const ENTRY_STYLE: Record<'recording' | TaskStatus, string> = {
  recording: 'border-sky-300 bg-sky-50 text-sky-900 dark:border-sky-700 dark:bg-sky-950 dark:text-sky-100',
  todo: 'border-amber-300 bg-amber-50 text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100',
  in_progress:
    'border-violet-300 bg-violet-50 text-violet-900 dark:border-violet-700 dark:bg-violet-950 dark:text-violet-100',
  done: 'border-emerald-300 bg-emerald-50 text-emerald-900 dark:border-emerald-700 dark:bg-emerald-950 dark:text-emerald-100',
};
