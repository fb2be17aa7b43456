import { PassThrough, type Readable } from 'node:stream';
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import {
  ERASE_HOLD_MESSAGES,
  HOLD_MESSAGES,
  PRIVACY_SERVICES,
  isId,
  type PrivacyEraseBody,
  type PrivacyExportBody,
  type PrivacyJobDto,
  type PrivacyQueueDto,
} from '@earshot/contracts';
import {
  actorOf,
  conflict,
  counted,
  forbidden,
  inPages,
  notFound,
  on,
  onEraseRequested,
  onExportRequested,
  type Db,
  type HandlerSpec,
  type Identity,
  type ObjectStorage,
  type PrivacyManifest,
  type PageEnd,
  type PrivacyPart,
} from '@earshot/kit';
import { privacyHolds, type PrivacyJobRow } from '../db/privacy';
import {
  clientCompany,
  eraseClient,
  expiredExports,
  findPrivacyJob,
  forgetZip,
  forgetCompanyPrivacy,
  findUserById,
  forgetClient,
  forgetFile,
  forgetUploader,
  hasAvatar,
  heldRecordings,
  linkFileClient,
  lockAccount,
  recordFile,
  saveClient,
  insertPrivacyJob,
  insertPrivacyPart,
  lockPrivacyJob,
  privacyPartsOf,
  queuePosition,
  sessionsOf,
} from '../repositories/privacy';
import type { AuthBase } from './context';
import { companyQueue, endPrivacyJob, startDueJobs } from './privacy-line';
import { announceEnded, type EndedSessions } from './sessions';
import { checkNotLastAdmin, removeAccount } from './users';

const JOB = 'Privacy job';
const ERASE_SELF = 'You cannot erase your own account: another administrator of your company, or the platform, can';

type Subject = { kind: 'user' | 'client'; id: string; companyId: string | null };

/**
 * 409 naming the hold when one covers what the erasure would remove: the person's company (all of
 * it), the client itself (a client contact is removed), and with `recordings: 'delete'` each of the
 * person's recordings held, or linked to a held client. `details` lists them as {kind, id}.
 */
async function assertNotHeld(tx: Db, subject: Subject, recordings: PrivacyEraseBody['recordings']): Promise<void> {
  const { companyId } = subject;
  if (!companyId) return;
  if (await privacyHolds.holdOn(tx, { companyId }))
    throw conflict(HOLD_MESSAGES.company, [{ kind: 'company', id: companyId }]);
  if (subject.kind === 'client' && (await privacyHolds.holdOn(tx, { companyId, clientId: subject.id }))) {
    throw conflict(HOLD_MESSAGES.clientHeld, [{ kind: 'client', id: subject.id }]);
  }
  if (recordings !== 'delete') return;
  const held = await heldRecordings(
    tx,
    companyId,
    subject.kind === 'user' ? { uploadedBy: subject.id } : { clientId: subject.id },
  );
  if (held.length) throw conflict(ERASE_HOLD_MESSAGES.recordings, held);
}

/** May this caller act on this person's data? ADMIN: their company's; HOST_ADMIN: any; anyone: themself. */
function mayActFor(identity: Identity, person: { id: string; companyId: string | null }): boolean {
  if (identity.role === 'HOST_ADMIN') return true;
  if (person.id === identity.userId) return true;
  return identity.role === 'ADMIN' && person.companyId !== null && person.companyId === identity.companyId;
}

const mayRead = (identity: Identity, job: PrivacyJobRow) =>
  mayActFor(identity, { id: job.subjectKind === 'user' ? job.subjectId : '', companyId: job.companyId });

async function readJson<T>(storage: ObjectStorage, key: string): Promise<T> {
  const chunks: Buffer[] = [];
  for await (const chunk of await storage.get(key)) chunks.push(Buffer.from(chunk as Buffer));
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as T;
}

/**
 * Streams the ZIP into storage: JSON compressed, audio stored as it is (already compressed), each
 * object read as a stream, so a person with hours of calls is never held in memory whole.
 */
async function writeZip(storage: ObjectStorage, zipKey: string, files: PrivacyManifest): Promise<void> {
  const out = new PassThrough();
  const zip = new Zip((error, chunk, final) => {
    if (error) out.destroy(error);
    else {
      out.write(chunk);
      if (final) out.end();
    }
  });
  // Watched from now: a store that fails while the entries are still being read is no unhandled rejection.
  const stored = storage.put(zipKey, out, { contentType: 'application/zip' }).then(
    () => null,
    (error: unknown) => error,
  );
  try {
    for (const file of files) {
      const entry = file.name.endsWith('.json')
        ? new ZipDeflate(file.name, { level: 6 })
        : new ZipPassThrough(file.name);
      zip.add(entry);
      for await (const chunk of await storage.get(file.key)) entry.push(chunk as Buffer);
      entry.push(new Uint8Array(0), true);
    }
    zip.end();
  } catch (error) {
    out.destroy(error as Error);
  }
  const failed = await stored;
  if (failed) throw failed;
}

