/** @jest-environment ./web/test/jsdom-with-fetch.cjs */
// A transcript address that names nothing this person may see says "not found" and where to go,
// rather than a fetch failure; other failures keep the general message.
import { describe, expect, it } from '@jest/globals';
import { screen } from '@testing-library/react';
import { fakeGateway, json, renderPage } from '../../../test/fake-gateway';
import TranscriptViewPage from './transcript-view-page';

const FILE = '00000000-0000-4000-8000-0000000000f9';

function open(status: number) {
  fakeGateway((call) =>
    call.method === 'GET' && call.path === `/api/transcripts/file/${FILE}`
      ? json({ code: status === 404 ? 'NOT_FOUND' : 'INTERNAL', message: 'refused' }, status)
      : undefined,
  );
  renderPage(<TranscriptViewPage />, { path: '/transcripts/:id', url: `/transcripts/${FILE}`, role: 'USER' });
}

describe('a transcript that cannot be shown', () => {
  it('unknown (or another company’s): not found, with a link to the library', async () => {
    open(404);
    const error = await screen.findByTestId('viewer-error');
    expect(error).toHaveTextContent('This transcript was not found');
    expect(screen.getByRole('link', { name: 'Open your transcripts' })).toHaveAttribute('href', '/transcripts');
  });

  it('a server failure: the general message', async () => {
    open(500);
    expect(await screen.findByTestId('viewer-error')).toHaveTextContent('Failed to fetch transcript');
  });
});
