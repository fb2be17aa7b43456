/** @jest-environment ./web/test/jsdom-with-fetch.cjs */
// A save that the company's redaction changed says so, with the same sentence in every form and
// every language; a save it did not change says nothing more.
import { afterEach, describe, expect, it } from '@jest/globals';
import { screen } from '@testing-library/react';
import type { ReactElement } from 'react';
import { renderPage } from '../../test/fake-gateway';
import { RedactedNotice, useRedactedNotice } from './redacted-notice';

afterEach(() => localStorage.clear());

function Told({ redacted }: { redacted: number | undefined }): ReactElement {
  return <p data-testid="told">{useRedactedNotice()(redacted) ?? 'nothing'}</p>;
}

const at = { path: '/', url: '/', role: 'USER' } as const;

describe('redacted notice', () => {
  it.each([
    ['en', 'Removed before it was saved: card numbers, account numbers, IDs, e-mail addresses or phone numbers (2).'],
    ['fr', "Retirés avant l'enregistrement"],
    ['et', 'Enne salvestamist eemaldati'],
    ['lv', 'Pirms saglabāšanas izņemti'],
  ] as const)('tells how many spans were hidden in %s', (language, text) => {
    renderPage(<Told redacted={2} />, { ...at, language });
    expect(screen.getByTestId('told')).toHaveTextContent(text);
    expect(screen.getByTestId('told')).toHaveTextContent('(2)');
  });

  it('says nothing when nothing was hidden (or the answer had no count)', () => {
    renderPage(
      <>
        <Told redacted={undefined} />
        <RedactedNotice redacted={0} />
      </>,
      at,
    );
    expect(screen.getByTestId('told')).toHaveTextContent('nothing');
    expect(screen.queryByTestId('redacted-notice')).toBeNull();
  });

  it('shows inline inside the message a save shows', () => {
    renderPage(<RedactedNotice redacted={1} />, at);
    expect(screen.getByTestId('redacted-notice')).toHaveTextContent(
      'Removed before it was saved: card numbers, account numbers, IDs, e-mail addresses or phone numbers (1).',
    );
  });
});
