import {
  IsoDate,
  redactedField,
  type ActionItem,
  type TaskCreateBody,
  type TaskDto,
  type TaskList,
  type TaskListQuery,
  type TaskPage,
  type TaskSaved,
  type TaskState,
  type TaskUpdateBody,
} from '@earshot/contracts';
import {
  actorOf,
  companyScope,
  forbidden,
  HttpError,
  notFound,
  type Db,
  type Emit,
  type Identity,
  type ServiceContext,
} from '@earshot/kit';
import { redactFields } from '@earshot/redaction';
import type { TasksConfig } from '../config';
import type { NewTaskRow, ProposalRow, TaskRow } from '../db/schema';
import { lockProposals } from '../repositories/proposals';
import * as models from '../repositories/read-models';
import * as repo from '../repositories/tasks';
import { decodeCursor, encodeCursor } from './cursor';
import { companyTypes } from './company-types';
import { redactionModes } from './redaction';
import { invalid } from './invalid';

export function toTaskDto(row: TaskRow): TaskDto {
  return {
    _id: row.id,
    title: row.title,
    description: row.description,
    status: row.status,
    assigneeId: row.assigneeId,
    dueDate: row.dueDate,
    clientId: row.clientId,
    link: row.linkFileId === null ? null : { fileId: row.linkFileId, seconds: row.linkSeconds ?? 0 },
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    source: row.runId === null || row.runItem === null ? null : { runId: row.runId, item: row.runItem },
  };
}

/** A written task's answer: the task as stored, and what redaction hid in it. */
const saved = ({ row, redacted }: { row: TaskRow; redacted: number }): TaskSaved => ({
  ...toTaskDto(row),
  ...redactedField(redacted),
});

export function toTaskState(row: TaskRow): TaskState {
  const { _id: _, createdAt: __, source: ___, ...state } = toTaskDto(row);
  return state;
}

/** A UTC day as YYYY-MM-DD, `days` after `now`'s. */
export const utcDay = (now: Date, days = 0): string =>
  new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + days)).toISOString().slice(0, 10);

const NO_COMPANY =
  'The platform administrator belongs to no company: a task is made by a member of its company, or from a run of its company';

/** Whether the caller may change or delete a task (they already see it): its assignee, its creator, an administrator. */
export const mayEdit = (identity: Identity, task: Pick<TaskRow, 'assigneeId' | 'createdBy'>): boolean =>
  identity.role === 'HOST_ADMIN' ||
  identity.role === 'ADMIN' ||
  task.assigneeId === identity.userId ||
  task.createdBy === identity.userId;

type References = Partial<Pick<TaskCreateBody, 'assigneeId' | 'clientId' | 'link'>>;

/**
 * Tasks of a company. Everyone in the company sees them (the platform administrator every
 * company's, by id); the assignee, the creator and the company's ADMIN change or delete them.
 * Each change and its event commit together.
 */
