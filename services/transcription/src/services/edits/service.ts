import { randomBytes, randomUUID } from 'node:crypto';
import {
  isId,
  redactedField,
  speakerName,
  textParts,
  type KnownPerson,
  type RedactedCount,
  type ReplaceAnswer,
  type SpeakerInfo,
  type SpeakerSegment,
  type TranscriptEditItem,
  type TranscriptEditsPage,
  type TranscriptPatch,
  type TranscriptSegmentFact,
  type TranscriptSpeakers,
  type TranscriptUndoStack,
} from '@earshot/contracts';
import {
  actorOf,
  badRequest,
  conflict,
  notFound,
  type Db,
  type Identity,
  type NewEvent,
  type ServiceContext,
} from '@earshot/kit';
import type { TranscriptionConfig } from '../../config';
import * as editsRepo from '../../repositories/edits';
import type { EditTarget } from '../../repositories/edits';
import type { EditRow } from '../../db/schema';
import * as peopleRepo from '../../repositories/people';
import { findByFile, type Scope } from '../../repositories/transcripts';
import { CALL_LABELS } from '../segments';
import { segmentFacts, speakersEvent } from '../facts';
import { scopeOf } from '../scope';
import * as ops from './ops';
import type { Change, RecordedChange, TranscriptState } from './ops';
import { idSource, type IdSource } from './retime';
import { wordsOf, type TranscriptWords } from '../words-encryption';
import { redactedChange } from './redaction';

type Emit = (event: NewEvent) => void;

/** History pages: enough for the editor's panel, bounded. */
const HISTORY_PAGE = 50;
/** A person's undo (and redo) stack holds their last 50 edits, as the editor's own stack does. */
const UNDO_LIMIT = 50;

export const toSpeakers = (speakers: readonly SpeakerInfo[]): TranscriptSpeakers =>
  speakers.map((s) => ({ speakerId: s.id, name: speakerName(s.id, speakers), color: s.color }));

/** Speakers whose name changed or who are gone: their segments are told again with the new name. */
function renamed(before: readonly SpeakerInfo[], after: readonly SpeakerInfo[]): Set<string> {
  const changed = new Set<string>();
  for (const s of before)
    if (speakerName(s.id, before) !== speakerName(s.id, after) || !after.some((a) => a.id === s.id)) changed.add(s.id);
  for (const s of after) if (!before.some((b) => b.id === s.id)) changed.add(s.id);
  return changed;
}

/** A fresh tag per edit: its new word and segment ids can meet no other's. */
const newIds = (): IdSource => idSource(`e${randomBytes(5).toString('hex')}`);

interface Applied {
  editId: string | null;
  target: EditTarget;
  speakers: SpeakerInfo[];
  removed: string[];
  segments: SpeakerSegment[];
  /** Spans the company's redaction hid in what the edit wrote (0 with redaction off). */
  redacted: number;
  /** The transcript's edit version after the request (unchanged when it changed nothing). */
  version: number;
}

/**
 * Refuses an edit made on another version than the locked transcript's: someone else's edit came
 * first, and applying this one would silently overwrite it. Checked under the row lock, so of two
 * edits on one base exactly one is applied. Without a base version the edit applies as before.
 */
export function checkVersion(target: EditTarget, baseVersion: number | undefined): void {
  if (baseVersion !== undefined && baseVersion !== target.version)
    throw conflict('The transcript was changed by someone else: reload it and edit again', {
      reason: 'stale_version',
      baseVersion,
      currentVersion: target.version,
    });
}

/**
 * Records a change (or nothing, when null) on a locked transcript, redacted first when the company
 * redacts (see redactedChange): the new state, its edit row (both
 * sealed when the company encrypts), the search index, and the events: transcript.segments_changed
 * with the touched segments (and every segment of a renamed speaker), transcript.speakers_changed
 * when a name changed.
 */
