import { isId } from '@earshot/contracts';
import {
  counted,
  inPages,
  onEraseRequested,
  onExportRequested,
  type ObjectStorage,
  type PageEnd,
  type PrivacyPart,
} from '@earshot/kit';
import { forgetUploader, lockTasksOfPerson, tasksOfPerson } from '../repositories/privacy';
import { removeFeed } from '../repositories/read-models';
import { updateTask } from '../repositories/tasks';
import { toTaskDto, toTaskState } from './tasks';

/**
 * Who made a task whose maker was erased: the nil UUID, which names no member (a task always has a
 * maker, and the API says so), so the task reads as made by someone no longer here.
 */
export const ERASED_CREATOR = '00000000-0000-0000-0000-000000000000';

/**
 * The tasks service's part of a person's export, in their company: the tasks a user
 * made or was given, or the tasks linked to a client contact.
 */
export const tasksExportPart = (storage: ObjectStorage) =>
  onExportRequested('tasks', storage, (tx, subject, companyId): PrivacyPart => {
    const person = subject.kind === 'user' ? { userId: subject.id } : { clientId: subject.id };
    const rows =
      companyId && isId(subject.id)
        ? inPages((after: PageEnd | null, limit) => tasksOfPerson(tx, companyId, person, { after, limit }))
        : [];
    const counts = {};
    return { data: { tasks: counted(counts, 'tasks', rows, toTaskDto) }, counts };
  });

/**
 * The tasks service's part of erasing a person, in their company. Tasks are the
 * company's follow-ups, so they stay, without the person: a user's given tasks lose their
 * assignee, the ones they made their maker (ERASED_CREATOR), a client's tasks their client link;
 * each change is a task.updated like any edit. A user's calendar feed ends, and with recordings
 * kept the calendar's copies of their recordings no longer name them.
 */
export const tasksErasePart = onEraseRequested(
  'tasks',
  async (tx, emit, { subject, companyId, recordings, actor }): Promise<Record<string, number>> => {
    if (!companyId || !isId(subject.id)) return {};
    const userId = subject.kind === 'user' ? subject.id : null;
    const rows = await lockTasksOfPerson(tx, companyId, userId ? { userId } : { clientId: subject.id });
    let unassigned = 0;
    let creatorAnonymised = 0;
    for (const before of rows) {
      const patch = !userId
        ? { clientId: null }
        : {
            ...(before.assigneeId === userId ? { assigneeId: null } : {}),
            ...(before.createdBy === userId ? { createdBy: ERASED_CREATOR } : {}),
          };
      const after = await updateTask(tx, before.id, patch);
      emit({
        type: 'task.updated',
        companyId,
        actor,
        data: { id: after.id, before: toTaskState(before), after: toTaskState(after) },
      });
      if (before.assigneeId === userId) unassigned += 1;
      if (before.createdBy === userId) creatorAnonymised += 1;
    }
    if (userId) {
      await removeFeed(tx, userId);
      if (recordings === 'keep') await forgetUploader(tx, companyId, userId);
      return { unassigned, creatorAnonymised };
    }
    return { clientUnlinked: rows.length };
  },
);
