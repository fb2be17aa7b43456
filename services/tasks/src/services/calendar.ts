import { createHash, randomBytes } from 'node:crypto';
import type { CalendarDto, CalendarFeedDto, CalendarQuery } from '@earshot/contracts';
import { companyScope, consoleAddress, notFound, type Identity, type ServiceContext } from '@earshot/kit';
import type { TasksConfig } from '../config';
import * as models from '../repositories/read-models';
import * as repo from '../repositories/tasks';
import { companyTypes } from './company-types';

/** Tasks a feed lists at most (the newest due dates). */
const FEED_TASKS = 2_000;
const DAY_MS = 86_400_000;

const hashOf = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

/**
 * The company calendar (recordings on the day they were uploaded, tasks on their due date) and
 * each person's secret iCalendar feed of their own tasks.
 */
export class CalendarService {
  constructor(private readonly ctx: ServiceContext<TasksConfig>) {}

  async range(identity: Identity, query: CalendarQuery): Promise<CalendarDto> {
    const companyId = companyScope(identity);
    const ownerId = await companyTypes.ownerScope(this.ctx.db, identity);
    const from = new Date(`${query.from}T00:00:00Z`);
    const to = new Date(Date.parse(`${query.to}T00:00:00Z`) + DAY_MS);
    const [recordings, tasks] = await Promise.all([
      models.recordingsBetween(this.ctx.db, companyId, ownerId, from, to),
      repo.tasksDueBetween(this.ctx.db, { companyId, ownerId }, query.from, query.to),
    ]);
    return {
      recordings: recordings.map((r) => ({
        fileId: r.fileId,
        originalName: r.originalName,
        date: r.uploadedAt.toISOString(),
      })),
      tasks: tasks.map((t) => ({
        _id: t.id,
        title: t.title,
        due: t.dueDate!,
        status: t.status,
        assigneeId: t.assigneeId,
        createdBy: t.createdBy,
      })),
    };
  }

  /**
   * A new secret address of the caller's feed: 32 random bytes, of which only the SHA-256 is
   * stored, replacing the one before (whose address stops working at once).
   */
  async newFeed(identity: Identity): Promise<CalendarFeedDto> {
    const token = randomBytes(32).toString('base64url');
    await this.ctx.transact((tx) => models.replaceFeed(tx, identity.userId, identity.companyId, hashOf(token)));
    return { url: `${consoleAddress(this.ctx.config)}/api/calendar/feed/${token}.ics` };
  }

  /** The feed of a token (`<token>.ics`) as iCalendar text: the person's tasks with a due date, as all-day events. */
  async feed(file: string): Promise<string> {
    const userId = await models.feedOwner(this.ctx.db, hashOf(file.replace(/\.ics$/, '')));
    if (!userId) throw notFound('Calendar feed');
    // Loaded when a feed is read: calendar apps poll it now and then, nothing else needs it.
    const { default: ical } = await import('ical-generator');
    const calendar = ical({ name: 'Earshot tasks', prodId: { company: 'Earshot', product: 'Tasks', language: 'EN' } });
    const base = consoleAddress(this.ctx.config);
    for (const task of await repo.tasksOfAssignee(this.ctx.db, userId, FEED_TASKS)) {
      const start = new Date(`${task.dueDate!}T00:00:00Z`);
      calendar.createEvent({
        id: `${task.id}@earshot`,
        start,
        end: new Date(start.getTime() + DAY_MS),
        allDay: true,
        stamp: task.updatedAt,
        summary: task.status === 'done' ? `✓ ${task.title}` : task.title,
        description: task.description || null,
        url: `${base}/task-list?task=${task.id}`,
      });
    }
    return calendar.toString();
  }
}
