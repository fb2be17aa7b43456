import { isId, type EventOf, type FormatFieldDto } from '@earshot/contracts';
import { on, type Db, type HandlerSpec } from '@earshot/kit';
import { eq } from 'drizzle-orm';
import { analysisRuns } from '../db/schema';
import * as repo from '../repositories/dashboards';
import { findVersion } from '../repositories/prompts';

/**
 * The dashboards' read model (README "Dashboards"), kept from events after the transcript copy
 * (services/transcripts.ts) has applied them in the same transaction: a call's row is computed
 * again from that copy, its speakers and the members' names whenever one of its facts changes.
 */

/** The channel labels transcription gives a two-channel call: left = agent, right = customer. */
const CHANNEL_ROLES: Record<string, 'agent' | 'customer'> = { Agent: 'agent', Customer: 'customer' };

const utcDay = (at: Date) => at.toISOString().slice(0, 10);

/** A call's row from the transcript copy (none when the file is gone). */
export async function refreshCall(tx: Db, fileId: string): Promise<void> {
  if (!isId(fileId)) return;
  const t = await repo.transcriptOf(tx, fileId);
  const at = t?.recordedAt ?? t?.completedAt;
  if (!t || !at) return repo.removeCall(tx, fileId);
  const speakers = await repo.speakersOf(tx, fileId);
  const metrics = t.metrics;
  const talkOf = (name: string | undefined) => metrics?.speakers.find((s) => s.speakerId === name)?.talkTime ?? 0;
  const agent = speakers.find((s) => s.role === 'agent');
  const customer = speakers.find((s) => s.role === 'customer');
  const stereo = metrics && agent && customer;
  // The agent: the member whose full name the agent speaker (any speaker on other calls) was renamed to, else the uploader.
  const candidates = agent ? [agent.name] : speakers.map((s) => s.name);
  const members = await repo.membersNamed(tx, t.companyId, candidates);
  const named = candidates.map((n) => members.get(n.trim().toLowerCase())).find(Boolean);
  await repo.saveCall(tx, {
    fileId,
    companyId: t.companyId,
    fileName: t.fileName,
    at,
    day: utcDay(at),
    seconds: t.completedAt ? (metrics?.duration ?? t.duration) : null,
    uploadedBy: t.uploadedBy,
    agentId: named ?? t.uploadedBy,
    clientId: t.clientId,
    agentTalk: stereo ? talkOf(agent.name) : null,
    customerTalk: stereo ? talkOf(customer.name) : null,
    talk: metrics ? metrics.speakers.reduce((n, s) => n + s.talkTime, 0) : null,
    silence: metrics?.silence.total ?? null,
    overlaps: metrics?.overlaps.count ?? null,
    words: metrics ? metrics.speakers.reduce((n, s) => n + s.words, 0) : null,
  });
}

/**
 * The speakers of a transcript, whole. Roles are given once, when a speaker is first seen: a call
 * whose two speakers carry the channel labels (Agent, Customer) is a stereo call; a rename later
 * keeps the role with the speaker's id.
 */
async function applySpeakers(tx: Db, event: EventOf<'transcript.speakers_changed'>): Promise<void> {
  const { fileId, speakers } = event.data;
  if (!isId(fileId)) return;
  const labelled =
    speakers.length === 2 &&
    new Set(speakers.map((s) => s.name)).size === 2 &&
    speakers.every((s) => CHANNEL_ROLES[s.name]);
  await repo.saveSpeakers(
    tx,
    fileId,
    speakers.map((s) => ({ speakerId: s.speakerId, name: s.name, role: labelled ? CHANNEL_ROLES[s.name]! : null })),
  );
  await refreshCall(tx, fileId);
}

const SCORED_TYPES = new Set<FormatFieldDto['type']>(['integer', 'custom', 'boolean']);

