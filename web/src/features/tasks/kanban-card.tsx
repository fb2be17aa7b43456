import { useEffect, useRef, type KeyboardEventHandler, type PointerEventHandler, type ReactElement } from 'react';
import { useDraggable } from '@dnd-kit/core';
import type { TaskDto } from '@earshot/contracts';
import { TASK_STATUSES, type TaskStatus } from '@earshot/contracts/constants';
import { DropdownMenu } from '../../components/dropdown-menu';
import { taskDialogCatalogue as dialogCatalogue } from '../../entities/tasks';
import { useFeatureTranslation } from '../../i18n/feature';
import { formatDay } from '../../lib/format-time';
import { catalogue } from './i18n';
import { isOverdue } from './model';

export interface CardNames {
  assignee: (task: TaskDto) => string;
  client: (task: TaskDto) => string;
}

/** What a card shows: title (opens the task), assignee, due day, client. Also the drag preview. */
export function CardBody({
  task,
  names,
  today,
  onOpen,
}: {
  task: TaskDto;
  names: CardNames;
  today: string;
  onOpen?: () => void;
}): ReactElement {
  const { t, i18n } = useFeatureTranslation(catalogue, dialogCatalogue);
  const overdue = isOverdue(task, today);
  const client = names.client(task);
  return (
    <div className="min-w-0 flex-1">
      {onOpen ? (
        <button
          type="button"
          onClick={onOpen}
          className="text-left text-sm font-medium break-words text-gray-900 hover:underline dark:text-white"
          aria-label={t('tasks.open', { title: task.title })}
          data-testid="task-open"
        >
          {task.title}
        </button>
      ) : (
        <p className="text-sm font-medium break-words text-gray-900 dark:text-white">{task.title}</p>
      )}
      <p className="mt-1 flex flex-wrap gap-x-2 text-xs text-gray-600 dark:text-gray-400">
        <span>{names.assignee(task)}</span>
        {task.dueDate ? (
          <span className={overdue ? 'font-medium text-red-700 dark:text-red-300' : undefined}>
            {formatDay(task.dueDate, i18n.language)}
            {overdue ? ` · ${t('tasks.overdue')}` : ''}
          </span>
        ) : null}
        {client ? <span>{client}</span> : null}
      </p>
    </div>
  );
}

/**
 * A task on the board. The whole card drags with the mouse; the grip is the keyboard's handle
 * (Space picks it up); "Move" offers the other columns as plain menu items.
 */
export function KanbanCard({
  task,
  editable,
  names,
  today,
  focus,
  onOpen,
  onMove,
}: {
  task: TaskDto;
  editable: boolean;
  names: CardNames;
  today: string;
  /** Focus the grip once mounted (a card just moved from the keyboard lands in its new column). */
  focus: boolean;
  onOpen: () => void;
  onMove: (status: TaskStatus) => void;
}): ReactElement {
  const { t } = useFeatureTranslation(catalogue, dialogCatalogue);
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, isDragging } = useDraggable({
    id: task._id,
    data: { task },
    disabled: !editable,
  });
  const grip = useRef<HTMLButtonElement | null>(null);
  // dnd-kit types its listeners loosely; these two are React's own handlers.
  const onPointerDown = listeners?.onPointerDown as PointerEventHandler | undefined;
  const onKeyDown = listeners?.onKeyDown as KeyboardEventHandler | undefined;
  useEffect(() => {
    if (focus) grip.current?.focus();
  }, [focus]);
  return (
    <li
      ref={setNodeRef}
      onPointerDown={onPointerDown}
      data-testid="kanban-card"
      data-task-id={task._id}
      className={`flex items-start gap-2 rounded-xl border border-gray-200 bg-white p-3 shadow-sm dark:border-gray-700 dark:bg-gray-800 ${isDragging ? 'opacity-40' : ''} ${editable ? 'cursor-grab touch-none' : ''}`}
    >
      {editable ? (
        <button
          type="button"
          ref={(node) => {
            grip.current = node;
            setActivatorNodeRef(node);
          }}
          {...attributes}
          onKeyDown={onKeyDown}
          aria-label={t('tasks.kanban_.grip', { title: task.title })}
          className="mt-0.5 rounded px-1 text-gray-500 hover:bg-gray-100 hover:text-gray-800 dark:text-gray-400 dark:hover:bg-gray-700 dark:hover:text-gray-100"
          data-testid="kanban-grip"
        >
          <span aria-hidden="true">⠿</span>
        </button>
      ) : (
        <span aria-hidden="true" className="w-5 shrink-0" />
      )}
      <CardBody task={task} names={names} today={today} onOpen={onOpen} />
      {editable ? (
        <DropdownMenu
          label={t('tasks.kanban_.moveMenu', { title: task.title })}
          button={
            <span aria-hidden="true" className="text-base leading-none">
              ⋯
            </span>
          }
          entries={TASK_STATUSES.filter((status) => status !== task.status).map((status) => ({
            key: status,
            label: t('tasks.kanban_.moveTo', { column: t(`taskStatus.${status}`) }),
            onSelect: () => onMove(status),
            testId: `move-to-${status}`,
          }))}
          testId="kanban-move"
          buttonClassName="rounded-lg px-2 py-0.5 text-gray-500 hover:bg-gray-100 hover:text-gray-800 dark:text-gray-400 dark:hover:bg-gray-700 dark:hover:text-gray-100"
        />
      ) : (
        <span className="sr-only">{t('tasks.kanban_.readOnly')}</span>
      )}
    </li>
  );
}
