import { useMemo, useState, type ReactElement } from 'react';
import {
  DndContext,
  DragOverlay,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
  type Announcements,
  type Active,
  type DragEndEvent,
  type DragStartEvent,
  type Over,
} from '@dnd-kit/core';
import type { TaskDto } from '@earshot/contracts';
import { TASK_STATUSES, type TaskStatus } from '@earshot/contracts/constants';
import { taskDialogCatalogue as dialogCatalogue, useMoveTaskMutation, type TaskFilters } from '../../entities/tasks';
import { useFeatureTranslation } from '../../i18n/feature';
import { errorMessage } from '../../lib/api';
import { catalogue } from './i18n';
import { CardBody } from './kanban-card';
import { KanbanColumn } from './kanban-column';
import { columnCoordinates } from './kanban-keys';
import { todayUtc } from './model';
import { TaskPageFrame, useTaskNames, useTaskPage } from './task-page';

const taskOf = (item: Active | Over | null): TaskDto | undefined =>
  (item?.data.current as { task?: TaskDto } | undefined)?.task;
const isStatus = (value: unknown): value is TaskStatus => (TASK_STATUSES as readonly unknown[]).includes(value);

/**
 * /task-kanban: the tasks in three columns with the list's filters. A move — dragged with the
 * mouse, carried with the keyboard, or chosen from a card's menu — sends PUT {status}; the card
 * moves at once and goes back with a message if the server refuses.
 */
export default function TaskKanbanPage(): ReactElement {
  const { t } = useFeatureTranslation(catalogue, dialogCatalogue);
  const state = useTaskPage();
  const { filters, directory, show, openTask } = state;
  const names = useTaskNames(directory);
  const today = todayUtc();
  // The columns are the statuses; the list's sort and status filter do not apply.
  const base = useMemo<TaskFilters>(
    () => ({ mine: filters.mine, assignee: filters.assignee, clientId: filters.clientId, due: filters.due }),
    [filters.mine, filters.assignee, filters.clientId, filters.due],
  );
  const column = (status: TaskStatus): TaskFilters => ({ ...base, status });
  const [move] = useMoveTaskMutation();
  const [dragging, setDragging] = useState<TaskDto | null>(null);
  const [focusId, setFocusId] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    useSensor(KeyboardSensor, { coordinateGetter: columnCoordinates }),
  );
  const columnName = (status: TaskStatus) => t(`taskStatus.${status}`);

  const moveTask = async (task: TaskDto, status: TaskStatus, fromKeyboard: boolean) => {
    if (status === task.status) return;
    if (fromKeyboard) setFocusId(task._id);
    try {
      await move({ task, status, from: column(task.status), to: column(status) }).unwrap();
      setAnnouncement(t('tasks.kanban_.moved', { title: task.title, column: columnName(status) }));
    } catch (error) {
      const message = t('tasks.kanban_.moveFailed', {
        title: task.title,
        reason: errorMessage(error) ?? t('tasks.kanban_.unknownReason'),
      });
      setAnnouncement(message);
      show({ kind: 'error', title: message });
    }
  };

  const overName = (over: Over | null) => (over && isStatus(over.id) ? columnName(over.id) : null);
  const announcements: Announcements = {
    onDragStart: ({ active }) => {
      const task = taskOf(active);
      return task ? t('tasks.kanban_.pickedUp', { title: task.title, column: columnName(task.status) }) : undefined;
    },
    onDragOver: ({ active, over }) => {
      const task = taskOf(active);
      const name = overName(over);
      if (!task) return undefined;
      return name
        ? t('tasks.kanban_.over', { title: task.title, column: name })
        : t('tasks.kanban_.notOver', { title: task.title });
    },
    onDragEnd: ({ active, over }) => {
      const task = taskOf(active);
      const name = overName(over);
      if (!task) return undefined;
      return name
        ? t('tasks.kanban_.dropped', { title: task.title, column: name })
        : t('tasks.kanban_.cancelled', { title: task.title });
    },
    onDragCancel: ({ active }) => {
      const task = taskOf(active);
      return task ? t('tasks.kanban_.cancelled', { title: task.title }) : undefined;
    },
  };

  const onDragStart = ({ active }: DragStartEvent) => setDragging(taskOf(active) ?? null);
  const onDragEnd = ({ active, over, activatorEvent }: DragEndEvent) => {
    setDragging(null);
    const task = taskOf(active);
    if (task && over && isStatus(over.id)) void moveTask(task, over.id, activatorEvent instanceof KeyboardEvent);
  };

  return (
    <TaskPageFrame state={state} title={t('pages.taskKanban')} withStatus={false}>
      <p id="kanban-hint" className="mb-3 text-xs text-gray-600 dark:text-gray-400">
        {t('tasks.kanban_.hint')}
      </p>
      <p className="sr-only" aria-live="polite" data-testid="kanban-announcement">
        {announcement}
      </p>
      <DndContext
        sensors={sensors}
        accessibility={{ announcements, screenReaderInstructions: { draggable: t('tasks.kanban_.hint') } }}
        onDragStart={onDragStart}
        onDragEnd={onDragEnd}
        onDragCancel={() => setDragging(null)}
      >
        <div
          role="group"
          aria-label={t('tasks.kanban_.board')}
          className="grid grid-cols-1 gap-4 md:grid-cols-3"
          data-testid="kanban-board"
        >
          {TASK_STATUSES.map((status) => (
            <KanbanColumn
              key={status}
              status={status}
              filters={column(status)}
              directory={directory}
              names={names}
              today={today}
              focusId={focusId}
              onOpen={(task) => openTask(task._id)}
              onMove={(task, to) => void moveTask(task, to, true)}
            />
          ))}
        </div>
        <DragOverlay>
          {dragging ? (
            <div className="flex cursor-grabbing rounded-xl border border-brand-400 bg-white p-3 shadow-lg dark:bg-gray-800">
              <CardBody task={dragging} names={names} today={today} />
            </div>
          ) : null}
        </DragOverlay>
      </DndContext>
    </TaskPageFrame>
  );
}
