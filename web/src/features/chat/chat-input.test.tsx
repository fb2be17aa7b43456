import { describe, expect, it, jest } from '@jest/globals';
import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import type { ReactElement } from 'react';
import { I18nextProvider } from 'react-i18next';
import { en } from '../../i18n/locales/en';
import { ChatInput } from './chat-input';

const i18n = i18next.createInstance();
void i18n.init({ lng: 'en', resources: { en: { translation: en } }, interpolation: { escapeValue: false } });

function setup(props: Partial<Parameters<typeof ChatInput>[0]> = {}) {
  const onSend = jest.fn<(text: string) => void>();
  const onStop = jest.fn<() => void>();
  const ui = (extra: Partial<Parameters<typeof ChatInput>[0]>): ReactElement => (
    <I18nextProvider i18n={i18n}>
      <ChatInput streaming={false} onSend={onSend} onStop={onStop} {...props} {...extra} />
    </I18nextProvider>
  );
  const view = render(ui({}));
  return {
    onSend,
    onStop,
    input: screen.getByPlaceholderText('Ask Anything...'),
    rerender: (extra: Partial<Parameters<typeof ChatInput>[0]>) => view.rerender(ui(extra)),
  };
}

describe('chat input', () => {
  it('sends on Enter and clears the box', async () => {
    const { onSend, input } = setup();
    await userEvent.type(input, 'What was agreed?{Enter}');
    expect(onSend).toHaveBeenCalledWith('What was agreed?');
    expect(input).toHaveValue('');
  });

  it('writes a new line on Shift+Enter instead of sending', async () => {
    const { onSend, input } = setup();
    await userEvent.type(input, 'line one{Shift>}{Enter}{/Shift}line two');
    expect(onSend).not.toHaveBeenCalled();
    expect(input).toHaveValue('line one\nline two');
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(onSend).toHaveBeenCalledWith('line one\nline two');
  });

  it('does not send while an input method is composing', () => {
    const { onSend, input } = setup();
    fireEvent.change(input, { target: { value: 'かな' } });
    fireEvent.keyDown(input, { key: 'Enter', isComposing: true });
    expect(onSend).not.toHaveBeenCalled();
  });

  it('keeps Send disabled for an empty or blank message, and Enter does nothing then', async () => {
    const { onSend, input } = setup();
    const send = screen.getByRole('button', { name: 'Send' });
    expect(send).toBeDisabled();
    await userEvent.type(input, '   {Enter}');
    expect(send).toBeDisabled();
    expect(onSend).not.toHaveBeenCalled();
  });

  it('shows Stop instead of Send while the reply streams', async () => {
    const { onStop, onSend, input, rerender } = setup();
    rerender({ streaming: true });
    expect(screen.queryByRole('button', { name: 'Send' })).toBeNull();
    await userEvent.type(input, 'next{Enter}');
    expect(onSend).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Stop' }));
    expect(onStop).toHaveBeenCalledTimes(1);
  });
});