export async function commitChange(
  tx: Db,
  emit: Emit,
  identity: Identity,
  words: TranscriptWords,
  target: EditTarget,
  typed: Change | null,
  announce = true,
): Promise<Applied> {
  if (!typed)
    return {
      editId: null,
      target,
      speakers: target.speakers,
      removed: [],
      segments: [],
      redacted: 0,
      version: target.version,
    };
  const { change, redacted } = await redactedChange(tx, target.companyId, typed);
  const speakers = change.speakers?.after ?? target.speakers;
  const segments = ops.applyChange(target.segments, change);
  const version = await editsRepo.writeState(tx, target.fileId, {
    speakers,
    segments: await words.sealState(tx, target.companyId, target.fileId, segments),
  });
  const editId = randomUUID();
  await editsRepo.insertEdit(tx, {
    id: editId,
    fileId: target.fileId,
    companyId: target.companyId,
    kind: change.kind,
    summary: change.summary,
    actorId: identity.userId,
    actorName: (await peopleRepo.memberName(tx, identity.userId)) ?? identity.email,
    ...(await words.sealEdit(tx, target.companyId, editId, change.before, change.after)),
    speakersBefore: change.speakers?.before ?? null,
    speakersAfter: change.speakers?.after ?? null,
  });
  await words.reindex(tx, target.companyId, target.fileId);
  const { removed } = ops.patchOf(change);
  const names = change.speakers ? renamed(change.speakers.before, speakers) : new Set<string>();
  const touched = new Set(change.after.map((s) => s._id));
  const told = [...change.after, ...segments.filter((s) => names.has(s.speakerId) && !touched.has(s._id))];
  const actor = actorOf(identity);
  const transcript = { id: target.id, fileId: target.fileId };
  if (announce)
    segmentsChangedEvents(
      target.companyId,
      { ...transcript, editId, kind: change.kind },
      removed,
      segmentFacts(told, speakers),
      actor,
    ).forEach(emit);
  if (names.size > 0) emit(speakersEvent(target.companyId, transcript, speakers, actor));
  return { editId, target, speakers, removed, segments: change.after, redacted, version };
}

/**
 * transcript.segments_changed for one edit, cut into parts like transcript.text_published (no event
 * grows with the recording); `removed` rides in part 0. None when the edit touched no segment.
 */
export function segmentsChangedEvents(
  companyId: string,
  edit: { id: string; fileId: string; editId: string; kind: string },
  removed: string[],
  facts: TranscriptSegmentFact[],
  actor: NewEvent['actor'],
): NewEvent[] {
  if (facts.length === 0 && removed.length === 0) return [];
  const parts = textParts(facts);
  const count = Math.max(1, parts.length);
  return Array.from({ length: count }, (_, part) => ({
    type: 'transcript.segments_changed',
    companyId,
    actor,
    data: { ...edit, part, parts: count, removed: part === 0 ? removed : [], segments: parts[part] ?? [] },
  }));
}

/** Whether the request changed anything, and the version it left: the answer says both (see TranscriptPatch). */
export const outcomeOf = (applied: { editId: string | null; version: number }) => ({
  changed: applied.editId !== null,
  version: applied.version,
});

/** An edit's answer, its version always told (the contract's field is optional for older answers). */
type Versioned = { version: number };
type Patched = TranscriptPatch & RedactedCount & Versioned;

const toPatch = (applied: Applied): Patched => ({
  editId: applied.editId,
  removed: applied.removed,
  segments: applied.segments,
  speakers: toSpeakers(applied.speakers),
  ...outcomeOf(applied),
  ...redactedField(applied.redacted),
});

/** An opened edit row as undo and redo read it. */
const recordedOf = (edit: {
  segmentsBefore: SpeakerSegment[];
  segmentsAfter: SpeakerSegment[];
  speakersBefore: SpeakerInfo[] | null;
  speakersAfter: SpeakerInfo[] | null;
}): RecordedChange => ({
  before: edit.segmentsBefore,
  after: edit.segmentsAfter,
  speakers:
    edit.speakersBefore && edit.speakersAfter ? { before: edit.speakersBefore, after: edit.speakersAfter } : null,
});

const encodeCursor = (item: { position: string; id: string }) =>
  Buffer.from(`${item.position}|${item.id}`).toString('base64url');

