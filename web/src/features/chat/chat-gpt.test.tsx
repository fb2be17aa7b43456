/** @jest-environment ./web/test/jsdom-with-fetch.cjs */
// The chat page with custom GPTs, on the app's store and RTK Query API; only the network is faked.
// "New chat with…" lists the GPTs the person may use; the chosen GPT's intro offers its starters;
// the conversation is created with it; its file citations open the file at the cited page.
import { afterEach, describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeGateway, json, renderPage } from '../../../test/fake-gateway';
import ChatPage from './chat-page';
import type { GptOption, Message } from './model';

const GPT = 'd0000000-0000-4000-8000-000000000001';
const CONVERSATION = 'b0000000-0000-4000-8000-000000000001';
const FILE = 'f0000000-0000-4000-8000-000000000001';
const RECORDING = 'f0000000-0000-4000-8000-000000000009';
const handbook: GptOption = {
  _id: GPT,
  name: 'Handbook',
  description: 'Answers from the staff handbook',
  avatar: null,
  starters: ['How many holidays do I get?', 'Who approves expenses?'],
};
const conversation = {
  _id: CONVERSATION,
  title: 'Holidays',
  createdAt: '2026-01-02T10:00:00.000Z',
  updatedAt: '2026-01-02T10:00:00.000Z',
  lastMessageAt: null,
  fileId: null,
  customGptId: GPT,
};
const message = (over: Partial<Message>): Message => ({
  _id: 'm1',
  conversationId: CONVERSATION,
  role: 'user',
  content: '',
  status: 'complete',
  model: null,
  error: null,
  citations: [],
  usage: null,
  feedback: null,
  createdAt: '2026-01-02T10:00:00.000Z',
  ...over,
});

function gateway(extra: Parameters<typeof fakeGateway>[0] = () => undefined) {
  return fakeGateway(
    (call) =>
      extra(call) ??
      (call.path === '/api/chat/models'
        ? json({
            models: [
              { _id: 'e1', name: 'One', isDefault: true },
              { _id: 'e2', name: 'Two', isDefault: false },
            ],
            builtIn: false,
          })
        : call.path === '/api/chat/conversations' && call.method === 'GET'
          ? json({ items: [conversation], page: 1, pageSize: 50, total: 1, totalPages: 1 })
          : call.path === '/api/custom-gpt/dropdown'
            ? json([
                handbook,
                {
                  _id: 'd0000000-0000-4000-8000-000000000002',
                  name: 'Sales coach',
                  description: null,
                  avatar: null,
                  starters: [],
                },
              ])
            : undefined),
  );
}

afterEach(() => localStorage.clear());

describe('chat with a custom GPT', () => {
  it('picks a GPT from “New chat with…”, shows its intro and starters, and starts the conversation with it from a starter', async () => {
    const calls = gateway((call) => {
      if (call.path === '/api/chat/conversations' && call.method === 'POST')
        return json({ ...conversation, title: 'New conversation' }, 201);
      return undefined;
    });
    const user = userEvent.setup();
    renderPage(<ChatPage />, { path: '/chat', url: '/chat', role: 'USER' });
    expect(await screen.findByTestId('model-picker')).toBeInTheDocument();
    // The picker's list is asked for only when the picker opens.
    expect(calls.some((call) => call.path === '/api/custom-gpt/dropdown')).toBe(false);

    await user.click(screen.getByRole('button', { name: 'New chat with…' }));
    const picker = await screen.findByTestId('gpt-picker');
    expect(await within(picker).findByText('Sales coach')).toBeInTheDocument();
    await user.click(within(picker).getByText('Handbook'));

    const intro = await screen.findByTestId('gpt-intro');
    expect(within(intro).getByRole('heading', { name: 'Handbook' })).toBeInTheDocument();
    expect(within(intro).getByText('Answers from the staff handbook')).toBeInTheDocument();
    // A GPT answers with its own model: no model choice beside it.
    expect(screen.queryByTestId('model-picker')).toBeNull();
    await user.click(within(intro).getByRole('button', { name: 'How many holidays do I get?' }));

    await waitFor(() => expect(calls.some((call) => call.path.endsWith('/chat/stream'))).toBe(true));
    expect(calls.find((call) => call.path === '/api/chat/conversations' && call.method === 'POST')!.body).toEqual({
      customGptId: GPT,
    });
    const stream = calls.find((call) => call.path.endsWith('/chat/stream'))!;
    expect(stream.path).toBe(`/api/chat/conversations/${CONVERSATION}/chat/stream`);
    expect(stream.body).toEqual({ message: 'How many holidays do I get?' });
  });

  it('names the GPT above its conversation; file citations open the file at the page in a new tab, transcript ones the viewer', async () => {
    gateway((call) => {
      if (call.path === `/api/chat/conversations/${CONVERSATION}/messages`) {
        return json({
          items: [
            message({ _id: 'm1', content: 'How many holidays do I get?' }),
            message({
              _id: 'm2',
              role: 'assistant',
              content: 'Twenty-five days [1].',
              model: 'e1',
              citations: [
                {
                  kind: 'file',
                  fileId: FILE,
                  fileName: 'handbook.pdf',
                  page: 2,
                  index: 1,
                  quote: 'Staff get 25 days of paid holiday.',
                },
                {
                  kind: 'file',
                  fileId: 'f0000000-0000-4000-8000-000000000002',
                  fileName: 'faq.md',
                  index: 2,
                  quote: 'Ask HR.',
                },
                {
                  fileId: RECORDING,
                  fileName: 'call.wav',
                  speaker: 'SPEAKER_00',
                  start: 75,
                  text: 'we agreed on holidays',
                  link: `/transcripts/${RECORDING}?t=75`,
                },
              ],
            }),
          ],
        });
      }
      return undefined;
    });
    renderPage(<ChatPage />, { path: '/chat', url: `/chat?c=${CONVERSATION}&gpt=${GPT}`, role: 'USER' });
    expect(await screen.findByTestId('gpt-banner')).toHaveTextContent('Chatting with Handbook');

    const [paged, unpaged] = (await screen.findAllByTestId('file-citation')) as [HTMLElement, HTMLElement];
    expect(paged).toHaveTextContent('[1] handbook.pdf · page 2');
    expect(paged).toHaveAttribute('href', `/api/custom-gpt/${GPT}/files/${FILE}#page=2`);
    expect(paged).toHaveAttribute('target', '_blank');
    expect(paged).toHaveAttribute('rel', 'noopener noreferrer');
    expect(unpaged).toHaveTextContent('[2] faq.md');
    expect(unpaged.getAttribute('href')).toBe(`/api/custom-gpt/${GPT}/files/f0000000-0000-4000-8000-000000000002`);
    expect(screen.getByRole('link', { name: /call\.wav/ })).toHaveAttribute('href', `/transcripts/${RECORDING}?t=75`);
  });
});
