/** @jest-environment ./web/test/jsdom-with-fetch.cjs */
// With the company's redaction on, a tag's new name may be saved with a number hidden: the person
// is told, with the notice every form that saves free text shows (the count comes in a header).
import { afterEach, describe, expect, it } from '@jest/globals';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { REDACTED_HEADER } from '@earshot/contracts/constants';
import { fakeGateway, json, renderPage } from '../../../test/fake-gateway';
import TagsPage from './tags-page';

const NOTICE =
  'Removed before it was saved: card numbers, account numbers, IDs, e-mail addresses or phone numbers (1).';

afterEach(() => localStorage.clear());

describe('tags and redaction', () => {
  it('a rename whose new name redaction changed says so beside “Tag renamed”; one it did not, says nothing more', async () => {
    let tags = [{ name: 'billing', count: 1 }];
    fakeGateway((call) => {
      if (call.path === '/api/tags' && call.method === 'GET') return json(tags);
      if (call.method === 'PUT') {
        const to = (call.body as { name: string }).name;
        const hidden = /\d{4}/.test(to);
        tags = [{ name: hidden ? 'card [card number]' : to, count: 1 }];
        return { status: 200, body: tags, headers: hidden ? { [REDACTED_HEADER]: '1' } : {} };
      }
      return undefined;
    });
    const user = userEvent.setup();
    renderPage(<TagsPage />, { path: '/tags', url: '/tags', role: 'ADMIN' });
    await user.click(await screen.findByRole('button', { name: 'Rename billing' }));
    await user.clear(screen.getByTestId('rename-tag-input'));
    await user.type(screen.getByTestId('rename-tag-input'), 'card 4111111111111111{Enter}');
    expect(await screen.findByRole('link', { name: 'card [card number]' })).toBeInTheDocument();
    expect(screen.getByTestId('toast-success')).toHaveTextContent(NOTICE);

    await user.click(screen.getByRole('button', { name: 'Rename card [card number]' }));
    await user.clear(screen.getByTestId('rename-tag-input'));
    await user.type(screen.getByTestId('rename-tag-input'), 'refunds{Enter}');
    expect(await screen.findByRole('link', { name: 'refunds' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByTestId('toast-success').at(-1)).not.toHaveTextContent('Removed'));
  });
});