function decodeCursor(cursor: string): { position: string; id: string } {
  const [position, id, ...rest] = Buffer.from(cursor, 'base64url').toString().split('|');
  if (
    rest.length ||
    !position ||
    !id ||
    !/^\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(\.\d{1,6})?([+-]\d\d(:\d\d)?|Z)$/.test(position) ||
    !isId(id)
  ) {
    throw badRequest('Invalid query.cursor: must be a nextCursor value from a previous answer', {
      field: 'query.cursor',
    });
  }
  return { position, id };
}

/** Names the pipeline gives (Agent, Customer, Speaker N) are nobody's: not offered as known people. */
const isGivenName = (name: string) => (CALL_LABELS as readonly string[]).includes(name) || /^Speaker \d+$/.test(name);

/**
 * Editing a transcript beyond one word: speakers (rename, merge), segments (text, speaker, split,
 * merge), find and replace, undo and redo, the history, and the people a speaker may be named
 * after. Every change runs in one transaction on the locked transcript row (see commitChange).
 */
export class TranscriptEditService {
  private readonly words: TranscriptWords;

  constructor(private readonly ctx: ServiceContext<TranscriptionConfig>) {
    this.words = wordsOf(ctx);
  }

  /** Runs `make` on the caller's transcript, locked, and records what it changed. */
  private async edit<T>(
    identity: Identity,
    fileId: string,
    baseVersion: number | undefined,
    make: (state: TranscriptState, ids: IdSource) => { change: Change | null; answer: (applied: Applied) => T },
  ): Promise<T> {
    const scope = await scopeOf(this.ctx.db, identity);
    return this.ctx.transact(async (tx, emit) => {
      const target = await this.words.lockForEdit(tx, { fileId }, scope);
      if (!target) throw notFound('Transcript');
      checkVersion(target, baseVersion);
      const { change, answer } = make(target, newIds());
      return answer(await commitChange(tx, emit, identity, this.words, target, change));
    });
  }

  private patch(
    identity: Identity,
    fileId: string,
    baseVersion: number | undefined,
    make: (state: TranscriptState, ids: IdSource) => Change | null,
  ): Promise<Patched> {
    return this.edit(identity, fileId, baseVersion, (state, ids) => ({ change: make(state, ids), answer: toPatch }));
  }

  /** The answer is the speakers (the API's shape); the edit's id travels beside it for the undo stack. */
  renameSpeaker(
    identity: Identity,
    input: { fileId: string; speakerId: string; name: string; baseVersion?: number },
  ): Promise<{ speakers: TranscriptSpeakers; editId: string | null; redacted: number; version: number }> {
    return this.edit(identity, input.fileId, input.baseVersion, (state) => ({
      change: ops.renameSpeaker(state, input.speakerId, input.name),
      answer: (applied) => ({
        speakers: toSpeakers(applied.speakers),
        editId: applied.editId,
        redacted: applied.redacted,
        version: applied.version,
      }),
    }));
  }

  mergeSpeakers(
    identity: Identity,
    input: { fileId: string; from: string; into: string; baseVersion?: number },
  ): Promise<Patched> {
    return this.patch(identity, input.fileId, input.baseVersion, (state) => {
      if (input.from === input.into)
        throw badRequest('Invalid body.into: must be another speaker than from', { field: 'body.into' });
      return ops.mergeSpeakers(state, input.from, input.into);
    });
  }

  /** Text, or speaker (of the segment or of a run of its words); text first when both are given. */
  editSegment(
    identity: Identity,
    input: {
      fileId: string;
      segmentId: string;
      text?: string;
      speakerId?: string;
      wordIds?: string[];
      baseVersion?: number;
    },
  ): Promise<Patched> {
    const { fileId, segmentId, text, speakerId, wordIds } = input;
    return this.patch(identity, fileId, input.baseVersion, (state, ids) => {
      const edited = text === undefined ? null : ops.editSegmentText(state, segmentId, text, ids);
      if (speakerId === undefined) return edited;
      const now = edited ? { ...state, segments: ops.applyChange(state.segments, edited) } : state;
      if (edited && !now.segments.some((s) => s._id === segmentId)) return edited;
      const moved = ops.reassign(now, segmentId, speakerId, wordIds, ids);
      if (!edited || !moved) return moved ?? edited;
      // One edit that did both: from the segment as it was to what the reassignment made of it.
      return {
        kind: 'segment_speaker',
        summary: `${edited.summary}; ${moved.summary}`,
        before: edited.before,
        after: moved.after,
      };
    });
  }

