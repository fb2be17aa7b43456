import type {
  EmailLanguage,
  EventOf,
  MailPreferencesBody,
  MailPreferencesDto,
  NotificationKind,
} from '@earshot/contracts';
import { PRIVATE_COMPANY_TYPE, type Db, type Identity, type ServiceContext } from '@earshot/kit';
import type { CompanyRow, MailMessageRow, PersonRow } from '../../db/schema';
import * as directory from '../../repositories/directory';
import * as repo from '../../repositories/mail';
import { insertNotifications } from '../../repositories/notifications';
import { companyTypes } from '../company-types';
import { mentionedIn } from '../mentions';
import { noticeText, type NoticeKind } from '../notification-texts';
import type { MailQueue, QueueRequest } from './queue';

export const personVariables = (person: Pick<PersonRow, 'firstName' | 'lastName' | 'email'>) => ({
  'user.firstName': person.firstName,
  'user.lastName': person.lastName,
  'user.email': person.email,
});

const fullName = (person: Pick<PersonRow, 'firstName' | 'lastName'> | undefined) =>
  person ? `${person.firstName} ${person.lastName}`.trim() : '';

/**
 * What the console's own events tell people, in the app and by mail: two-step sign-in turned on or
 * off (always mailed: a security notice); a recording's transcript ready (mailed when the uploader
 * asked for it) or failed (a notification, and a mail when asked for); an analysis finished (a
 * notification for whoever ran it); a task assigned or due (a notification and a mail for the
 * assignee). People, companies and uploaders come from read models of the other services' events.
 */