/**
 * The coordinator of a person's data: it records a job and, when the job's turn in its company's
 * line has come (privacy-line.ts), asks every service for its part by an event, then assembles
 * the ZIP when each has answered. It lives in auth because auth
 * knows who a user is and which company they belong to (who may ask), and it owns the account.
 */
export class PrivacyJobs {
  constructor(
    private readonly ctx: AuthBase,
    private readonly storage: ObjectStorage,
  ) {}

  /** The job waits in its company's line; it starts (and every service is asked) at once when its turn has come. */
  async requestExport(identity: Identity, body: PrivacyExportBody, ip?: string): Promise<{ jobId: string }> {
    return this.ctx.transact(async (tx, emit) => {
      const subject = await this.subjectOf(tx, identity, body);
      const job = await insertPrivacyJob(tx, {
        kind: 'export',
        subjectKind: subject.kind,
        subjectId: subject.id,
        companyId: subject.companyId,
        requestedBy: identity.userId,
        actor: actorOf(identity, ip),
      });
      await startDueJobs(tx, emit, this.ctx.config.PRIVACY_COMPANY_CONCURRENCY);
      return { jobId: job.id };
    });
  }

  /**
   * Erasing a person: the route lets only ADMIN and HOST_ADMIN in, and nobody erases their own
   * account here (an administrator's own erasure is another administrator's act, like deleting an
   * account). Refused at once (409) when a legal hold covers anything it would remove, and when it
   * would take away a company's last administrator; otherwise every service erases its part, when
   * the job's turn has come (as an export's).
   */
  async requestErase(identity: Identity, body: PrivacyEraseBody, ip?: string): Promise<{ jobId: string }> {
    return this.ctx.transact(async (tx, emit) => {
      const subject = await this.subjectOf(tx, identity, body);
      if (subject.kind === 'user') {
        if (subject.id === identity.userId) throw forbidden(ERASE_SELF);
        const account = await lockAccount(tx, subject.id, subject.companyId);
        if (!account) throw notFound('User');
        await checkNotLastAdmin(tx, account, null);
      }
      await assertNotHeld(tx, subject, body.recordings);
      const job = await insertPrivacyJob(tx, {
        kind: 'erase',
        subjectKind: subject.kind,
        subjectId: subject.id,
        companyId: subject.companyId,
        requestedBy: identity.userId,
        actor: actorOf(identity, ip),
        recordings: body.recordings,
      });
      await startDueJobs(tx, emit, this.ctx.config.PRIVACY_COMPANY_CONCURRENCY);
      return { jobId: job.id };
    });
  }

  /** Whose data, and their company; 404 when the caller may not ask for it (or there is no such person). */
  private async subjectOf(
    tx: Db,
    identity: Identity,
    body: Pick<PrivacyExportBody, 'userId' | 'clientId'>,
  ): Promise<{ kind: 'user' | 'client'; id: string; companyId: string | null }> {
    if (body.userId) {
      const user = await findUserById(tx, body.userId);
      if (!user || !mayActFor(identity, user)) throw notFound('User');
      return { kind: 'user', id: user.id, companyId: user.companyId };
    }
    // A client contact is never a caller: only their company's ADMIN, or HOST_ADMIN, may ask.
    const clientId = body.clientId!;
    const companyId = await clientCompany(tx, clientId);
    if (!companyId || !mayActFor(identity, { id: '', companyId })) throw notFound('Client');
    return { kind: 'client', id: clientId, companyId };
  }

  async job(identity: Identity, jobId: string): Promise<PrivacyJobDto> {
    const job = await findPrivacyJob(this.ctx.db, jobId);
    if (!job || !mayRead(identity, job)) throw notFound(JOB);
    const parts = await privacyPartsOf(this.ctx.db, job.id);
    const done = new Set(parts.map((part) => part.service));
    return {
      jobId: job.id,
      kind: job.kind,
      subject: { kind: job.subjectKind, id: job.subjectId },
      status: job.status,
      parts: parts.map(({ service, counts }) => ({ service, counts })),
      pendingServices: PRIVACY_SERVICES.filter((service) => !done.has(service)),
      download: job.zipKey ? `/api/privacy/jobs/${job.id}/download` : null,
      createdAt: job.createdAt.toISOString(),
      finishedAt: job.finishedAt?.toISOString() ?? null,
      position: job.status === 'queued' ? await queuePosition(this.ctx.db, job.id) : null,
    };
  }

  async queue(identity: Identity, input: { companyId?: string }): Promise<PrivacyQueueDto> {
    return companyQueue(this.ctx, identity, input);
  }

