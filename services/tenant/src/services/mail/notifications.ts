import type { EventOf, MailPreferencesBody, MailPreferencesDto } from '@earshot/contracts';
import type { Db, Identity, ServiceContext } from '@earshot/kit';
import * as repo from '../../repositories/mail';
import type { MailService } from './mail';

/**
 * The mails the console's own events cause: two-step sign-in turned on or off (always: a security
 * notice), and a recording's transcript ready or failed (for its uploader, when they asked for it).
 * Recipients and uploaders come from projections of the auth and file services' events.
 */
export class MailNotifications {
  constructor(private readonly ctx: ServiceContext, private readonly mail: MailService) {}

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
    if (!after) return repo.removeRecipient(tx, event.data.id);
    await repo.upsertRecipient(tx, { userId: event.data.id, companyId: after.companyId, email: after.email, firstName: after.firstName, lastName: after.lastName });
  }

  async applyTwoStepChanged(tx: Db, event: EventOf<'user.two_step_changed'>): Promise<void> {
    const person = await repo.findRecipient(tx, event.data.id);
    if (!person) return;
    await this.mail.queue(tx, {
      companyId: person.companyId, type: event.data.enabled ? 'two_step_enabled' : 'two_step_disabled', to: person.email,
      variables: { ...this.personVariables(person), date: event.occurredAt.slice(0, 10) },
    });
  }

  async applyFileUploaded(tx: Db, event: EventOf<'file.uploaded'>): Promise<void> {
    await repo.upsertRecording(tx, { fileId: event.data.id, companyId: event.companyId, uploadedBy: event.data.uploadedBy, name: event.data.originalName });
  }

  async applyFileDeleted(tx: Db, event: EventOf<'file.deleted'>): Promise<void> {
    await repo.removeRecording(tx, event.data.id);
  }

  async applyCompleted(tx: Db, event: EventOf<'transcript.completed'>): Promise<void> {
    await this.notifyUploader(tx, event.data.fileId, 'transcriptReady', {});
  }

  async applyStatusChanged(tx: Db, event: EventOf<'transcript.status_changed'>): Promise<void> {
    if (event.data.status !== 'failed') return;
    await this.notifyUploader(tx, event.data.fileId, 'transcriptionFailed', { reason: event.data.reason ?? '' });
  }

  private async notifyUploader(tx: Db, fileId: string, wants: keyof MailPreferencesDto, extra: Record<string, string>): Promise<void> {
    const recording = await repo.findRecording(tx, fileId);
    const person = recording?.uploadedBy ? await repo.findRecipient(tx, recording.uploadedBy) : undefined;
    if (!recording || !person || !(await repo.findPreferences(tx, person.userId))[wants]) return;
    const domain = recording.companyId ? ((await repo.companyBranding(tx, recording.companyId))?.domain ?? null) : null;
    await this.mail.queue(tx, {
      companyId: recording.companyId, type: wants === 'transcriptReady' ? 'transcript_ready' : 'transcription_failed', to: person.email,
      variables: { ...this.personVariables(person), 'recording.name': recording.name, link: `${this.mail.linkBase(domain)}/transcripts/${encodeURIComponent(fileId)}`, ...extra },
    });
  }

  private personVariables(person: repo.RecipientLike) {
    return { 'user.firstName': person.firstName, 'user.lastName': person.lastName, 'user.email': person.email };
  }
}