export class MailNotifications {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly mail: MailQueue,
  ) {}

  async preferences(identity: Identity): Promise<MailPreferencesDto> {
    return repo.findPreferences(this.ctx.db, identity.userId);
  }

  async savePreferences(identity: Identity, body: MailPreferencesBody): Promise<MailPreferencesDto> {
    return this.ctx.transact(async (tx) => {
      const next = { ...(await repo.findPreferences(tx, identity.userId)), ...body };
      await repo.savePreferences(tx, identity.userId, next);
      return next;
    });
  }

  async applyUser(tx: Db, event: EventOf<'user.created' | 'user.updated' | 'user.deleted'>): Promise<void> {
    const after = event.type === 'user.deleted' ? null : event.data.after;
    if (!after) return directory.removePerson(tx, event.data.id);
    await directory.upsertPerson(tx, {
      userId: event.data.id,
      companyId: after.companyId,
      role: after.role,
      email: after.email,
      firstName: after.firstName,
      lastName: after.lastName,
    });
  }

  async applyCompany(tx: Db, event: EventOf<'company.created' | 'company.updated'>): Promise<void> {
    const after = event.data.after;
    if (!after) return;
    const known = await directory.findCompany(tx, event.data.id);
    // Fields older events do not carry keep what is known.
    await directory.upsertCompany(tx, {
      id: event.data.id,
      name: after.name,
      domain: after.domain,
      language: after.language ?? known?.language ?? 'en',
      logo: after.logo !== undefined ? after.logo : (known?.logo ?? null),
      theme: after.theme ?? known?.theme ?? {},
    });
  }

  async applyTwoStepChanged(tx: Db, event: EventOf<'user.two_step_changed'>): Promise<void> {
    const person = await directory.findPerson(tx, event.data.id);
    if (!person) return;
    await this.mail.queue(tx, {
      companyId: person.companyId,
      type: event.data.enabled ? 'two_step_enabled' : 'two_step_disabled',
      to: person.email,
      userId: person.userId,
      variables: personVariables(person),
      days: { date: event.occurredAt.slice(0, 10) },
    });
  }

  async applyFileUploaded(tx: Db, event: EventOf<'file.uploaded'>): Promise<void> {
    await repo.upsertRecording(tx, {
      fileId: event.data.id,
      companyId: event.companyId,
      uploadedBy: event.data.uploadedBy,
      name: event.data.originalName,
    });
  }

  async applyFileDeleted(tx: Db, event: EventOf<'file.deleted'>): Promise<void> {
    await repo.removeRecording(tx, event.data.id);
  }

  async applyCompleted(tx: Db, event: EventOf<'transcript.completed'>): Promise<void> {
    const found = await this.uploaderOf(tx, event.data.fileId);
    if (!found || !(await repo.findPreferences(tx, found.person.userId)).transcriptReady) return;
    await this.mail.queue(tx, {
      companyId: found.recording.companyId,
      type: 'transcript_ready',
      to: found.person.email,
      userId: found.person.userId,
      path: `/transcripts/${encodeURIComponent(event.data.fileId)}`,
      variables: { ...personVariables(found.person), 'recording.name': found.recording.name },
    });
  }

  /** A failed transcription: always a notification for the uploader; a mail when they asked for it. */
  async applyStatusChanged(tx: Db, event: EventOf<'transcript.status_changed'>): Promise<void> {
    if (event.data.status !== 'failed') return;
    const found = await this.uploaderOf(tx, event.data.fileId);
    if (!found) return;
    const { person, recording } = found;
    const reason = event.data.reason ?? '';
    const path = `/transcripts/${encodeURIComponent(event.data.fileId)}`;
    const mail = (await repo.findPreferences(tx, person.userId)).transcriptionFailed
      ? await this.mail.queue(tx, {
          companyId: recording.companyId,
          type: 'transcription_failed',
          to: person.email,
          userId: person.userId,
          path,
          variables: { ...personVariables(person), 'recording.name': recording.name, reason },
        })
      : undefined;
    await this.notify(tx, person, 'transcription_failed', { recording: recording.name, reason }, path, mail?.id);
  }

  /** An analysis someone ran finished: they are told in the app (the result is one click away). */
  async applyAnalysisCompleted(tx: Db, event: EventOf<'analysis.completed'>): Promise<void> {
    const { userId, fileId } = event.data;
    const person = userId ? await directory.findPerson(tx, userId) : undefined;
    if (!person) return;
    const recording = await repo.findRecording(tx, fileId);
    await this.notify(
      tx,
      person,
      'analysis_finished',
      { recording: recording?.name ?? fileId },
      `/transcripts/${encodeURIComponent(fileId)}/analysis`,
    );
  }

  /**
   * A task given to someone other than the person who gave it: a notification and a mail. People
   * its title or description newly mentions (`@First Last`) are told in the app, except the one who
   * wrote it and an assignee just told; not in a b2c company, whose tasks are each member's own.
   */
  async applyTaskChanged(tx: Db, event: EventOf<'task.created' | 'task.updated'>): Promise<void> {
    const { after, before } = event.data;
    if (!after) return;
    const assigner = event.actor.id ? await directory.findPerson(tx, event.actor.id) : undefined;
    // Work the platform did on its own (no person behind it) is signed with the platform's name.
    const by = fullName(assigner) || event.actor.email || 'Earshot';
    const path = `/task-list?task=${encodeURIComponent(event.data.id)}`;
    const assigned =
      after.assigneeId && after.assigneeId !== before?.assigneeId && after.assigneeId !== event.actor.id
        ? after.assigneeId
        : null;
    if (assigned) await this.notifyAssigned(tx, assigned, after, by, path);
    // Most edits name nobody: the company's people are read only when the text has an @.
    const text = (state: typeof before) => (state ? `${state.title}\n${state.description}` : '');
    if (
      !text(after).includes('@') ||
      !event.companyId ||
      (await companyTypes.typeOf(tx, event.companyId)) === PRIVATE_COMPANY_TYPE
    )
      return;
    const people = await directory.peopleOf(tx, event.companyId);
    const said = (state: typeof before) => mentionedIn(text(state), people);
    const [now, earlier] = [said(after), said(before)];
    for (const person of people) {
      if (
        !now.has(person.userId) ||
        earlier.has(person.userId) ||
        person.userId === event.actor.id ||
        person.userId === assigned
      )
        continue;
      await this.notify(tx, person, 'mention', { title: after.title, by }, path);
    }
  }

  private async notifyAssigned(
    tx: Db,
    assigneeId: string,
    after: { title: string; dueDate: string | null },
    assignedBy: string,
    path: string,
  ): Promise<void> {
    const person = await directory.findPerson(tx, assigneeId);
    if (!person) return;
    const mail = await this.queueFor(tx, person, {
      type: 'task_assigned',
      path,
      variables: {
        ...personVariables(person),
        'task.title': after.title,
        'task.dueDate': '—',
        assignedBy,
      },
      days: after.dueDate ? { 'task.dueDate': after.dueDate } : {},
    });
    await this.notify(
      tx,
      person,
      'task_assigned',
      { title: after.title, due: after.dueDate ?? '', by: assignedBy },
      path,
      mail.id,
    );
  }

  /** The morning a task is due, its assignee is reminded (the tasks service says so once). */
  async applyFellDue(tx: Db, event: EventOf<'task.fell_due'>): Promise<void> {
    const person = await directory.findPerson(tx, event.data.assigneeId);
    if (!person) return;
    const path = `/task-list?task=${encodeURIComponent(event.data.id)}`;
    const mail = await this.queueFor(tx, person, {
      type: 'task_due',
      path,
      variables: { ...personVariables(person), 'task.title': event.data.title },
      days: { 'task.dueDate': event.data.dueDate },
    });
    await this.notify(tx, person, 'task_due', { title: event.data.title, due: event.data.dueDate }, path, mail.id);
  }

  private async uploaderOf(tx: Db, fileId: string) {
    const recording = await repo.findRecording(tx, fileId);
    const person = recording?.uploadedBy ? await directory.findPerson(tx, recording.uploadedBy) : undefined;
    return recording && person ? { recording, person } : undefined;
  }

  private async notify(
    tx: Db,
    person: PersonRow,
    kind: NoticeKind & NotificationKind,
    values: Record<string, string>,
    link: string,
    /** The mail queued for the same event, which the notification then carries in the inbox. */
    mailId?: string,
  ): Promise<void> {
    const company = await this.companyOf(tx, person);
    await insertNotifications(tx, [
      {
        userId: person.userId,
        companyId: person.companyId,
        kind,
        ...noticeText(company?.language ?? 'en', kind, values),
        link,
        mailId: mailId ?? null,
      },
    ]);
  }

  private async queueFor(
    tx: Db,
    person: PersonRow,
    request: Pick<QueueRequest, 'type' | 'path' | 'variables' | 'days'>,
  ): Promise<MailMessageRow> {
    return this.mail.queue(tx, {
      ...request,
      companyId: person.companyId,
      to: person.email,
      userId: person.userId,
      language: null as EmailLanguage | null,
    });
  }

  private async companyOf(tx: Db, person: PersonRow): Promise<CompanyRow | undefined> {
    return person.companyId ? directory.findCompany(tx, person.companyId) : undefined;
  }
}