  async download(identity: Identity, jobId: string): Promise<{ stream: Readable; filename: string }> {
    const job = await findPrivacyJob(this.ctx.db, jobId);
    if (!job || !mayRead(identity, job) || !job.zipKey) throw notFound(JOB);
    return { stream: await this.storage.get(job.zipKey), filename: `earshot-${job.subjectKind}-${job.subjectId}.zip` };
  }
}

/** How long a finished export's ZIP can be downloaded before it is removed from storage. */
export const EXPORT_KEPT_DAYS = 7;

/**
 * Removes the ZIPs that are due: EXPORT_KEPT_DAYS after the export finished, or at once once the
 * person's company is deleted. A ZIP is a readable copy of the person's data (audio decrypted
 * included), so it must not stay in storage after it served its purpose. The object goes first,
 * then the row forgets it: a crash between the two leaves a row that the next sweep clears.
 * Returns how many went.
 */
export async function expireExports(db: Db, storage: ObjectStorage, now: Date): Promise<number> {
  const before = new Date(now.getTime() - EXPORT_KEPT_DAYS * 24 * 60 * 60_000);
  let removed = 0;
  for (;;) {
    const due = await expiredExports(db, before, 100);
    for (const { id, zipKey } of due) {
      await storage.delete(zipKey);
      await forgetZip(db, id);
    }
    removed += due.length;
    if (due.length < 100) return removed;
  }
}

/** Auth's own part of an export: the account (never a secret) and its sessions. */
export const authExportPart = (storage: ObjectStorage) =>
  onExportRequested('auth', storage, async (tx, subject): Promise<PrivacyPart> => {
    if (subject.kind !== 'user') return { data: {}, counts: {} };
    const user = await findUserById(tx, subject.id);
    if (!user) return { data: { profile: null }, counts: { profile: 0, sessions: 0 } };
    const profile = {
      id: user.id,
      companyId: user.companyId,
      email: user.email,
      firstName: user.firstName,
      lastName: user.lastName,
      role: user.role,
      status: user.status,
      language: user.language,
      twoStepEnabled: user.twoStepEnabled,
      lastSignInAt: user.lastSignInAt,
      createdAt: user.createdAt,
      updatedAt: user.updatedAt,
    };
    const counts = { profile: 1 };
    const sessions = inPages((after: PageEnd | null, limit) => sessionsOf(tx, user.id, { after, limit }));
    return {
      data: {
        profile,
        sessions: counted(counts, 'sessions', sessions, ({ id, userAgent, address, createdAt, lastSeenAt }) => ({
          id,
          userAgent,
          address,
          createdAt,
          lastSeenAt,
        })),
      },
      counts,
    };
  });

/**
 * A service's part arrived: recorded once; when every service has answered, the ZIP is written
 * (each part's files under their names) and the company's next job starts. Once that commits, the parts' own JSON objects go, so the
 * person's data is held once more in storage (the ZIP), not twice; audio objects are the
 * recordings themselves and stay. (Removed after the commit: a retried handler still finds them.)
 */
export function assembleExport(ctx: AuthBase, storage: ObjectStorage): HandlerSpec {
  const leftovers = new Map<string, string[]>();
  return on(
    'privacy.part_ready',
    async (event, tx: Db, emit) => {
      const { jobId, service, manifest, counts } = event.data;
      const job = await lockPrivacyJob(tx, jobId);
      if (!job || job.status !== 'running' || job.kind !== 'export') return;
      await insertPrivacyPart(tx, { jobId, service, manifest, counts });
      const parts = await privacyPartsOf(tx, jobId);
      const answered = new Set(parts.map((part) => part.service));
      if (!PRIVACY_SERVICES.every((name) => answered.has(name))) return;
      const keys = parts.map((part) => part.manifest ?? '');
      const manifests = await Promise.all(keys.map((key) => readJson<PrivacyManifest>(storage, key)));
      const zipKey = `privacy/${jobId}/export.zip`;
      await writeZip(storage, zipKey, manifests.flat());
      await endPrivacyJob(tx, emit, ctx.config.PRIVACY_COMPANY_CONCURRENCY, jobId, zipKey);
      const own = `privacy/${jobId}/`;
      leftovers.set(
        event.id,
        [...keys, ...manifests.flat().map((file) => file.key)].filter((key) => key.startsWith(own)),
      );
    },
    {
      afterCommit: (event) => {
        const keys = leftovers.get(event.id) ?? [];
        leftovers.delete(event.id);
        for (const key of keys) {
          storage
            .delete(key)
            .catch((error: unknown) =>
              ctx.logger.warn({ err: error, key }, 'could not remove an export part after its ZIP was written'),
            );
        }
      },
    },
  );
}