/** A completed run's integer, option and boolean answers, dated by its call's day. */
async function applyAnalysisCompleted(tx: Db, event: EventOf<'analysis.completed'>): Promise<void> {
  const { id, fileId, promptId, promptVersion } = event.data;
  if (!isId(id) || !isId(fileId)) return;
  const [[run], call, version] = await Promise.all([
    tx.select().from(analysisRuns).where(eq(analysisRuns.id, id)),
    repo.callOf(tx, fileId),
    findVersion(tx, promptId, promptVersion),
  ]);
  if (!run || run.status !== 'completed' || !run.result || !call || !version) return;
  const result = run.result;
  const rows = version.expectedFormat
    .filter((f) => SCORED_TYPES.has(f.type) && f.name in result)
    .map((f): repo.ScoreRow => {
      const value = result[f.name];
      return {
        fileId,
        promptId,
        field: f.name,
        runId: id,
        companyId: call.companyId,
        day: call.day,
        clientId: call.clientId,
        finishedAt: run.finishedAt ?? new Date(event.occurredAt),
        intValue: f.type === 'integer' && typeof value === 'number' ? Math.round(value) : null,
        optionValue: f.type === 'custom' && typeof value === 'string' ? value : null,
        boolValue: f.type === 'boolean' && typeof value === 'boolean' ? value : null,
      };
    });
  await repo.saveScores(tx, rows);
}

async function applyTask(tx: Db, event: EventOf<'task.created' | 'task.updated' | 'task.deleted'>): Promise<void> {
  const { id, after } = event.data;
  if (!isId(id)) return;
  if (!after || event.type === 'task.deleted' || !isId(event.companyId)) return repo.removeTask(tx, id);
  await repo.saveTask(tx, {
    taskId: id,
    companyId: event.companyId,
    clientId: isId(after.clientId) ? after.clientId : null,
    open: after.status !== 'done',
  });
}

async function applyUser(tx: Db, event: EventOf<'user.created' | 'user.updated' | 'user.deleted'>): Promise<void> {
  const state = event.data.after ?? event.data.before;
  if (!state) return;
  await repo.saveMember(tx, {
    userId: event.data.id,
    companyId: isId(state.companyId) ? state.companyId : null,
    name: `${state.firstName} ${state.lastName}`.trim(),
    deleted: event.type === 'user.deleted',
  });
}

async function applyClient(
  tx: Db,
  event: EventOf<'client.created' | 'client.updated' | 'client.deleted'>,
): Promise<void> {
  const state = event.data.after ?? event.data.before;
  if (state && isId(event.data.id))
    await repo.saveClientOrganisation(tx, {
      clientId: event.data.id,
      organisation: state.organisation,
      updatedAt: new Date(event.occurredAt),
    });
}

/** Every file and transcript fact that changes a call's row. */
const CALL_EVENTS = [
  'file.uploaded',
  'transcript.text_published',
  'transcript.word_edited',
  'transcript.segments_changed',
  'transcript.client_linked',
  'transcript.deleted',
  'file.deleted',
] as const;

const fileOf = (event: EventOf<(typeof CALL_EVENTS)[number]>): string =>
  'fileId' in event.data ? event.data.fileId : event.data.id;

/** Registered after the transcript copy's handlers: they run after it, in the same transaction. */
export function dashboardHandlers(): HandlerSpec[] {
  return [
    ...CALL_EVENTS.map((type) => on(type, (event, tx) => refreshCall(tx, fileOf(event)))),
    // A new transcript's speakers come after it (transcript.speakers_changed): its roles are learnt again.
    on('transcript.completed', async (event, tx) => {
      if (!isId(event.data.fileId)) return;
      await repo.forgetSpeakers(tx, event.data.fileId);
      await refreshCall(tx, event.data.fileId);
    }),
    on('transcript.speakers_changed', (event, tx) => applySpeakers(tx, event)),
    on('file.tags_changed', (event, tx) =>
      isId(event.data.id) ? repo.setTags(tx, event.data.id, [...new Set(event.data.after.tags)]) : Promise.resolve(),
    ),
    on('analysis.completed', (event, tx) => applyAnalysisCompleted(tx, event)),
    ...(['task.created', 'task.updated', 'task.deleted'] as const).map((type) =>
      on(type, (event, tx) => applyTask(tx, event), { entity: (event) => event.data.id }),
    ),
    ...(['user.created', 'user.updated', 'user.deleted'] as const).map((type) =>
      on(type, (event, tx) => applyUser(tx, event), { entity: (event) => event.data.id }),
    ),
    ...(['client.created', 'client.updated', 'client.deleted'] as const).map((type) =>
      on(type, (event, tx) => applyClient(tx, event)),
    ),
  ];
}
