// The chat screen's local shapes (model.ts) must stay the server's: compared with the contracts
// at type level (tsc runs over the tests), so the contracts' zod stays out of the bundle.
import { describe, expect, it } from '@jest/globals';
import type { ChatModelsDto, ChatStreamBody, ConversationDto, MessageDto, StreamDeltaEvent, StreamDoneEvent, StreamErrorEvent, StreamStartEvent } from '@earshot/contracts';
import type { z } from 'zod';
import type { ChatModels, Conversation, Message, StreamBody, StreamDelta, StreamDone, StreamError, StreamStart } from './model';

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

const same: Array<true> = [
  true satisfies Same<Conversation, ConversationDto>,
  true satisfies Same<Message, MessageDto>,
  true satisfies Same<ChatModels, z.infer<typeof ChatModelsDto>>,
  true satisfies Same<StreamBody, ChatStreamBody>,
  true satisfies Same<StreamStart, z.infer<typeof StreamStartEvent>>,
  true satisfies Same<StreamDelta, z.infer<typeof StreamDeltaEvent>>,
  true satisfies Same<StreamDone, z.infer<typeof StreamDoneEvent>>,
  true satisfies Same<StreamError, z.infer<typeof StreamErrorEvent>>,
];

describe('chat shapes', () => {
  it('match the chat contract (checked by tsc)', () => {
    expect(same.every(Boolean)).toBe(true);
  });
});
