import { describe, expect, it, jest } from '@jest/globals';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { useState, type ReactElement } from 'react';
import { I18nextProvider } from 'react-i18next';
import { en } from '../../i18n/locales/en';
import { FeedbackControl } from './feedback-control';
import type { Feedback, Rating } from './model';

const i18n = i18next.createInstance();
void i18n.init({ lng: 'en', resources: { en: { translation: en } }, interpolation: { escapeValue: false } });

type Save = (rating: Rating, comment?: string) => Promise<boolean>;

/** The message list's role: what the server kept comes back as the `feedback` prop. */
function Harness({
  save,
  initial = null,
  children,
}: {
  save: Save;
  initial?: Feedback | null;
  children?: ReactElement;
}): ReactElement {
  const [feedback, setFeedback] = useState<Feedback | null>(initial);
  const onSave: Save = async (rating, comment) => {
    const ok = await save(rating, comment);
    if (ok) setFeedback({ rating, comment: comment ?? null });
    return ok;
  };
  return (
    <I18nextProvider i18n={i18n}>
      <FeedbackControl feedback={feedback} onSave={onSave}>
        {children}
      </FeedbackControl>
    </I18nextProvider>
  );
}

describe('feedback control', () => {
  it('saves a thumbs-up at once, then an optional comment, and shows the saved state', async () => {
    const save = jest.fn<Save>().mockResolvedValue(true);
    render(<Harness save={save} />);
    await userEvent.click(screen.getByRole('button', { name: 'Good answer' }));
    expect(save).toHaveBeenLastCalledWith('up', undefined);
    expect(screen.getByRole('button', { name: 'Good answer' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('button', { name: 'Bad answer' })).toHaveAttribute('aria-pressed', 'false');

    await userEvent.type(screen.getByLabelText('Add a comment (optional)'), '  Spot on  ');
    await userEvent.click(screen.getByRole('button', { name: 'Send feedback' }));
    expect(save).toHaveBeenLastCalledWith('up', 'Spot on');
    expect(screen.queryByLabelText('Add a comment (optional)')).toBeNull();
    expect(screen.getByTestId('feedback-saved')).toHaveTextContent('Thanks for your feedback: “Spot on”');
  });

  it('changes the rating and shows the saved rating from the server on load', async () => {
    const save = jest.fn<Save>().mockResolvedValue(true);
    render(<Harness save={save} initial={{ rating: 'up', comment: null }} />);
    expect(screen.getByRole('button', { name: 'Good answer' })).toHaveAttribute('aria-pressed', 'true');
    await userEvent.click(screen.getByRole('button', { name: 'Bad answer' }));
    expect(save).toHaveBeenLastCalledWith('down', undefined);
    expect(screen.getByRole('button', { name: 'Bad answer' })).toHaveAttribute('aria-pressed', 'true');
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.getByTestId('feedback-saved')).toHaveTextContent('Thanks for your feedback');
  });

  it('says so when the server refuses, and keeps the previous state', async () => {
    const save = jest.fn<Save>().mockResolvedValue(false);
    render(<Harness save={save} />);
    await userEvent.click(screen.getByRole('button', { name: 'Bad answer' }));
    expect(screen.getByRole('alert')).toHaveTextContent('The feedback could not be saved.');
    expect(screen.getByRole('button', { name: 'Bad answer' })).toHaveAttribute('aria-pressed', 'false');
    expect(screen.queryByLabelText('Add a comment (optional)')).toBeNull();
  });

  it("opens the comment box on a row of its own, leaving the reply's other actions beside the thumbs, and brings it into view", async () => {
    const scrolled = jest.fn();
    HTMLElement.prototype.scrollIntoView = scrolled;
    render(
      <Harness save={jest.fn<Save>().mockResolvedValue(true)}>
        <button type="button">Regenerate</button>
      </Harness>,
    );
    const row = screen.getByRole('button', { name: 'Good answer' }).parentElement!;
    expect(row).toContainElement(screen.getByRole('button', { name: 'Regenerate' }));
    await userEvent.click(screen.getByRole('button', { name: 'Good answer' }));
    const box = screen.getByLabelText('Add a comment (optional)');
    expect(row).not.toContainElement(box);
    expect(row).toContainElement(screen.getByRole('button', { name: 'Regenerate' }));
    expect(scrolled).toHaveBeenCalledWith({ block: 'nearest' });
  });
});
