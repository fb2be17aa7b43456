import { lazy, Suspense, useState, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../lib/api';
import { Icon } from '../../components/icons';
import { useConversationsQuery, useDeleteConversationMutation, useRenameConversationMutation } from './chat-api';
import { ConversationItem } from './conversation-item';
import { CONVERSATION_PAGE_MAX, CONVERSATION_PAGE_SIZE, SEARCH_DEBOUNCE_MS, type Conversation } from './model';
import { useDebouncedValue } from './use-debounced-value';

// The confirmation (with the modal it opens) loads when a delete is first asked for: the chat is
// the signed-in shell, which has a size budget (scripts/bench-bundle.mjs).
const ConfirmDialog = lazy(() =>
  import('../../components/confirm-dialog').then((module) => ({ default: module.ConfirmDialog })),
);

/** The person's conversations, newest first, searched on the server by title and message text. */
export function ConversationList({
  activeId,
  onOpen,
  onNew,
  onNewWithGpt,
  onDeleted,
}: {
  activeId: string | null;
  /** `fileId`: the recording a conversation is about, if it is about one; `gptId`: its custom GPT. */
  onOpen: (id: string, fileId: string | null, gptId: string | null) => void;
  onNew: () => void;
  onNewWithGpt: () => void;
  onDeleted: (id: string) => void;
}): ReactElement {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [pageSize, setPageSize] = useState(CONVERSATION_PAGE_SIZE);
  const query = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const { data, isLoading, isError } = useConversationsQuery({ search: query, pageSize });
  const [rename] = useRenameConversationMutation();
  const [remove, removing] = useDeleteConversationMutation();
  const [confirming, setConfirming] = useState<Conversation | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const items = data?.items ?? [];

  const onRename = async (id: string, title: string) => {
    try {
      await rename({ id, title }).unwrap();
      setFailure(null);
      return true;
    } catch (error) {
      setFailure(errorMessage(error) ?? t('chat.renameFailed'));
      return false;
    }
  };

  const onDelete = async () => {
    if (!confirming) return;
    try {
      await remove(confirming._id).unwrap();
      onDeleted(confirming._id);
      setFailure(null);
    } catch (error) {
      setFailure(errorMessage(error) ?? t('chat.deleteFailed'));
    }
    setConfirming(null);
  };

  return (
    <nav aria-label={t('chat.conversations')} className="flex min-h-0 flex-col gap-3">
      <button
        type="button"
        onClick={onNew}
        data-testid="new-chat"
        className="inline-flex h-10 items-center justify-center gap-2 rounded-lg bg-brand-600 px-4 text-sm font-medium text-on-brand hover:bg-brand-700"
      >
        <span aria-hidden="true" className="text-lg leading-none">
          +
        </span>
        {t('chat.newChat')}
      </button>
      <button
        type="button"
        onClick={onNewWithGpt}
        data-testid="new-chat-with"
        className="-mt-1 h-9 rounded-lg border border-gray-300 px-3 text-sm font-medium text-gray-800 hover:bg-gray-50 dark:border-gray-700 dark:text-gray-200 dark:hover:bg-gray-800"
      >
        {t('chat.newChatWith')}
      </button>
      <div className="relative">
        <Icon
          name="search"
          className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-gray-500"
        />
        <input
          type="search"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          placeholder={t('chat.searchPlaceholder')}
          aria-label={t('chat.searchPlaceholder')}
          data-testid="conversation-search"
          className="h-10 w-full rounded-lg border border-gray-300 bg-white pr-3 pl-9 text-sm text-gray-900 placeholder:text-gray-500 focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none dark:border-gray-700 dark:bg-gray-900 dark:text-white dark:placeholder:text-gray-400"
        />
      </div>
      {failure ? (
        <p role="alert" className="text-xs text-red-700 dark:text-red-300">
          {failure}
        </p>
      ) : null}
      <div className="min-h-0 flex-1 overflow-y-auto">
        {isLoading ? (
          <p className="px-3 py-2 text-sm text-gray-500 dark:text-gray-400">{t('common.loading')}</p>
        ) : isError ? (
          <p role="alert" className="px-3 py-2 text-sm text-red-700 dark:text-red-300">
            {t('chat.listError')}
          </p>
        ) : items.length === 0 ? (
          <p className="px-3 py-2 text-sm text-gray-500 dark:text-gray-400" data-testid="conversations-empty">
            {query ? t('chat.noResults') : t('chat.noConversations')}
          </p>
        ) : (
          <ul className="flex flex-col gap-0.5" data-testid="conversation-list">
            {items.map((conversation) => (
              <ConversationItem
                key={conversation._id}
                conversation={conversation}
                active={conversation._id === activeId}
                onOpen={() => onOpen(conversation._id, conversation.fileId, conversation.customGptId)}
                onRename={(title) => onRename(conversation._id, title)}
                onDelete={() => setConfirming(conversation)}
              />
            ))}
          </ul>
        )}
        {data && data.total > items.length && pageSize < CONVERSATION_PAGE_MAX ? (
          <button
            type="button"
            onClick={() => setPageSize((size) => Math.min(CONVERSATION_PAGE_MAX, size + CONVERSATION_PAGE_SIZE))}
            className="mt-2 w-full rounded-lg px-3 py-2 text-sm font-medium text-brand-700 hover:bg-gray-100 dark:text-brand-300 dark:hover:bg-gray-800"
          >
            {t('chat.showMore')}
          </button>
        ) : null}
      </div>
      {confirming ? (
        <Suspense fallback={null}>
          <ConfirmDialog
            open
            message={t('chat.deleteConfirm')}
            confirmLabel={t('chat.delete')}
            cancelLabel={t('chat.cancel')}
            busy={removing.isLoading}
            onConfirm={() => void onDelete()}
            onCancel={() => setConfirming(null)}
          />
        </Suspense>
      ) : null}
    </nav>
  );
}
