/** @jest-environment ./web/test/jsdom-with-fetch.cjs */
// The legal hold's badge: one line, since when (as the reader's language writes a day) and why.
import { describe, expect, it } from '@jest/globals';
import { screen } from '@testing-library/react';
import { renderPage } from '../../../test/fake-gateway';
import { HoldBadge } from './hold-control';

const AT = '2026-11-28T10:30:00.000Z';
const day = (language: string) =>
  new Intl.DateTimeFormat(language, { year: 'numeric', month: 'short', day: 'numeric' }).format(new Date(AT));

const render = (language: 'en' | 'fr' | 'et' | 'lv', props: { reason?: string | null; at?: string | null }) =>
  renderPage(<HoldBadge {...props} />, { path: '/', url: '/', role: 'ADMIN', language });

describe('the hold line', () => {
  it.each([
    ['en', 'Held', `Legal hold since ${day('en')}: Dispute 9`],
    ['fr', 'Conservé', `Conservation légale depuis le ${day('fr')} : Dispute 9`],
    ['et', 'Hoiul', `Õiguslik hoid alates ${day('et')}: Dispute 9`],
    ['lv', 'Aizturēts', `Juridiskā aizturēšana kopš ${day('lv')}: Dispute 9`],
  ] as const)('in %s reads as one sentence with the day as Intl writes it', (language, word, line) => {
    render(language, { reason: 'Dispute 9', at: AT });
    const badge = screen.getByTestId('hold-badge');
    expect(badge).toHaveAttribute('title', line);
    expect(screen.getByTestId('hold-line').textContent).toBe(line);
    // The short word is for the eye; a screen reader hears the line alone, not "Held: Legal hold…".
    expect(screen.getByText(word)).toHaveAttribute('aria-hidden', 'true');
    expect(badge.textContent).not.toMatch(/\d{1,2}\/\d{1,2}\/\d{4}|\d{4}-\d{2}-\d{2}/);
  });

  it('says since when without a reason, why without a date, and just "Held" with neither', () => {
    const first = render('en', { at: AT });
    expect(screen.getByTestId('hold-badge')).toHaveAttribute('title', `Legal hold since ${day('en')}`);
    first.unmount();
    const second = render('en', { reason: 'Audit 3' });
    expect(screen.getByTestId('hold-badge')).toHaveAttribute('title', 'Legal hold: Audit 3');
    second.unmount();
    render('en', {});
    const badge = screen.getByTestId('hold-badge');
    expect(badge).not.toHaveAttribute('title');
    expect(screen.queryByTestId('hold-line')).toBeNull();
    expect(badge).toHaveTextContent('Held');
  });
});
