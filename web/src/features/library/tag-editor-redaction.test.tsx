/** @jest-environment ./web/test/jsdom-with-fetch.cjs */
// With the company's redaction on, a recording's tags may be saved with a number hidden: the
// editor hands the list the notice every form that saves free text shows.
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeGateway, json, renderPage } from '../../../test/fake-gateway';
import { TagEditor } from './tag-editor';

const NOTICE =
  'Removed before it was saved: card numbers, account numbers, IDs, e-mail addresses or phone numbers (1).';
const FILE = 'f0000000-0000-4000-8000-000000000001';

afterEach(() => localStorage.clear());

/** A recording without tags in its row, the server answering `answer` to its tags' PUT; adds `typed`. */
async function addTag(answer: object, typed: string) {
  const calls = fakeGateway((call) =>
    call.method === 'PUT' && call.path === `/api/files/${FILE}/tags` ? json(answer) : undefined,
  );
  const onRedacted = jest.fn();
  const user = userEvent.setup();
  renderPage(
    <TagEditor
      fileId={FILE}
      fileName="call.wav"
      tags={[]}
      suggestions={[]}
      onError={() => undefined}
      onRedacted={onRedacted}
      onTagClick={() => undefined}
    />,
    { path: '/', url: '/', role: 'USER' },
  );
  await user.click(screen.getByTestId('add-tag'));
  await user.type(screen.getByTestId('tag-input'), `${typed}{Enter}`);
  await waitFor(() => expect(calls.some((call) => call.method === 'PUT')).toBe(true));
  return onRedacted;
}

describe('tag editor and redaction', () => {
  it('a recording’s tags saved with a number hidden tell the list the notice to show', async () => {
    const onRedacted = await addTag(
      { fileId: FILE, tags: ['card:[card number]'], redacted: 1 },
      'card:4111111111111111',
    );
    await waitFor(() => expect(onRedacted).toHaveBeenCalledWith(NOTICE));
  });

  it('says nothing when the tags were saved as typed', async () => {
    const onRedacted = await addTag({ fileId: FILE, tags: ['urgent'] }, 'urgent');
    // The field closes once the save is answered.
    await waitFor(() => expect(screen.queryByTestId('tag-input')).toBeNull());
    expect(onRedacted).not.toHaveBeenCalled();
  });
});