  split(
    identity: Identity,
    input: { fileId: string; segmentId: string; wordId: string; baseVersion?: number },
  ): Promise<Patched> {
    return this.patch(identity, input.fileId, input.baseVersion, (state, ids) =>
      ops.split(state, input.segmentId, input.wordId, ids),
    );
  }

  mergeSegments(
    identity: Identity,
    input: { fileId: string; segmentId: string; baseVersion?: number },
  ): Promise<Patched> {
    return this.patch(identity, input.fileId, input.baseVersion, (state) => ops.mergeWithNext(state, input.segmentId));
  }

  replace(
    identity: Identity,
    input: ops.ReplaceInput & { fileId: string; baseVersion?: number },
  ): Promise<ReplaceAnswer & RedactedCount & Versioned> {
    return this.edit(identity, input.fileId, input.baseVersion, (state, ids) => {
      const { replaced, change } = ops.replaceText(state, input, ids);
      return {
        change,
        answer: (applied) => ({
          replaced,
          editId: applied.editId,
          ...outcomeOf(applied),
          ...redactedField(applied.redacted),
        }),
      };
    });
  }

  undo(identity: Identity, input: { fileId: string; editId: string; baseVersion?: number }): Promise<Patched> {
    return this.reverse(identity, input, 'undo');
  }

  redo(identity: Identity, input: { fileId: string; editId: string; baseVersion?: number }): Promise<Patched> {
    return this.reverse(identity, input, 'redo');
  }

  /**
   * Undo applies an edit's inverse, redo the edit again, each recorded as an edit of its own; the
   * edit is marked undone (or not). An undo or redo is itself neither undone nor redone: the edit is.
   */
  private async reverse(
    identity: Identity,
    input: { fileId: string; editId: string; baseVersion?: number },
    direction: 'undo' | 'redo',
  ): Promise<Patched> {
    const scope = await scopeOf(this.ctx.db, identity);
    return this.ctx.transact(async (tx, emit) => {
      const target = await this.words.lockForEdit(tx, { fileId: input.fileId }, scope);
      if (!target) throw notFound('Transcript');
      checkVersion(target, input.baseVersion);
      const found = await editsRepo.findEdit(tx, input.fileId, input.editId);
      if (!found) throw notFound('Edit');
      const edit = await this.words.openEdit(tx, found);
      if (edit.kind === 'undo' || edit.kind === 'redo')
        throw conflict(
          `An ${edit.kind} cannot be undone or redone: ${edit.kind === 'undo' ? 'redo' : 'undo'} the edit itself`,
        );
      if (direction === 'undo' && edit.undone) throw conflict('This edit is already undone');
      if (direction === 'redo' && !edit.undone) throw conflict('Only an undone edit can be redone');
      const change = ops.reverse(
        target,
        recordedOf(edit),
        direction,
        `${direction === 'undo' ? 'Undid' : 'Redid'}: ${edit.summary}`,
      );
      const applied = await commitChange(tx, emit, identity, this.words, target, change);
      await editsRepo.setUndone(tx, edit.id, direction === 'undo', identity.userId);
      return toPatch(applied);
    });
  }