/**
 * Auth's part of erasing a person. A user: their account through the one removal path (sessions
 * ended, picture and tokens cascade, user.deleted for every other service); with recordings kept,
 * the uploader is forgotten here too. A client contact: only the row saying whose client it was
 * (the tenant removes the client). Sessions are refused in this process once the removal commits.
 */
export function authErasePart(ctx: AuthBase): HandlerSpec {
  const ended = new Map<string, EndedSessions>();
  return onEraseRequested(
    'auth',
    async (tx, emit, { jobId, subject, companyId, recordings, actor }): Promise<Record<string, number>> => {
      // A hold placed while the erasure waited its company's turn keeps what it covers, as the
      // services holding recordings keep theirs: the check of the request is not enough any more.
      const clientId = subject.kind === 'client' ? subject.id : null;
      if (companyId && (await privacyHolds.holdOn(tx, { companyId, clientId })))
        return subject.kind === 'client' ? { clients: 0, held: 1 } : { accounts: 0, held: 1 };
      if (subject.kind === 'client')
        return { clients: companyId && isId(subject.id) ? await eraseClient(tx, companyId, subject.id) : 0 };
      const uploadsKept = recordings === 'keep' && companyId ? await forgetUploader(tx, companyId, subject.id) : 0;
      const account = isId(subject.id) ? await lockAccount(tx, subject.id, companyId) : null;
      if (!account) return { accounts: 0, avatars: 0, sessions: 0, uploadsKept };
      const avatars = (await hasAvatar(tx, account.id)) ? 1 : 0;
      const sessions = await removeAccount(ctx, tx, emit, account, actor);
      ended.set(jobId, sessions);
      return { accounts: 1, avatars, sessions: sessions.sessionIds.length, uploadsKept };
    },
    {
      afterCommit: (event) => {
        announceEnded(ctx, ended.get(event.data.jobId));
        ended.delete(event.data.jobId);
      },
    },
  );
}

/**
 * A service's part of an erasure arrived: recorded once; when every service has answered, the job
 * is done (the company's next job starts) and privacy.erased carries the whole report (so the
 * audit log keeps who asked, and what each service removed, after the person is gone).
 */
export const finishErase = (ctx: AuthBase): HandlerSpec =>
  on('privacy.part_erased', async (event, tx, emit) => {
    const { jobId, service, counts } = event.data;
    const job = await lockPrivacyJob(tx, jobId);
    if (!job || job.status !== 'running' || job.kind !== 'erase') return;
    await insertPrivacyPart(tx, { jobId, service, manifest: null, counts });
    const parts = await privacyPartsOf(tx, jobId);
    const answered = new Set(parts.map((part) => part.service));
    if (!PRIVACY_SERVICES.every((name) => answered.has(name))) return;
    await endPrivacyJob(tx, emit, ctx.config.PRIVACY_COMPANY_CONCURRENCY, jobId, null);
    emit({
      type: 'privacy.erased',
      companyId: job.companyId,
      actor: event.actor,
      data: {
        jobId,
        subject: { kind: job.subjectKind, id: job.subjectId },
        recordings: job.recordings ?? 'keep',
        parts: Object.fromEntries(parts.map((part) => [part.service, part.counts])),
      },
    });
  });

/**
 * Each recording's uploader and client, and the legal holds, kept from the file, transcription and
 * tenant services' events: what an erasure is refused for (see assertNotHeld).
 */
export const recordingsAndHolds: HandlerSpec[] = [
  on('file.uploaded', async ({ companyId, data }, tx) => {
    if (!isId(data.id) || !isId(companyId)) return;
    await recordFile(tx, {
      fileId: data.id,
      companyId,
      uploadedBy: isId(data.uploadedBy) ? data.uploadedBy : null,
      clientId: isId(data.clientId) ? data.clientId : null,
    });
  }),
  on('transcript.client_linked', async ({ data }, tx) => {
    if (isId(data.fileId) && (data.after.clientId === null || isId(data.after.clientId)))
      await linkFileClient(tx, data.fileId, data.after.clientId);
  }),
  on('file.deleted', async ({ data }, tx) => {
    if (isId(data.id)) await forgetFile(tx, data.id);
  }),
  on('company.deleted', async ({ data }, tx) => {
    if (isId(data.id)) await forgetCompanyPrivacy(tx, data.id);
  }),
  ...privacyHolds.handlers(),
];

/** Which company each client belongs to, kept from the tenant's client events. */
export const clientCompanies: HandlerSpec[] = [
  ...(['client.created', 'client.updated'] as const).map((type) =>
    on(type, async (event, tx) => {
      if (event.companyId && event.data.after) await saveClient(tx, event.data.id, event.companyId);
    }),
  ),
  on('client.deleted', async (event, tx) => forgetClient(tx, event.data.id)),
];
