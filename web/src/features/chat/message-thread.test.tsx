import { describe, expect, it } from '@jest/globals';
import { render, screen, within } from '@testing-library/react';
import i18next from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { en } from '../../i18n/locales/en';
import { MessageThread } from './message-thread';
import type { Message } from './model';

const i18n = i18next.createInstance();
void i18n.init({ lng: 'en', resources: { en: { translation: en } }, interpolation: { escapeValue: false } });

const question = (id: string, content: string): Message => ({
  _id: id,
  conversationId: 'c1',
  role: 'user',
  content,
  status: 'complete',
  model: null,
  error: null,
  citations: [],
  usage: null,
  feedback: null,
  createdAt: '2026-01-01T00:00:00Z',
});

function thread(redaction: { userMessageId: string; count: number } | null) {
  return render(
    <I18nextProvider i18n={i18n}>
      <MessageThread
        items={[question('u1', 'What is new?'), question('u2', 'Charge card:[card number], please')]}
        pending={null}
        busy={false}
        gptId={null}
        onRegenerate={() => undefined}
        onRetryPending={() => undefined}
        onFeedback={async () => true}
        redaction={redaction}
      />
    </I18nextProvider>,
  );
}

describe('a question redaction hid numbers in', () => {
  it('carries a notice under it, and only it', () => {
    thread({ userMessageId: 'u2', count: 1 });
    const notices = screen.getAllByTestId('question-redacted');
    expect(notices).toHaveLength(1);
    expect(notices[0]).toHaveTextContent(
      'Removed from your question before it was stored or sent to the AI: card numbers, account numbers, IDs, e-mail addresses or phone numbers (1).',
    );
    const bubble = notices[0]!.parentElement!;
    expect(within(bubble).getByTestId('user-message')).toHaveTextContent('Charge card:[card number], please');
  });

  it('shows no notice when nothing was hidden', () => {
    thread(null);
    expect(screen.queryByTestId('question-redacted')).toBeNull();
  });
});