export class TaskService {
  constructor(
    private readonly ctx: ServiceContext<TasksConfig>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async list(identity: Identity, query: TaskListQuery): Promise<TaskPage> {
    const today = utcDay(this.now());
    const due = {
      overdue: { dueTo: utcDay(this.now(), -1), open: true },
      today: { dueFrom: today, dueTo: today },
      week: { dueFrom: today, dueTo: utcDay(this.now(), 6) },
      none: { noDueDate: true },
    }[query.due ?? 'none'];
    const filter: repo.TaskFilter = {
      scope: await this.scopeOf(identity),
      assigneeId: query.mine ? identity.userId : query.assignee,
      status: query.status,
      clientId: query.clientId,
      fileId: query.fileId,
      ...(query.due ? due : {}),
    };
    // `mine` with another assignee named asks for nobody's tasks.
    if (query.mine && query.assignee && query.assignee !== identity.userId) return { items: [], nextCursor: null };
    const cursor = query.cursor ? decodeCursor(query.cursor, query.sort, query.order) : undefined;
    // One row more than asked tells whether another page follows.
    const rows = await repo.listTasks(this.ctx.db, filter, {
      sort: query.sort,
      order: query.order,
      after: cursor && { value: cursor.v, id: cursor.id },
      limit: query.limit + 1,
    });
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    return {
      items: page.map((r) => toTaskDto(r.row)),
      nextCursor:
        rows.length > query.limit && last
          ? encodeCursor({ s: query.sort, o: query.order, v: last.key, id: last.row.id })
          : null,
    };
  }

  /**
   * Who a task may be given to, for every role's picker (GET /users/dropdown is for administrators):
   * the company's current members; in a b2c company only the caller. The platform administrator
   * names the company (none named: nobody).
   */
  async members(identity: Identity, companyId?: string): Promise<{ _id: string; name: string }[]> {
    const company = identity.role === 'HOST_ADMIN' ? companyId : identity.companyId;
    if (!company) return [];
    const rows = await models.currentMembers(
      this.ctx.db,
      company,
      await companyTypes.ownerScope(this.ctx.db, identity),
    );
    return rows.map((m) => ({ _id: m.id, name: `${m.firstName} ${m.lastName}`.trim() }));
  }

  async get(identity: Identity, id: string): Promise<TaskDto> {
    const row = await repo.findTask(this.ctx.db, id, await this.scopeOf(identity));
    if (!row) throw notFound('Task');
    return toTaskDto(row);
  }

  async create(identity: Identity, body: TaskCreateBody): Promise<TaskSaved> {
    const companyId = identity.companyId;
    if (!companyId) throw new HttpError(400, NO_COMPANY, 'BAD_REQUEST');
    await this.checkReferences(companyId, body, await companyTypes.ownerScope(this.ctx.db, identity));
    return this.ctx.transact(async (tx, emit) =>
      saved(
        await this.insert(tx, emit, identity, {
          companyId,
          title: body.title,
          description: body.description,
          status: body.status,
          assigneeId: body.assigneeId,
          dueDate: body.dueDate,
          clientId: body.clientId,
          linkFileId: body.link?.fileId ?? null,
          linkSeconds: body.link?.seconds ?? null,
          createdBy: identity.userId,
        }),
      ),
    );
  }

  /** Changes the fields the body names; the others keep their value. */
  async update(identity: Identity, id: string, body: TaskUpdateBody): Promise<TaskSaved> {
    return this.ctx.transact(async (tx, emit) => {
      const scope = await this.scopeOf(identity, tx);
      const before = await this.editable(tx, identity, id, scope);
      // Only a reference that changes is checked: a task keeps an assignee who has since left.
      await this.checkReferences(
        before.companyId,
        {
          assigneeId: body.assigneeId !== before.assigneeId ? body.assigneeId : undefined,
          clientId: body.clientId !== before.clientId ? body.clientId : undefined,
          link: body.link && body.link.fileId !== before.linkFileId ? body.link : undefined,
        },
        scope.ownerId,
        tx,
      );
      const patch: Partial<NewTaskRow> = {
        title: body.title,
        description: body.description,
        status: body.status,
        assigneeId: body.assigneeId,
        dueDate: body.dueDate,
        clientId: body.clientId,
        ...(body.link === undefined
          ? {}
          : { linkFileId: body.link?.fileId ?? null, linkSeconds: body.link?.seconds ?? null }),
      };
      const { record, redacted } = await this.redacted(tx, before.companyId, patch);
      const after = await repo.updateTask(
        tx,
        id,
        Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined)),
      );
      const [was, now] = [toTaskState(before), toTaskState(after)];
      if (JSON.stringify(was) !== JSON.stringify(now)) {
        emit({
          type: 'task.updated',
          companyId: after.companyId,
          actor: actorOf(identity),
          data: { id, before: was, after: now },
        });
      }
      return saved({ row: after, redacted });
    });
  }

  async remove(identity: Identity, id: string): Promise<{ message: string }> {
    await this.ctx.transact(async (tx, emit) => {
      const task = await this.editable(tx, identity, id, await this.scopeOf(identity, tx));
      await repo.deleteTask(tx, id);
      emit({
        type: 'task.deleted',
        companyId: task.companyId,
        actor: actorOf(identity),
        data: { id, before: toTaskState(task), after: null },
      });
    });
    return { message: 'Task deleted' };
  }

  /**
   * Turns chosen action items of an "Action items" run into tasks, one per item: an item chosen
   * again (in the same request or a later one) answers the task it already made, so `created`
   * says whether anything new was made (201) or not (200). An item whose task was deleted may be
   * chosen again.
   */
  async fromRun(identity: Identity, runId: string, chosen: number[]): Promise<{ created: boolean; list: TaskList }> {
    return this.ctx.transact(async (tx, emit) => {
      const proposal = await lockProposals(tx, runId, companyScope(identity));
      const ownerId = await companyTypes.ownerScope(tx, identity);
      const recording = proposal && (await models.findRecording(tx, proposal.fileId, proposal.companyId));
      // In a b2c company another member's call, and so its run, is not there for the caller.
      if (!proposal || (ownerId !== null && recording?.uploadedBy !== ownerId)) throw notFound('Analysis run');
      const wanted = [...new Set(chosen)];
      const outside = wanted.find((i) => i >= proposal.items.length);
      if (outside !== undefined)
        throw invalid('body.items', `item ${outside} does not exist: the run proposed ${proposal.items.length}`);
      const existing = await repo.tasksOfRun(tx, runId, wanted);
      let created = false;
      const items: TaskDto[] = [];
      for (const index of wanted) {
        let task = existing.get(index);
        if (!task) {
          ({ row: task } = await this.insert(
            tx,
            emit,
            identity,
            await this.fromItem(tx, identity, proposal, index, recording?.clientId ?? null, ownerId),
          ));
          created = true;
        }
        items.push(toTaskDto(task));
      }
      return { created, list: { items } };
    });
  }

  private async fromItem(
    tx: Db,
    identity: Identity,
    proposal: ProposalRow,
    index: number,
    callClient: string | null,
    ownerId: string | null,
  ): Promise<NewTaskRow> {
    const item: ActionItem = proposal.items[index]!;
    const named = item.owner ? await models.membersNamed(tx, proposal.companyId, item.owner) : [];
    const clientId = callClient && (await models.isClientOf(tx, callClient, proposal.companyId)) ? callClient : null;
    return {
      companyId: proposal.companyId,
      title: item.title,
      description: '',
      status: 'todo',
      // Only a name that points at exactly one person assigns: a guess would notify the wrong one.
      // In a b2c company a task is only ever its maker's.
      assigneeId: named.length === 1 && (ownerId === null || named[0] === ownerId) ? named[0]! : null,
      dueDate: item.due && IsoDate.safeParse(item.due).success ? item.due : null,
      clientId,
      linkFileId: proposal.fileId,
      linkSeconds: 0,
      createdBy: identity.userId,
      runId: proposal.runId,
      runItem: index,
    };
  }

  /** Stores a new task (redacted) and announces it; `redacted`: the spans redaction hid. */
  private async insert(
    tx: Db,
    emit: Emit,
    identity: Identity,
    values: NewTaskRow,
  ): Promise<{ row: TaskRow; redacted: number }> {
    const { record, redacted } = await this.redacted(tx, values.companyId, values);
    const row = await repo.insertTask(tx, record);
    emit({
      type: 'task.created',
      companyId: row.companyId,
      actor: actorOf(identity),
      data: { id: row.id, before: null, after: toTaskState(row) },
    });
    return { row, redacted };
  }

  /**
   * What a task says as it may be stored: with the company's redaction on, the detectors run on the
   * title and the description of every write (made by a person or from a run's action item, created
   * or changed), so a label cannot be edited back into a number. `redacted`: the spans hidden.
   */
  private async redacted<T extends Partial<Pick<NewTaskRow, 'title' | 'description'>>>(
    tx: Db,
    companyId: string,
    values: T,
  ): Promise<{ record: T; redacted: number }> {
    if (!(await redactionModes.redacts(tx, companyId))) return { record: values, redacted: 0 };
    const { record, count } = redactFields(values, ['title', 'description']);
    return { record, redacted: count };
  }

  /** Whose tasks the caller sees (see TaskScope). */
  private async scopeOf(identity: Identity, db: Db = this.ctx.db): Promise<repo.TaskScope> {
    return { companyId: companyScope(identity), ownerId: await companyTypes.ownerScope(db, identity) };
  }

  /** The task locked, when the caller sees it (else 404) and may change it (else 403). */
  private async editable(tx: Db, identity: Identity, id: string, scope: repo.TaskScope): Promise<TaskRow> {
    const task = await repo.lockTask(tx, id, scope);
    if (!task) throw notFound('Task');
    if (!mayEdit(identity, task))
      throw forbidden("Only the task's assignee, its creator or an administrator may change it");
    return task;
  }

  /**
   * Who, which client and which recording a task names must be the company's own; in a b2c company
   * (`ownerId`: the caller) the task stays the caller's and names only their own recordings.
   */
  private async checkReferences(
    companyId: string,
    refs: References,
    ownerId: string | null,
    db: Db = this.ctx.db,
  ): Promise<void> {
    if (refs.assigneeId && !(await models.isCurrentMember(db, refs.assigneeId, companyId)))
      throw invalid('body.assigneeId', 'not a member of the company');
    if (refs.assigneeId && ownerId !== null && refs.assigneeId !== ownerId)
      throw invalid('body.assigneeId', 'in a b2c company a task is given only to the person who makes it');
    if (refs.clientId && !(await models.isClientOf(db, refs.clientId, companyId)))
      throw invalid('body.clientId', 'not a client of the company');
    if (refs.link) {
      const recording = await models.findRecording(db, refs.link.fileId, companyId);
      if (!recording || (ownerId !== null && recording.uploadedBy !== ownerId))
        throw invalid('body.link.fileId', 'not a recording of the company');
    }
  }
}
