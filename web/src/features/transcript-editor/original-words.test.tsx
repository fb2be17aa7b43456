/** @jest-environment ./web/test/jsdom-with-fetch.cjs */
// "Show original": the unredacted words load only when asked for, once per opening (each
// opening is one audited read on the server), read-only under a banner saying the read is recorded.
// With the app's store and RTK Query API; only `fetch` is faked.
import { describe, expect, it } from '@jest/globals';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { OriginalWordsDto } from '@earshot/contracts';
import { fakeGateway, json, renderPage } from '../../../test/fake-gateway';
import { ShowOriginal } from './original-words';

const FILE = 'f0000000-0000-4000-8000-000000000002';
const original: OriginalWordsDto = {
  fileId: FILE,
  speakerSegments: [
    {
      _id: 's-1',
      speakerId: 'speaker_1',
      start: 65,
      end: 70,
      text: 'my card is 4539 1488',
      words: ['my', 'card', 'is', '4539', '1488'].map((text, i) => ({
        _id: `w-${i}`,
        text,
        start: 65 + i,
        end: 65.5 + i,
      })),
    },
  ],
};
const speakers = [
  { id: 'speaker_0', label: 'Agent', channel: 0, color: '#000' },
  { id: 'speaker_1', label: '', channel: 1, color: '#111' },
];

describe('show original', () => {
  it('loads the original on each opening only, and shows it read-only under the banner', async () => {
    const calls = fakeGateway((call) =>
      call.path === `/api/transcripts/${FILE}/original` && call.method === 'GET' ? json(original) : undefined,
    );
    const user = userEvent.setup();
    renderPage(<ShowOriginal fileId={FILE} speakers={speakers} />, {
      path: '/transcripts/:id',
      url: `/transcripts/${FILE}`,
      role: 'ADMIN',
    });
    const reads = () => calls.filter((call) => call.path.endsWith('/original')).length;
    expect(reads()).toBe(0);
    await user.click(screen.getByRole('button', { name: 'Show original' }));
    const region = await screen.findByRole('region', { name: 'Unredacted original' });
    expect(within(region).getByRole('note')).toHaveTextContent('this read is recorded in the audit log');
    expect(await within(region).findByText('my card is 4539 1488')).toBeInTheDocument();
    // Unnamed speakers read as their place in the list; nothing in it can be edited.
    expect(within(region).getByText('Speaker 2')).toBeInTheDocument();
    expect(within(region).getByText('1:05')).toBeInTheDocument();
    expect(within(region).queryByRole('textbox')).toBeNull();
    expect(reads()).toBe(1);

    await user.click(screen.getByRole('button', { name: 'Hide original' }));
    expect(screen.queryByRole('region', { name: 'Unredacted original' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Show original' }));
    expect(await screen.findByText('my card is 4539 1488')).toBeInTheDocument();
    expect(reads()).toBe(2);
  });

  it('says when the server refuses', async () => {
    fakeGateway((call) =>
      call.path === `/api/transcripts/${FILE}/original`
        ? json({ message: 'Original not found', code: 'NOT_FOUND' }, 404)
        : undefined,
    );
    const user = userEvent.setup();
    renderPage(<ShowOriginal fileId={FILE} speakers={speakers} />, {
      path: '/transcripts/:id',
      url: `/transcripts/${FILE}`,
      role: 'ADMIN',
    });
    await user.click(screen.getByRole('button', { name: 'Show original' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The original could not be loaded: Original not found');
  });
});
