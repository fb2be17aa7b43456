import { useState, type KeyboardEvent, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { MESSAGE_MAX } from './model';

/** Enter sends; Shift+Enter (or Enter while an input method is composing) writes a new line. */
export function isSendKey(event: Pick<KeyboardEvent, 'key' | 'shiftKey' | 'nativeEvent'>): boolean {
  return event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing;
}

/** The message box: Send, or Stop while a reply is being written. */
export function ChatInput({
  streaming,
  blocked = false,
  onSend,
  onStop,
}: {
  streaming: boolean;
  /** A reply is being written elsewhere (another conversation): wait for it. */
  blocked?: boolean;
  onSend: (text: string) => void;
  onStop: () => void;
}): ReactElement {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const canSend = text.trim().length > 0 && !streaming && !blocked;

  const send = () => {
    if (!canSend) return;
    onSend(text);
    setText('');
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (!isSendKey(event)) return;
    event.preventDefault();
    send();
  };

  return (
    <form
      className="flex items-end gap-2 rounded-2xl border border-gray-300 bg-white p-2 shadow-sm focus-within:border-brand-500 focus-within:ring-2 focus-within:ring-brand-500/30 dark:border-gray-700 dark:bg-gray-900"
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
    >
      <textarea
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
        placeholder={t('chat.placeholder')}
        aria-label={t('chat.inputLabel')}
        maxLength={MESSAGE_MAX}
        rows={1}
        data-testid="chat-input"
        className="field-sizing-content max-h-48 min-h-10 flex-1 resize-none bg-transparent px-2 py-2 text-sm text-gray-900 placeholder:text-gray-500 focus:outline-none dark:text-white dark:placeholder:text-gray-400"
      />
      {streaming ? (
        <button
          type="button"
          onClick={onStop}
          data-testid="chat-stop"
          className="h-10 rounded-xl border border-gray-300 px-4 text-sm font-medium text-gray-800 hover:bg-gray-50 dark:border-gray-600 dark:text-gray-100 dark:hover:bg-gray-800"
        >
          <span aria-hidden="true" className="mr-1.5 inline-block size-2.5 rounded-sm bg-current align-middle" />
          {t('chat.stop')}
        </button>
      ) : (
        <button
          type="submit"
          disabled={!canSend}
          data-testid="chat-send"
          className="h-10 rounded-xl bg-brand-600 px-4 text-sm font-medium text-on-brand hover:bg-brand-700 disabled:cursor-not-allowed disabled:opacity-50"
        >
          {t('chat.send')}
        </button>
      )}
    </form>
  );
}
