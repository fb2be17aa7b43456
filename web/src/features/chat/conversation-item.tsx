import { useState, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { DropdownMenu } from '../../components/dropdown-menu';
import { Icon } from '../../components/icons';
import { TITLE_MAX, type Conversation } from './model';

/** One conversation in the list: opens it; its menu renames (inline) or deletes it. */
export function ConversationItem({
  conversation,
  active,
  onOpen,
  onRename,
  onDelete,
}: {
  conversation: Conversation;
  active: boolean;
  onOpen: () => void;
  onRename: (title: string) => Promise<boolean>;
  onDelete: () => void;
}): ReactElement {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<string | null>(null);
  const title = conversation.title || t('chat.untitled');

  if (draft !== null) {
    const save = async () => {
      const next = draft.trim();
      if (!next || next === conversation.title || (await onRename(next))) setDraft(null);
    };
    return (
      <li className="px-1 py-0.5">
        <input
          autoFocus
          value={draft}
          maxLength={TITLE_MAX}
          aria-label={t('chat.renameLabel')}
          data-testid="rename-input"
          onChange={(event) => setDraft(event.target.value)}
          onBlur={() => void save()}
          onKeyDown={(event) => {
            if (event.key === 'Enter') void save();
            if (event.key === 'Escape') setDraft(null);
          }}
          className="h-9 w-full rounded-lg border border-brand-500 bg-white px-2 text-sm text-gray-900 focus:outline-none dark:bg-gray-900 dark:text-white"
        />
      </li>
    );
  }

  return (
    <li
      className={`group flex items-center rounded-lg ${active ? 'bg-brand-50 dark:bg-brand-900/40' : 'hover:bg-gray-100 dark:hover:bg-gray-800'}`}
      data-testid="conversation-item"
      data-conversation-id={conversation._id}
    >
      <button
        type="button"
        onClick={onOpen}
        aria-current={active ? 'page' : undefined}
        className={`min-w-0 flex-1 truncate px-3 py-2 text-left text-sm ${active ? 'font-medium text-brand-800 dark:text-brand-100' : 'text-gray-700 dark:text-gray-300'}`}
      >
        {title}
      </button>
      <DropdownMenu
        label={t('chat.conversationActions', { title })}
        button={<Icon name="more" className="size-4" />}
        buttonClassName="mr-1 rounded-md p-1.5 text-gray-500 hover:bg-gray-200 hover:text-gray-800 dark:text-gray-400 dark:hover:bg-gray-700 dark:hover:text-gray-100"
        entries={[
          {
            key: 'rename',
            label: t('chat.rename'),
            onSelect: () => setDraft(conversation.title),
            testId: 'conversation-rename',
          },
          { key: 'delete', label: t('chat.delete'), onSelect: onDelete, testId: 'conversation-delete' },
        ]}
      />
    </li>
  );
}
