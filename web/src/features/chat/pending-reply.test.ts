import { describe, expect, it } from '@jest/globals';
import type { Message } from './model';
import { isCovered, pendingReducer, storedBeside, type PendingReply } from './pending-reply';

function message(id: string, role: Message['role'], content = id): Message {
  return {
    _id: id,
    conversationId: 'c1',
    role,
    content,
    status: 'complete',
    model: null,
    error: null,
    citations: [],
    usage: null,
    feedback: null,
    createdAt: '2025-01-01T00:00:00Z',
  };
}

const begin = (userText: string | null, replacedId: string | null = null) =>
  pendingReducer(null, {
    type: 'begin',
    conversationId: 'c1',
    request: { message: 'q' },
    userText,
    replacedId,
  }) as PendingReply;

describe('pending reply', () => {
  it('shows the question as stored once redaction hid a number in it, and as typed otherwise', () => {
    const start = (question: string, redacted: number) =>
      pendingReducer(begin('card:4111111111111111, thanks'), {
        type: 'event',
        event: {
          type: 'start',
          data: {
            userMessageId: 'u2',
            model: 'm',
            builtIn: false,
            title: 't',
            conversationId: 'c1',
            question,
            redacted,
          },
        },
      })!;
    expect(start('card:[card number], thanks', 1).userText).toBe('card:[card number], thanks');
    expect(start('card:4111111111111111, thanks', 0).userText).toBe('card:4111111111111111, thanks');
  });

  it('grows with each delta and ends as the server says', () => {
    let state = begin('q');
    state = pendingReducer(state, {
      type: 'event',
      event: {
        type: 'start',
        data: {
          userMessageId: 'u2',
          model: 'built-in',
          builtIn: true,
          title: 'q',
          conversationId: 'c1',
          question: 'q',
          redacted: 0,
        },
      },
    })!;
    state = pendingReducer(state, { type: 'event', event: { type: 'delta', data: { text: 'Hel' } } })!;
    state = pendingReducer(state, { type: 'event', event: { type: 'delta', data: { text: 'lo' } } })!;
    expect(state).toMatchObject({ text: 'Hello', phase: 'streaming', builtIn: true, userMessageId: 'u2' });
    expect(
      pendingReducer(state, {
        type: 'event',
        event: { type: 'done', data: { messageId: 'a2', status: 'complete', usage: null, citations: [] } },
      }),
    ).toMatchObject({ phase: 'done', messageId: 'a2' });
    expect(pendingReducer(state, { type: 'aborted' })).toMatchObject({ phase: 'stopped', text: 'Hello' });
    expect(
      pendingReducer(state, { type: 'event', event: { type: 'error', data: { messageId: 'a2', message: 'boom' } } }),
    ).toMatchObject({ phase: 'failed', error: 'boom' });
  });

  it('is covered once the list holds a reply after the question, never while streaming', () => {
    const stopped = { ...begin('q'), userMessageId: 'u2', phase: 'stopped' as const };
    const before = [message('u1', 'user'), message('a1', 'assistant'), message('u2', 'user')];
    expect(isCovered(before, stopped)).toBe(false);
    expect(isCovered([...before, message('a2', 'assistant')], stopped)).toBe(true);
    expect(isCovered([...before, message('a2', 'assistant')], { ...stopped, phase: 'streaming' })).toBe(false);
  });

  it('on regenerate hides the replaced reply and waits for its successor', () => {
    const items = [message('u1', 'user'), message('a1', 'assistant')];
    const regenerating = { ...begin(null, 'a1'), userMessageId: 'u1' };
    expect(storedBeside(items, regenerating).map((m) => m._id)).toEqual(['u1']);
    expect(isCovered(items, { ...regenerating, phase: 'done' })).toBe(false);
    expect(isCovered([message('u1', 'user'), message('a9', 'assistant')], { ...regenerating, phase: 'done' })).toBe(
      true,
    );
    // A server that rewrites the reply in place: the id `done` named is in the list.
    expect(isCovered(items, { ...regenerating, phase: 'done', messageId: 'a1' })).toBe(true);
  });

  it('does not show the question twice while the list already has it', () => {
    const items = [message('u2', 'user')];
    expect(storedBeside(items, { ...begin('q'), userMessageId: 'u2' })).toEqual([]);
    expect(storedBeside(items, null)).toEqual(items);
  });
});