  /**
   * The caller's undo and redo stacks, read from the edits table so that they outlive the editor's
   * page: only their own edits, each kept only if it could be undone (redone) after the ones above
   * it, from the transcript as it is now. The one refused is dropped and the next tried, as the
   * editor does on a 409, so an edit someone else has changed since drops out.
   */
  async undoStack(identity: Identity, input: { fileId: string }): Promise<TranscriptUndoStack> {
    const row = await findByFile(this.ctx.db, input.fileId, await scopeOf(this.ctx.db, identity));
    if (!row) throw notFound('Transcript');
    const state = await this.words.openRow(this.ctx.db, row);
    const { fileId } = input;
    const [standing, undone] = await Promise.all([
      editsRepo.ownStanding(this.ctx.db, fileId, identity.userId, UNDO_LIMIT),
      editsRepo.ownUndone(this.ctx.db, fileId, identity.userId, UNDO_LIMIT),
    ]);
    return {
      undo: await this.reversibleInTurn(state, standing, 'undo'),
      redo: await this.reversibleInTurn(state, undone, 'redo'),
    };
  }

  /** Of `rows` (the top of the stack first), those each reversible in turn from `state`; listed the top last. */
  private async reversibleInTurn(
    state: TranscriptState,
    rows: EditRow[],
    direction: 'undo' | 'redo',
  ): Promise<string[]> {
    let now: TranscriptState = { speakers: state.speakers, segments: state.segments };
    const kept: string[] = [];
    for (const row of rows) {
      const change = ops.reversible(now, recordedOf(await this.words.openEdit(this.ctx.db, row)), direction);
      if (!change) continue;
      now = { speakers: change.speakers?.after ?? now.speakers, segments: ops.applyChange(now.segments, change) };
      kept.push(row.id);
    }
    return kept.reverse();
  }

  async history(identity: Identity, input: { fileId: string; cursor?: string }): Promise<TranscriptEditsPage> {
    const after = input.cursor ? decodeCursor(input.cursor) : null;
    const row = await findByFile(this.ctx.db, input.fileId, await scopeOf(this.ctx.db, identity));
    if (!row) throw notFound('Transcript');
    const rows = await editsRepo.listEdits(this.ctx.db, input.fileId, after, HISTORY_PAGE + 1);
    const items: TranscriptEditItem[] = rows.slice(0, HISTORY_PAGE).map((e) => ({
      _id: e.id,
      kind: e.kind,
      summary: e.summary,
      createdAt: e.createdAt.toISOString(),
      undone: e.undone,
      actor: e.actorId ? { userId: e.actorId, name: e.actorName ?? '' } : null,
    }));
    return { items, nextCursor: rows.length > HISTORY_PAGE ? encodeCursor(rows[HISTORY_PAGE - 1]!) : null };
  }

  /**
   * The people a speaker may be named after: the company's members, its clients, and names given to
   * its speakers before, each name once (a member first). With a file of a stereo call, its uploader
   * comes first: the Agent channel is theirs by default. In a b2c company the caller is the only member offered.
   */
  async people(identity: Identity, input: { fileId?: string }): Promise<KnownPerson[]> {
    const scope = await scopeOf(this.ctx.db, identity);
    let companyId = scope.companyId;
    let uploader: string | null = null;
    if (input.fileId) {
      const row = await findByFile(this.ctx.db, input.fileId, scope);
      if (!row) throw notFound('Transcript');
      companyId = row.companyId;
      const stereo = row.speakers.some((s) => s.channel !== null);
      if (stereo && row.uploadedBy) uploader = await peopleRepo.memberName(this.ctx.db, row.uploadedBy);
    }
    if (!companyId) return [];
    const of = { ...scope, companyId } satisfies Scope & { companyId: string };
    const lists: [KnownPerson['kind'], string[]][] = [
      ['member', await peopleRepo.memberNames(this.ctx.db, companyId, scope.owner)],
      ['contact', await peopleRepo.clientNames(this.ctx.db, companyId)],
      ['speaker', (await peopleRepo.speakerNames(this.ctx.db, of)).filter((n) => !isGivenName(n))],
    ];
    const seen = new Set<string>();
    const people: KnownPerson[] = [];
    if (uploader) {
      people.push({ name: uploader, kind: 'member', uploader: true });
      seen.add(uploader.toLowerCase());
    }
    for (const [kind, names] of lists) {
      for (const name of names) {
        if (seen.has(name.toLowerCase())) continue;
        seen.add(name.toLowerCase());
        people.push({ name, kind });
      }
    }
    return people;
  }
}
